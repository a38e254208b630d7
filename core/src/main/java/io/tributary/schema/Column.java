package io.tributary.schema;

import java.nio.charset.Charset;
import java.util.List;

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
 */
public record Column(String name, int ordinal, String dataType, String columnType, ValueKind kind,
		boolean unsigned, Charset charset, long length, int scale, List<String> labels, boolean nullable) {

	/** Returns the column name quoted for SQL. */
	public String quotedName() {
		return "`" + this.name.replace("`", "``") + "`";
	}

	/**
	 * Returns the expression a snapshot read selects for this column, chosen so that the JDBC
	 * value converts to the same canonical value the binlog decoder produces.
	 */
	public String selectExpression() {
		return switch (this.kind) {
			case TEMPORAL -> "CAST(" + quotedName() + " AS CHAR)";
			default -> quotedName();
		};
	}

}
