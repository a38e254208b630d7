package io.tributary.source.binlog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.tributary.name.TableId;

/**
 * Recognizes the statements in the binlog that create, change or remove a table: CREATE TABLE
 * (not a temporary one), ALTER TABLE, RENAME TABLE, DROP TABLE and TRUNCATE, and names the tables
 * they touch.
 *
 * @param kind what the statement does
 * @param tables the tables it touches (for RENAME, each old name followed by its new name)
 */
record SchemaStatement(Kind kind, List<TableId> tables) {

	enum Kind {

		ALTER, RENAME, DROP, TRUNCATE, CREATE,

		/** MariaDB's {@code CREATE OR REPLACE TABLE}, which drops a table of that name first. */
		REPLACE

	}

	/**
	 * A name, quoted or not: unquoted, MySQL allows letters, digits, {@code _}, {@code $} and every
	 * character from U+0080 on (such as {@code dbz5743中文}).
	 */
	private static final String PART = "(`(?:[^`]|``)+`|[\\w$\\x{80}-\\x{10FFFF}]+)";

	private static final String NAME = PART + "(?:\\s*\\.\\s*" + PART + ")?";

	private static final Pattern ALTER = Pattern.compile("^ALTER\\s+(?:ONLINE\\s+)?(?:IGNORE\\s+)?TABLE\\s+"
			+ "(?:IF\\s+EXISTS\\s+)?" + NAME, Pattern.CASE_INSENSITIVE);

	private static final Pattern TRUNCATE = Pattern.compile("^TRUNCATE\\s+(?:TABLE\\s+)?" + NAME,
			Pattern.CASE_INSENSITIVE);

	private static final Pattern DROP = Pattern.compile("^DROP\\s+(?:TEMPORARY\\s+)?TABLE\\s+(?:IF\\s+EXISTS\\s+)?(.*)$",
			Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

	private static final Pattern RENAME = Pattern.compile("^RENAME\\s+TABLES?\\s+(.*)$",
			Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

	private static final Pattern CREATE = Pattern.compile("^CREATE\\s+(OR\\s+REPLACE\\s+)?(TEMPORARY\\s+)?TABLE\\s+"
			+ "(?:IF\\s+NOT\\s+EXISTS\\s+)?" + NAME, Pattern.CASE_INSENSITIVE);

	private static final Pattern ANY_NAME = Pattern.compile(NAME);

	/**
	 * Parses a statement from a QUERY event.
	 * @param sql the statement
	 * @param database the session's default database when it ran, or {@code null}
	 * @return the statement, or {@code null} when it changes no table
	 */
	static SchemaStatement parse(String sql, String database) {
		String text = withoutComments(sql).trim();
		Matcher matcher = ALTER.matcher(text);
		if (matcher.find()) {
			return new SchemaStatement(Kind.ALTER, List.of(name(matcher, database)));
		}
		matcher = TRUNCATE.matcher(text);
		if (matcher.find()) {
			return new SchemaStatement(Kind.TRUNCATE, List.of(name(matcher, database)));
		}
		matcher = DROP.matcher(text);
		if (matcher.find()) {
			return new SchemaStatement(Kind.DROP, names(matcher.group(1), database));
		}
		matcher = RENAME.matcher(text);
		if (matcher.find()) {
			return new SchemaStatement(Kind.RENAME, names(matcher.group(1), database));
		}
		matcher = CREATE.matcher(text);
		if (matcher.find() && matcher.group(2) == null) {
			// A temporary table is the session's own and never replicated.
			return new SchemaStatement((matcher.group(1) != null) ? Kind.REPLACE : Kind.CREATE,
					List.of(name(matcher, database, 3)));
		}
		return null;
	}

	private static List<TableId> names(String list, String database) {
		List<TableId> tables = new ArrayList<>();
		Matcher matcher = ANY_NAME.matcher(list);
		while (matcher.find()) {
			String first = matcher.group(1);
			if (matcher.group(2) == null && List.of("TO", "RESTRICT", "CASCADE", "WAIT", "NOWAIT")
				.contains(first.toUpperCase(Locale.ROOT))) {
				continue;
			}
			if (matcher.group(2) == null && first.matches("\\d+")) {
				continue;
			}
			tables.add(name(matcher, database));
		}
		return tables;
	}

	/**
	 * Removes {@code /* ... *\/} comments outside quoted names and strings, which may hold the
	 * same characters.
	 */
	static String withoutComments(String sql) {
		StringBuilder out = new StringBuilder(sql.length());
		char quote = 0;
		for (int i = 0; i < sql.length(); i++) {
			char c = sql.charAt(i);
			if (quote != 0) {
				out.append(c);
				if (c == '\\' && quote != '`' && i + 1 < sql.length()) {
					out.append(sql.charAt(++i));
				}
				else if (c == quote) {
					quote = 0;
				}
			}
			else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
				int end = sql.indexOf("*/", i + 2);
				i = (end < 0) ? sql.length() : end + 1;
				out.append(' ');
			}
			else {
				if (c == '`' || c == '\'' || c == '"') {
					quote = c;
				}
				out.append(c);
			}
		}
		return out.toString();
	}

	private static TableId name(Matcher matcher, String database) {
		return name(matcher, database, 1);
	}

	/** Reads the name whose first part is group {@code group} and whose second is the next group. */
	private static TableId name(Matcher matcher, String database, int group) {
		String first = unquote(matcher.group(group));
		String second = matcher.group(group + 1);
		if (second != null) {
			return new TableId(first, unquote(second));
		}
		return new TableId((database != null) ? database : "", first);
	}

	private static String unquote(String name) {
		return name.startsWith("`") ? name.substring(1, name.length() - 1).replace("``", "`") : name;
	}

}
