package io.tributary.schema;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;

/**
 * Renders a value of MySQL's binary JSON type, as a row image of the binlog carries it, to exactly
 * the text a SELECT of the column returns: {@code ": "} and {@code ", "} between members, object
 * keys in their stored order, strings escaped as the server escapes them, doubles as
 * {@link MySqlDoubleText} writes them, DECIMAL at its scale, DATE as {@code "2015-01-15"}, TIME,
 * DATETIME and TIMESTAMP always with six fractional digits ({@code "-01:00:00.000000"},
 * {@code "2015-01-15 23:24:25.000000"}), and any other value of a MySQL type (BLOB, BIT and so on)
 * as {@code "base64:type<field type>:<base64 in lines of 76>"}.
 *
 * <p>It reads the binary format itself: the binlog client's parser garbles negative TIME values,
 * DATETIMEs from the year 2520 on and unsigned 32-bit integers from 2^31 on, and drops the
 * unsigned 32-bit integers a large document holds in its value entries.
 */
final class MySqlJsonText {

	private static final int SMALL_OBJECT = 0x00;

	private static final int LARGE_OBJECT = 0x01;

	private static final int SMALL_ARRAY = 0x02;

	private static final int LARGE_ARRAY = 0x03;

	private static final int LITERAL = 0x04;

	private static final int INT16 = 0x05;

	private static final int UINT16 = 0x06;

	private static final int INT32 = 0x07;

	private static final int UINT32 = 0x08;

	private static final int INT64 = 0x09;

	private static final int UINT64 = 0x0a;

	private static final int DOUBLE = 0x0b;

	private static final int STRING = 0x0c;

	private static final int CUSTOM = 0x0f;

	/** MySQL field types whose values a JSON document holds in their own form rather than as bytes. */
	private static final int FIELD_TIMESTAMP = 7;

	private static final int FIELD_DATE = 10;

	private static final int FIELD_TIME = 11;

	private static final int FIELD_DATETIME = 12;

	private static final int FIELD_NEWDECIMAL = 246;

	private static final Base64.Encoder BASE64 = Base64.getMimeEncoder(76, new byte[] { '\n' });

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private final byte[] data;

	private final StringBuilder out;

	private MySqlJsonText(byte[] data) {
		this.data = data;
		this.out = new StringBuilder(data.length + data.length / 4 + 8);
	}

	/**
	 * Returns the text of one binary JSON value.
	 * @throws IllegalArgumentException when the bytes are not a binary JSON value
	 */
	static String render(byte[] binary) {
		MySqlJsonText text = new MySqlJsonText(binary);
		try {
			text.value(binary[0] & 0xFF, 1);
		}
		catch (IndexOutOfBoundsException ex) {
			throw new IllegalArgumentException("A binary JSON value of " + binary.length + " bytes ends early", ex);
		}
		return text.out.toString();
	}

	/** Renders a value of the given type that starts at {@code at}. */
	private void value(int type, int at) {
		switch (type) {
			case SMALL_OBJECT -> container(at, false, true);
			case LARGE_OBJECT -> container(at, true, true);
			case SMALL_ARRAY -> container(at, false, false);
			case LARGE_ARRAY -> container(at, true, false);
			case LITERAL -> literal(this.data[at]);
			case INT16 -> this.out.append((short) littleEndian(at, 2));
			case UINT16 -> this.out.append(littleEndian(at, 2));
			case INT32 -> this.out.append((int) littleEndian(at, 4));
			case UINT32 -> this.out.append(littleEndian(at, 4));
			case INT64 -> this.out.append(littleEndian(at, 8));
			case UINT64 -> this.out.append(Long.toUnsignedString(littleEndian(at, 8)));
			case DOUBLE -> MySqlDoubleText.append(this.out, Double.longBitsToDouble(littleEndian(at, 8)));
			case STRING -> {
				int length = varLength(at);
				int start = at + varLengthSize(at);
				quoted(new String(this.data, start, length, StandardCharsets.UTF_8));
			}
			case CUSTOM -> custom(at);
			default -> throw new IllegalArgumentException("Unknown binary JSON type " + type + " at byte " + at);
		}
	}

	/**
	 * Renders an object or array: a header of element count and byte size, one entry per key (offset
	 * and length), one entry per value (type and offset, or the value itself when it fits), then the
	 * keys and values. Offsets count from the start of the header; a large one uses 4-byte counts and
	 * offsets instead of 2-byte ones.
	 */
	private void container(int start, boolean large, boolean object) {
		int size = large ? 4 : 2;
		int count = index(start, size);
		int bytes = index(start + size, size);
		int keyEntries = start + 2 * size;
		int valueEntries = keyEntries + (object ? count * (size + 2) : 0);
		this.out.append(object ? '{' : '[');
		for (int i = 0; i < count; i++) {
			if (i > 0) {
				this.out.append(", ");
			}
			if (object) {
				int keyEntry = keyEntries + i * (size + 2);
				int keyOffset = index(keyEntry, size);
				int keyLength = (int) littleEndian(keyEntry + size, 2);
				quoted(new String(this.data, start + offset(keyOffset, bytes), keyLength, StandardCharsets.UTF_8));
				this.out.append(": ");
			}
			int valueEntry = valueEntries + i * (1 + size);
			int type = this.data[valueEntry] & 0xFF;
			if (isInlined(type, large)) {
				value(type, valueEntry + 1);
			}
			else {
				value(type, start + offset(index(valueEntry + 1, size), bytes));
			}
		}
		this.out.append(object ? '}' : ']');
	}

	/** Literals and 16-bit integers sit in a value entry, and so do 32-bit ones in a large container. */
	private static boolean isInlined(int type, boolean large) {
		return type == LITERAL || type == INT16 || type == UINT16 || (large && (type == INT32 || type == UINT32));
	}

	private void literal(byte literal) {
		switch (literal) {
			case 0x00 -> this.out.append("null");
			case 0x01 -> this.out.append("true");
			case 0x02 -> this.out.append("false");
			default -> throw new IllegalArgumentException("Unknown binary JSON literal " + literal);
		}
	}

	/** Renders a value of a MySQL type: its field type, its length, and its bytes. */
	private void custom(int at) {
		int fieldType = this.data[at] & 0xFF;
		int length = varLength(at + 1);
		int start = at + 1 + varLengthSize(at + 1);
		switch (fieldType) {
			case FIELD_NEWDECIMAL -> {
				// Precision and scale, then the decimal in the binary form of a DECIMAL column.
				byte[] digits = new byte[length - 2];
				System.arraycopy(this.data, start + 2, digits, 0, digits.length);
				this.out.append(AbstractRowsEventDataDeserializer
					.asBigDecimal(this.data[start] & 0xFF, this.data[start + 1] & 0xFF, digits)
					.toPlainString());
			}
			case FIELD_DATE, FIELD_TIME, FIELD_DATETIME, FIELD_TIMESTAMP -> {
				if (length != 8) {
					throw new IllegalArgumentException("A binary JSON temporal value has " + length + " bytes, not 8");
				}
				temporal(fieldType, littleEndian(start, 8));
			}
			default -> {
				byte[] bytes = new byte[length];
				System.arraycopy(this.data, start, bytes, 0, length);
				quoted("base64:type" + fieldType + ":" + new String(BASE64.encode(bytes), StandardCharsets.US_ASCII));
			}
		}
	}

	/**
	 * Writes a DATE, TIME, DATETIME or TIMESTAMP packed as MySQL packs temporal values in memory: a
	 * sign, then year * 13 + month, day, hour, minute and second in 17, 5, 5, 6 and 6 bits (a TIME
	 * has 10 bits of hours and no date), shifted left by 24 bits over the microseconds.
	 */
	private void temporal(int fieldType, long packed) {
		boolean negative = packed < 0;
		long magnitude = Math.abs(packed);
		int micros = (int) (magnitude & 0xFFFFFF);
		long fields = magnitude >>> 24;
		int second = (int) (fields & 0x3F);
		int minute = (int) ((fields >>> 6) & 0x3F);
		this.out.append('"');
		if (fieldType == FIELD_TIME) {
			int hour = (int) ((fields >>> 12) & 0x3FF);
			this.out.append(negative ? "-" : "");
			padded(hour, 2);
			clock(minute, second, micros);
		}
		else {
			int hour = (int) ((fields >>> 12) & 0x1F);
			int day = (int) ((fields >>> 17) & 0x1F);
			long yearMonth = fields >>> 22;
			padded(yearMonth / 13, 4);
			this.out.append('-');
			padded(yearMonth % 13, 2);
			this.out.append('-');
			padded(day, 2);
			if (fieldType != FIELD_DATE) {
				this.out.append(' ');
				padded(hour, 2);
				clock(minute, second, micros);
			}
		}
		this.out.append('"');
	}

	private void clock(int minute, int second, int micros) {
		this.out.append(':');
		padded(minute, 2);
		this.out.append(':');
		padded(second, 2);
		this.out.append('.');
		padded(micros, 6);
	}

	/** Writes a number with leading zeros up to {@code width} digits. */
	private void padded(long value, int width) {
		String digits = Long.toString(value);
		for (int i = digits.length(); i < width; i++) {
			this.out.append('0');
		}
		this.out.append(digits);
	}

	/**
	 * Writes a string in double quotes, escaping as MySQL does: {@code "} and {@code \} with a
	 * backslash, the control characters that have a short escape with it, other characters below
	 * U+0020 as a backslash, {@code u00} and two lower-case hex digits, and everything else as it is.
	 */
	private void quoted(String text) {
		this.out.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> this.out.append("\\\"");
				case '\\' -> this.out.append("\\\\");
				case '\b' -> this.out.append("\\b");
				case '\f' -> this.out.append("\\f");
				case '\n' -> this.out.append("\\n");
				case '\r' -> this.out.append("\\r");
				case '\t' -> this.out.append("\\t");
				default -> {
					if (c < 0x20) {
						this.out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
					}
					else {
						this.out.append(c);
					}
				}
			}
		}
		this.out.append('"');
	}

	private long littleEndian(int at, int bytes) {
		long value = 0;
		for (int i = bytes - 1; i >= 0; i--) {
			value = (value << 8) | (this.data[at + i] & 0xFF);
		}
		return value;
	}

	/** Reads a count or offset, which the format keeps below 2^31 even in large containers. */
	private int index(int at, int bytes) {
		long value = littleEndian(at, bytes);
		if (value > Integer.MAX_VALUE) {
			throw new IllegalArgumentException("A binary JSON count or offset of " + value + " at byte " + at);
		}
		return (int) value;
	}

	private static int offset(int offset, int containerBytes) {
		if (offset >= containerBytes) {
			throw new IllegalArgumentException(
					"A binary JSON offset of " + offset + " past its container of " + containerBytes + " bytes");
		}
		return offset;
	}

	/** Reads a length stored in 7-bit groups, least significant first, the high bit marking another. */
	private int varLength(int at) {
		long length = 0;
		for (int i = 0; i < 5; i++) {
			int b = this.data[at + i] & 0xFF;
			length |= (long) (b & 0x7F) << (7 * i);
			if ((b & 0x80) == 0) {
				if (length > Integer.MAX_VALUE) {
					break;
				}
				return (int) length;
			}
		}
		throw new IllegalArgumentException("A binary JSON length at byte " + at + " is malformed");
	}

	private int varLengthSize(int at) {
		int size = 1;
		while ((this.data[at + size - 1] & 0x80) != 0) {
			size++;
		}
		return size;
	}

}
