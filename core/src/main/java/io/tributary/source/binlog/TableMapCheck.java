package io.tributary.source.binlog;

import java.util.Set;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;

import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;

/**
 * Cross-checks the column types a TABLE_MAP event announces against the layout a table is decoded
 * with. The table map travels with every row event, so it is the one description of a row image
 * that cannot be stale; a layout read from {@code information_schema} can be, when the source
 * changed the table again before the reader reached the first change.
 *
 * <p>The comparison is by type class, so a healthy stream never trips it: integer widths, DECIMAL,
 * FLOAT, DOUBLE, BIT, YEAR, JSON and the temporal types exactly; character and binary strings as one
 * class; TEXT and BLOB as one class. It catches columns of different classes trading places, which
 * is what misaligns values.
 */
final class TableMapCheck {

	// Binlog column type codes.
	private static final int TINY = 1, SHORT = 2, LONG = 3, FLOAT = 4, DOUBLE = 5, TIMESTAMP = 7, LONGLONG = 8,
			INT24 = 9, DATE = 10, TIME = 11, DATETIME = 12, YEAR = 13, NEWDATE = 14, VARCHAR = 15, BIT = 16,
			TIMESTAMP2 = 17, DATETIME2 = 18, TIME2 = 19, JSON = 245, NEWDECIMAL = 246, ENUM = 247, SET = 248,
			TINY_BLOB = 249, MEDIUM_BLOB = 250, LONG_BLOB = 251, BLOB = 252, VAR_STRING = 253, STRING = 254,
			GEOMETRY = 255;

	private static final Set<Integer> STRINGS = Set.of(VARCHAR, VAR_STRING, STRING);

	private static final Set<Integer> BLOBS = Set.of(TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, BLOB);

	private TableMapCheck() {
	}

	/**
	 * Returns why the table map does not fit the layout, or {@code null} when it does.
	 */
	static String mismatch(TableMapEventData map, TableLayout layout) {
		byte[] types = map.getColumnTypes();
		int[] metadata = map.getColumnMetadata();
		if (types.length != layout.columns().size()) {
			return "the binlog's table map has " + types.length + " columns but the layout has "
					+ layout.columns().size();
		}
		for (Column column : layout.columns()) {
			int code = types[column.ordinal()] & 0xFF;
			if (code == STRING && metadata[column.ordinal()] >= 256) {
				int real = metadata[column.ordinal()] >> 8;
				if (real == ENUM || real == SET) {
					code = real;
				}
			}
			if (!fits(code, column.dataType())) {
				return "column " + (column.ordinal() + 1) + " (" + column.name() + ") is " + column.columnType()
						+ " in the layout but the binlog carries type code " + code;
			}
		}
		return null;
	}

	static boolean fits(int code, String dataType) {
		return switch (dataType) {
			case "tinyint" -> code == TINY;
			case "smallint" -> code == SHORT;
			case "mediumint" -> code == INT24;
			case "int", "integer" -> code == LONG;
			case "bigint" -> code == LONGLONG;
			case "year" -> code == YEAR;
			case "decimal", "numeric" -> code == NEWDECIMAL;
			case "float" -> code == FLOAT;
			case "double", "real" -> code == DOUBLE;
			case "bit" -> code == BIT;
			case "char", "varchar", "binary", "varbinary" -> STRINGS.contains(code);
			case "enum" -> code == ENUM;
			case "set" -> code == SET;
			case "tinytext", "text", "mediumtext", "longtext", "tinyblob", "blob", "mediumblob", "longblob" ->
				BLOBS.contains(code);
			case "json" -> code == JSON || BLOBS.contains(code);
			case "date" -> code == DATE || code == NEWDATE;
			case "time" -> code == TIME || code == TIME2;
			case "datetime" -> code == DATETIME || code == DATETIME2;
			case "timestamp" -> code == TIMESTAMP || code == TIMESTAMP2;
			default -> code == GEOMETRY || BLOBS.contains(code);
		};
	}

}
