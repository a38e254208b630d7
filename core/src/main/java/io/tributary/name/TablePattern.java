package io.tributary.name;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which source tables a rule takes: one table ({@code shop.orders}), a wildcard name
 * ({@code shop.*}, {@code shop.order_?}, {@code sales_*.orders}) or a regular expression over
 * {@code schema.table} ({@code regex:shop\.order_[0-9]+}).
 *
 * <p>A wildcard name is written as MySQL writes names, one part for the schema and one for the
 * table: in a plain part {@code *} stands for any run of characters and {@code ?} for one
 * character, and every other character, {@code _} and {@code %} included, for itself; a part in
 * backticks is taken literally. A regular expression ({@link Pattern} syntax) must match the whole
 * of {@code schema.table}, the two names joined by a dot as they are, unquoted. Matching ignores
 * case, as names of tables do ({@link TableId#equals}).
 */
public final class TablePattern {

	/** Prefix of the regular-expression form. */
	public static final String REGEX = "regex:";

	private final String text;

	private final TableId exact;

	private final Pattern schema;

	private final Pattern table;

	private final Pattern whole;

	private TablePattern(String text, TableId exact, Pattern schema, Pattern table, Pattern whole) {
		this.text = text;
		this.exact = exact;
		this.schema = schema;
		this.table = table;
		this.whole = whole;
	}

	/**
	 * Reads a pattern.
	 * @param text one of the forms above
	 * @return the pattern
	 * @throws IllegalArgumentException when the text is empty, names no schema, or is not a valid
	 * name or regular expression; the message names the position of the fault
	 */
	public static TablePattern parse(String text) {
		if (text == null || text.isBlank()) {
			throw new IllegalArgumentException("Table pattern must not be empty");
		}
		String trimmed = text.strip();
		if (trimmed.startsWith(REGEX)) {
			String expression = trimmed.substring(REGEX.length());
			if (expression.isBlank()) {
				throw new IllegalArgumentException("Table pattern '" + text + "' has no expression after " + REGEX);
			}
			try {
				return new TablePattern(trimmed, null, null, null, Pattern.compile(expression, flags()));
			}
			catch (PatternSyntaxException ex) {
				throw new IllegalArgumentException("Table pattern '" + text + "' is not a regular expression: "
						+ ex.getDescription() + " at position " + (REGEX.length() + ex.getIndex() + 1), ex);
			}
		}
		List<NameReader.Part> parts = new NameReader(trimmed).read();
		if (parts.size() != 2) {
			throw new IllegalArgumentException("Table pattern '" + text + "' names no schema; write it as schema.table, "
					+ "as in shop.* or shop.orders");
		}
		NameReader.Part schema = parts.get(0);
		NameReader.Part table = parts.get(1);
		if (!wild(schema) && !wild(table)) {
			return new TablePattern(trimmed, new TableId(schema.text(), table.text()), null, null, null);
		}
		return new TablePattern(trimmed, null, glob(schema), glob(table), null);
	}

	/** Returns whether the pattern names one table, without wildcards. */
	public boolean isExact() {
		return this.exact != null;
	}

	/**
	 * Returns the one table the pattern names.
	 * @throws IllegalStateException for a wildcard or a regular expression
	 */
	public TableId exact() {
		if (this.exact == null) {
			throw new IllegalStateException("Pattern " + this.text + " names more than one table");
		}
		return this.exact;
	}

	/** Returns whether the table is one the pattern takes. */
	public boolean matches(TableId id) {
		Objects.requireNonNull(id, "id");
		if (this.exact != null) {
			return this.exact.equals(id);
		}
		if (this.whole != null) {
			return this.whole.matcher(id.schema() + "." + id.table()).matches();
		}
		return this.schema.matcher(id.schema()).matches() && this.table.matcher(id.table()).matches();
	}

	/** Returns the pattern as it was written. */
	@Override
	public String toString() {
		return this.text;
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof TablePattern other) && this.text.equals(other.text);
	}

	@Override
	public int hashCode() {
		return this.text.hashCode();
	}

	private static boolean wild(NameReader.Part part) {
		return !part.quoted() && (part.text().indexOf('*') >= 0 || part.text().indexOf('?') >= 0);
	}

	private static Pattern glob(NameReader.Part part) {
		if (part.quoted()) {
			return Pattern.compile(Pattern.quote(part.text()), flags());
		}
		StringBuilder regex = new StringBuilder();
		StringBuilder literal = new StringBuilder();
		for (char c : part.text().toCharArray()) {
			if (c == '*' || c == '?') {
				if (!literal.isEmpty()) {
					regex.append(Pattern.quote(literal.toString()));
					literal.setLength(0);
				}
				regex.append((c == '*') ? ".*" : ".");
			}
			else {
				literal.append(c);
			}
		}
		if (!literal.isEmpty()) {
			regex.append(Pattern.quote(literal.toString()));
		}
		return Pattern.compile(regex.toString(), flags());
	}

	private static int flags() {
		return Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL;
	}

}
