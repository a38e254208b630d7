package io.tributary.schema;

import java.nio.charset.Charset;
import java.util.List;
import java.util.Locale;

/**
 * One column of a source table as {@code information_schema} describes it.
 *
 * @param name column name
 * @param ordinal 0-based position in the row image
 * @param dataType lower-case {@code DATA_TYPE}, such as {@code int} or {@code varchar}
 * @param columnType full {@code COLUMN_TYPE}, such as {@code int(10) unsigned}
 * @param kind in-memory representation of the values
 * @param unsigned whether an integer column is UNSIGNED
 * @param charset Java charset of a character column, or {@code null}
 * @param length maximum length (characters or bytes) where the type has one, the bit count of
 * BIT(n), else 0
 * @param scale DECIMAL scale, or fractional-second digits of a temporal column
 * @param labels ENUM or SET member labels in definition order, else empty
 * @param nullable whether the column accepts NULL
 * @param collation {@code COLLATION_NAME} of a character column, such as
 * {@code utf8mb4_general_ci}; {@code null} for other columns, and when unknown
 * @param generated whether the server computes the column from an expression (a virtual or stored
 * generated column): row images carry its value, but no write may give it one
 */
public record Column(String name, int ordinal, String dataType, String columnType, ValueKind kind,
		boolean unsigned, Charset charset, long length, int scale, List<String> labels, boolean nullable,
		String collation, boolean generated) {

	/** Creates a column that is not generated. */
	public Column(String name, int ordinal, String dataType, String columnType, ValueKind kind, boolean unsigned,
			Charset charset, long length, int scale, List<String> labels, boolean nullable, String collation) {
		this(name, ordinal, dataType, columnType, kind, unsigned, charset, length, scale, labels, nullable, collation,
				false);
	}

	/**
	 * Creates a column whose collation is unknown. A character column created this way counts as
	 * not memory-comparable (see {@link #isMemoryComparable()}).
	 */
	public Column(String name, int ordinal, String dataType, String columnType, ValueKind kind, boolean unsigned,
			Charset charset, long length, int scale, List<String> labels, boolean nullable) {
		this(name, ordinal, dataType, columnType, kind, unsigned, charset, length, scale, labels, nullable, null,
				false);
	}

	/** Returns the column name quoted for SQL. */
	public String quotedName() {
		return "`" + this.name.replace("`", "``") + "`";
	}

	/**
	 * Returns the expression a snapshot read selects for this column, chosen so that the JDBC
	 * value converts to the same canonical value the binlog decoder produces. A FLOAT is read as
	 * the DOUBLE it equals: MariaDB renders FLOAT values with six significant digits, which does
	 * not give back the stored value.
	 */
	public String selectExpression() {
		return switch (this.kind) {
			case TEMPORAL -> "CAST(" + quotedName() + " AS CHAR)";
			case FLOAT -> "(" + quotedName() + " + 0E0)";
			default -> quotedName();
		};
	}

	/**
	 * Returns whether two values of this column are equal on the server exactly when their
	 * canonical in-memory values are equal. True for integer, decimal, temporal, binary and BIT
	 * columns, for ENUM and SET (whose values are canonical labels), and for character columns with
	 * a binary collation ({@code binary} or {@code *_bin}). False for character columns with any
	 * other collation (case- or accent-insensitive ones, such as {@code utf8mb4_general_ci} or
	 * {@code utf8mb4_0900_ai_ci}, where {@code 'A' = 'a'}), for character columns of unknown
	 * collation, and for FLOAT and DOUBLE (where {@code -0.0 = 0.0}).
	 */
	public boolean isMemoryComparable() {
		return switch (this.kind) {
			case INTEGER, UNSIGNED_BIGINT, DECIMAL, TEMPORAL, BYTES, BIT -> true;
			case TEXT -> this.dataType.equals("enum") || this.dataType.equals("set") || hasBinaryCollation();
			case FLOAT, DOUBLE, JSON -> false;
		};
	}

	private boolean hasBinaryCollation() {
		if (this.collation == null) {
			return false;
		}
		String lower = this.collation.toLowerCase(Locale.ROOT);
		return lower.equals("binary") || lower.endsWith("_bin");
	}

}
