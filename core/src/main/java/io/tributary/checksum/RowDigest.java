package io.tributary.checksum;

import java.util.List;
import java.util.stream.Collectors;

import io.tributary.schema.Column;

/**
 * The SQL expression of a row's CRC32, the same on source and target. Each column contributes
 * {@code LENGTH(v) ':' CRC32(v)} of its normalized value {@code v}, or {@code N} when it is NULL,
 * so NULL and an empty string differ and no value can shift into its neighbour; only digits,
 * colons, {@code N} and separators are concatenated, so columns of different character sets or
 * collations never meet in one string.
 */
final class RowDigest {

	private RowDigest() {
	}

	/** Returns {@code CRC32(...)} over the given columns. */
	static String crc(List<Column> columns) {
		return columns.stream()
			.map(RowDigest::part)
			.collect(Collectors.joining(", ", "CRC32(CONCAT_WS('|', ", "))"));
	}

	/** Returns one column's contribution: its length and CRC, or {@code N} for NULL. */
	static String part(Column column) {
		String value = normalized(column);
		return "IFNULL(CONCAT(LENGTH(" + value + "), ':', CRC32(" + value + ")), 'N')";
	}

	/**
	 * Returns the column's value rendered identically on both servers: floating-point values as
	 * the DOUBLE they equal (a FLOAT's text form otherwise depends on the rounding the server
	 * applies), BIT as its number, temporal values as text at the column's own precision (TIMESTAMP
	 * in the session's UTC), JSON as its text; everything else as its stored bytes.
	 */
	static String normalized(Column column) {
		String name = column.quotedName();
		return switch (column.kind()) {
			case FLOAT, DOUBLE -> "(" + name + " + 0E0)";
			case BIT -> "(" + name + " + 0)";
			case TEMPORAL, JSON -> "CAST(" + name + " AS CHAR)";
			default -> name;
		};
	}

}
