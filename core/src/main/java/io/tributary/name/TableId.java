package io.tributary.name;

import java.util.List;
import java.util.Objects;

/**
 * A schema-qualified table name. Equality ignores case, as MySQL does on the platforms Tributary
 * supports with {@code lower_case_table_names} set; the original spelling is kept for SQL.
 *
 * @param schema database (schema) name
 * @param table table name
 */
public record TableId(String schema, String table) {

	public TableId {
		Objects.requireNonNull(schema, "schema");
		Objects.requireNonNull(table, "table");
	}

	/**
	 * Parses a name as MySQL writes it: {@code schema.table}, or {@code table} alone when a default
	 * schema is given. Each part is plain (any text without a dot or a backtick, trimmed) or quoted
	 * with backticks, a backtick inside written twice, so that {@code `a.b`.`c``d`} names table
	 * {@code c`d} in schema {@code a.b}.
	 * @param text the name
	 * @param defaultSchema schema for an unqualified name, or {@code null} to require one
	 * @return the table id
	 * @throws IllegalArgumentException for an empty or malformed name, naming the position of the fault
	 */
	public static TableId parse(String text, String defaultSchema) {
		if (text == null || text.isBlank()) {
			throw new IllegalArgumentException("Table name must not be empty");
		}
		List<String> parts = new NameReader(text).parts();
		if (parts.size() == 1) {
			if (defaultSchema == null || defaultSchema.isBlank()) {
				throw new IllegalArgumentException(
						"Table name '" + text + "' must be qualified with its schema, as in shop.orders");
			}
			return new TableId(defaultSchema, parts.get(0));
		}
		return new TableId(parts.get(0), parts.get(1));
	}

	/** Returns the name quoted for SQL: {@code `schema`.`table`}. */
	public String quoted() {
		return quote(this.schema) + "." + quote(this.table);
	}

	/** Quotes one identifier with backticks, doubling any backtick inside it. */
	public static String quote(String identifier) {
		return "`" + identifier.replace("`", "``") + "`";
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof TableId other) && this.schema.equalsIgnoreCase(other.schema)
				&& this.table.equalsIgnoreCase(other.table);
	}

	/**
	 * A hash that agrees with {@link #equals(Object)}: each character folded as
	 * {@link String#equalsIgnoreCase(String)} folds it. Computed without building lower-case copies:
	 * the reader looks tables up by id once or more per row event.
	 */
	@Override
	public int hashCode() {
		return foldedHash(this.schema) * 31 + foldedHash(this.table);
	}

	private static int foldedHash(String text) {
		if (foldsToItself(text)) {
			// Folding changes no character: the same sum, which String caches.
			return text.hashCode();
		}
		int hash = 0;
		for (int i = 0; i < text.length(); i++) {
			hash = 31 * hash + Character.toLowerCase(Character.toUpperCase(text.charAt(i)));
		}
		return hash;
	}

	/** Whether the text is ASCII without capitals, which case folding leaves as it is. */
	private static boolean foldsToItself(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c >= 0x80 || (c >= 'A' && c <= 'Z')) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Returns {@code schema.table} as {@link #parse} reads it back: each part plain when it can be,
	 * so ordinary names read as they always have, and quoted with backticks when it holds a dot or a
	 * backtick, is empty, begins or ends with white space, or begins with a parenthesis (which
	 * {@link Destination#parse} would take for another kind of destination).
	 */
	@Override
	public String toString() {
		return display(this.schema) + "." + display(this.table);
	}

	private static String display(String part) {
		boolean plain = !part.isEmpty() && part.indexOf('.') < 0 && part.indexOf('`') < 0 && part.charAt(0) != '('
				&& !Character.isWhitespace(part.charAt(0)) && !Character.isWhitespace(part.charAt(part.length() - 1));
		return plain ? part : quote(part);
	}

}
