package io.tributary.checksum;

import java.util.ArrayList;
import java.util.List;

import io.tributary.schema.Column;

/**
 * The SQL expression of a row's CRC32 on one side, source or target. Each column contributes
 * {@code LENGTH(v) ':' CRC32(v)} of its normalized value {@code v}, or {@code N} when it is NULL,
 * so NULL and an empty string differ and no value can shift into its neighbour; only digits,
 * colons, {@code N} and separators are concatenated, so columns of different character sets or
 * collations never meet in one string.
 */
final class RowDigest {

	private RowDigest() {
	}

	/**
	 * Returns {@code CRC32(...)} over the given columns.
	 * @param columns the compared columns of the source layout
	 * @param targetTypes the target's {@code COLUMN_TYPE} of each of them, in the same order
	 * @param isSource whether the expression runs on the source
	 */
	static String crc(List<Column> columns, List<String> targetTypes, boolean isSource) {
		List<String> parts = new ArrayList<>(columns.size());
		for (int i = 0; i < columns.size(); i++) {
			parts.add(part(normalized(columns.get(i), targetTypes.get(i), isSource)));
		}
		return "CRC32(CONCAT_WS('|', " + String.join(", ", parts) + "))";
	}

	/** Returns one column's contribution: its length and CRC, or {@code N} for NULL. */
	static String part(String value) {
		return "IFNULL(CONCAT(LENGTH(" + value + "), ':', CRC32(" + value + ")), 'N')";
	}

	/**
	 * Returns the column's value rendered identically on both servers: floating-point values as
	 * the DOUBLE they equal (a FLOAT's text form otherwise depends on the rounding the server
	 * applies), BIT as its number, temporal values as text at the column's own precision (TIMESTAMP
	 * in the session's UTC), JSON as its text; everything else as its stored bytes.
	 *
	 * <p>A MySQL JSON value written to a MySQL JSON column is written as text, which the target
	 * parses: a DECIMAL scalar comes back as a DOUBLE ({@code 1.50} as {@code 1.5}), and a double as
	 * the server's parser rounds its text, not always to the same double. So the source renders its
	 * value parsed from its own text, as the target holds it. The target renders what it holds: to
	 * parse again there would move some doubles once more, to a neighbour, for ever.
	 */
	static String normalized(Column column, String targetType, boolean isSource) {
		String name = column.quotedName();
		return switch (column.kind()) {
			case FLOAT, DOUBLE -> "(" + name + " + 0E0)";
			case BIT -> "(" + name + " + 0)";
			case TEMPORAL -> "CAST(" + name + " AS CHAR)";
			case JSON -> (isSource && "json".equalsIgnoreCase(targetType))
					? "CAST(CAST(CAST(" + name + " AS CHAR) AS JSON) AS CHAR)" : "CAST(" + name + " AS CHAR)";
			default -> name;
		};
	}

}
