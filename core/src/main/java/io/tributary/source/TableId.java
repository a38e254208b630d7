package io.tributary.source;

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
	 * Parses {@code schema.table}, or {@code table} alone when a default schema is given.
	 * @param text the name
	 * @param defaultSchema schema for an unqualified name, or {@code null} to require one
	 * @return the table id
	 */
	public static TableId parse(String text, String defaultSchema) {
		if (text == null || text.isBlank()) {
			throw new IllegalArgumentException("Table name must not be empty");
		}
		String trimmed = text.trim().replace("`", "");
		int dot = trimmed.indexOf('.');
		if (dot < 0) {
			if (defaultSchema == null || defaultSchema.isBlank()) {
				throw new IllegalArgumentException(
						"Table name '" + text + "' must be qualified with its schema, as in shop.orders");
			}
			return new TableId(defaultSchema, trimmed);
		}
		if (dot == 0 || dot == trimmed.length() - 1 || trimmed.indexOf('.', dot + 1) >= 0) {
			throw new IllegalArgumentException("Table name '" + text + "' is not of the form schema.table");
		}
		return new TableId(trimmed.substring(0, dot), trimmed.substring(dot + 1));
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

	@Override
	public String toString() {
		return this.schema + "." + this.table;
	}

}
