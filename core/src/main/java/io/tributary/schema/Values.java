package io.tributary.schema;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Converts column values into Tributary's canonical in-memory form (see {@link ValueKind}) from
 * both of their origins, snapshot {@link ResultSet}s and binlog row images, and binds canonical
 * values to statements against the target.
 */
public final class Values {

	private static final BigInteger UNSIGNED_LONG_MASK = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

	private Values() {
	}

	/**
	 * Reads one column of a snapshot row. The column must have been selected with
	 * {@link Column#selectExpression()}.
	 */
	public static Object fromResultSet(ResultSet rs, int index, Column column) throws SQLException {
		Object value = switch (column.kind()) {
			case INTEGER -> rs.getLong(index);
			case UNSIGNED_BIGINT -> {
				BigDecimal decimal = rs.getBigDecimal(index);
				yield (decimal != null) ? decimal.toBigIntegerExact() : null;
			}
			case DECIMAL -> rs.getBigDecimal(index);
			case FLOAT -> rs.getFloat(index);
			case DOUBLE -> rs.getDouble(index);
			case TEXT, TEMPORAL, JSON -> rs.getString(index);
			case BYTES, BIT -> rs.getBytes(index);
		};
		return rs.wasNull() ? null : value;
	}

	/** Converts one value of a binlog row image. */
	public static Object fromBinlog(Serializable raw, Column column) {
		if (raw == null) {
			return null;
		}
		return switch (column.kind()) {
			case INTEGER -> integer(raw, column);
			case UNSIGNED_BIGINT -> {
				long bits = ((Number) raw).longValue();
				yield (bits >= 0) ? BigInteger.valueOf(bits) : BigInteger.valueOf(bits).and(UNSIGNED_LONG_MASK);
			}
			case DECIMAL -> ((BigDecimal) raw).setScale(column.scale());
			case FLOAT -> ((Number) raw).floatValue();
			case DOUBLE -> ((Number) raw).doubleValue();
			case BIT -> bits((BitSet) raw, column);
			case TEXT -> text(raw, column);
			case BYTES -> binary((byte[]) raw, column);
			case TEMPORAL -> raw.toString();
			case JSON -> json((byte[]) raw);
		};
	}

	private static Long integer(Serializable raw, Column column) {
		long value = ((Number) raw).longValue();
		if (!column.unsigned() || value >= 0) {
			return value;
		}
		// The binlog carries unsigned integers in the signed type of the same width.
		return switch (column.dataType()) {
			case "tinyint" -> value & 0xFFL;
			case "smallint" -> value & 0xFFFFL;
			case "mediumint" -> value & 0xFFFFFFL;
			default -> value & 0xFFFFFFFFL;
		};
	}

	/** Renders a BIT value as the server returns it: big-endian, one byte per started 8 bits. */
	private static byte[] bits(BitSet bits, Column column) {
		long[] words = bits.toLongArray();
		long value = (words.length == 0) ? 0L : words[0];
		byte[] bytes = new byte[(int) Math.max(1, (column.length() + 7) / 8)];
		for (int i = bytes.length - 1; i >= 0; i--) {
			bytes[i] = (byte) value;
			value >>>= 8;
		}
		return bytes;
	}

	private static String text(Serializable raw, Column column) {
		if (raw instanceof byte[] bytes) {
			return new String(bytes, column.charset());
		}
		List<String> labels = column.labels();
		if (column.dataType().equals("enum")) {
			int index = ((Number) raw).intValue();
			return (index >= 1 && index <= labels.size()) ? labels.get(index - 1) : "";
		}
		if (column.dataType().equals("set")) {
			long mask = ((Number) raw).longValue();
			StringBuilder joined = new StringBuilder();
			for (int i = 0; i < labels.size(); i++) {
				if ((mask & (1L << i)) != 0) {
					joined.append((joined.length() > 0) ? "," : "").append(labels.get(i));
				}
			}
			return joined.toString();
		}
		return raw.toString();
	}

	private static byte[] binary(byte[] raw, Column column) {
		// BINARY(n) is right-padded with zero bytes on the server; the binlog may omit the padding.
		if (column.dataType().equals("binary") && raw.length < column.length()) {
			return Arrays.copyOf(raw, (int) column.length());
		}
		return raw;
	}

	private static String json(byte[] raw) {
		// A NOT NULL JSON column added to existing rows holds an empty value there, which MySQL reads as null.
		return (raw.length == 0) ? "null" : MySqlJsonText.render(raw);
	}

	/** Binds one canonical value. */
	public static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
		if (value == null) {
			statement.setNull(index, Types.NULL);
		}
		else if (value instanceof Long number) {
			statement.setLong(index, number);
		}
		else if (value instanceof String text) {
			statement.setString(index, text);
		}
		else if (value instanceof byte[] bytes) {
			statement.setBytes(index, bytes);
		}
		else if (value instanceof BigDecimal decimal) {
			statement.setBigDecimal(index, decimal);
		}
		else if (value instanceof Double number) {
			statement.setDouble(index, number);
		}
		else if (value instanceof Float number) {
			statement.setFloat(index, number);
		}
		else if (value instanceof BigInteger number) {
			// An unsigned BIGINT above Long.MAX_VALUE: a server-side statement would send setObject's
			// BigInteger as a signed 64-bit integer, which the column refuses as out of range.
			statement.setBigDecimal(index, new BigDecimal(number));
		}
		else {
			statement.setObject(index, value);
		}
	}

	/** Estimates the heap bytes a canonical value occupies, for buffer accounting. */
	public static long sizeOf(Object value) {
		if (value == null) {
			return 0;
		}
		if (value instanceof byte[] bytes) {
			return 16L + bytes.length;
		}
		if (value instanceof String text) {
			return 40L + text.length();
		}
		if (value instanceof BigDecimal || value instanceof BigInteger) {
			return 48;
		}
		return 16;
	}

	/** Estimates the heap bytes of a row or key. */
	public static long sizeOf(Object[] values) {
		if (values == null) {
			return 0;
		}
		long size = 16L + 4L * values.length;
		for (Object value : values) {
			size += sizeOf(value);
		}
		return size;
	}

}
