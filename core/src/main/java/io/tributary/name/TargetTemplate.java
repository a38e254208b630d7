package io.tributary.name;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names the target table of each source table a rule takes: a table name as MySQL writes it in
 * which {@code {schema}} and {@code {table}} stand for the source table's schema and name, as in
 * {@code replica.{table}} or {@code {schema}_copy.{table}}. A name without them is fixed: every
 * table the rule takes goes to that one table. The names put in are never parsed again, so a
 * source name holding a dot or a backtick stays one part.
 */
public final class TargetTemplate {

	private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");

	private final String text;

	private final String schema;

	private final String table;

	private TargetTemplate(String text, String schema, String table) {
		this.text = text;
		this.schema = schema;
		this.table = table;
	}

	/**
	 * Reads a template.
	 * @param text the template, {@code schema.table} or {@code table} alone
	 * @param defaultSchema schema for a template of one part, or {@code null} to require two
	 * @return the template
	 * @throws IllegalArgumentException when the text is empty, is not a name, names no schema while
	 * there is no default, or holds a placeholder other than {@code {schema}} and {@code {table}}
	 */
	public static TargetTemplate parse(String text, String defaultSchema) {
		if (text == null || text.isBlank()) {
			throw new IllegalArgumentException("Target table must not be empty");
		}
		List<String> parts = new NameReader(text).parts();
		String schema;
		if (parts.size() == 1) {
			if (defaultSchema == null || defaultSchema.isBlank()) {
				throw new IllegalArgumentException(
						"Target table '" + text + "' must be qualified with its schema, as in replica.{table}");
			}
			schema = defaultSchema;
		}
		else {
			schema = parts.get(0);
		}
		String table = parts.get(parts.size() - 1);
		check(text, schema);
		check(text, table);
		return new TargetTemplate(text, schema, table);
	}

	/** Returns the template that keeps each source table's name, in the given schema. */
	public static TargetTemplate sameName(String schema) {
		return new TargetTemplate("{table}", schema, "{table}");
	}

	/** Returns whether every table the template is given goes to one table. */
	public boolean isFixed() {
		return !PLACEHOLDER.matcher(this.schema).find() && !PLACEHOLDER.matcher(this.table).find();
	}

	/** Returns the target of one source table. */
	public TableId resolve(TableId source) {
		return new TableId(fill(this.schema, source), fill(this.table, source));
	}

	/** Returns the template as it was written. */
	@Override
	public String toString() {
		return this.text;
	}

	private static String fill(String part, TableId source) {
		Matcher placeholder = PLACEHOLDER.matcher(part);
		StringBuilder filled = new StringBuilder();
		while (placeholder.find()) {
			String value = placeholder.group(1).equals("schema") ? source.schema() : source.table();
			placeholder.appendReplacement(filled, Matcher.quoteReplacement(value));
		}
		placeholder.appendTail(filled);
		return filled.toString();
	}

	private static void check(String text, String part) {
		Matcher placeholder = PLACEHOLDER.matcher(part);
		while (placeholder.find()) {
			String name = placeholder.group(1);
			if (!name.equals("schema") && !name.equals("table")) {
				throw new IllegalArgumentException("Target table '" + text + "' has {" + name + "}, which stands for "
						+ "nothing; use {schema} and {table}");
			}
		}
	}

}
