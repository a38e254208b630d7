package io.tributary.source.binlog;

import java.io.EOFException;
import java.io.IOException;
import java.io.Serializable;
import java.net.SocketException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

/**
 * Decodes rows events into {@link DecodedRows}, with two departures from the binlog client's
 * stock decoders:
 * <ul>
 * <li>Row images of tables no one subscribed to are not decoded at all: after the table id the
 * rest of the event is skipped, which is most of the cost of reading a busy binlog.</li>
 * <li>A subscribed rows event is read from the stream in one piece and decoded from an array
 * ({@link ArrayCursor}), not a byte at a time through the stream.</li>
 * <li>Of a before-image (the first image of an update, the image of a delete) only the key columns
 * are decoded: nothing else of it is used. The other cells are read past without building values.</li>
 * <li>Column types are looked up in an array, not the stock decoder's map of boxed codes, once per
 * cell.</li>
 * <li>Temporal values are rendered as the server renders them ({@code 2024-02-29 13:45:07.120}),
 * so zero dates, negative and fractional times, and TIMESTAMPs (in UTC) survive exactly; character
 * and binary strings stay raw bytes, to be decoded with the column's charset; YEAR 0 stays 0.</li>
 * </ul>
 */
final class RowsEventDecoder extends AbstractRowsEventDataDeserializer<DecodedRows> {

	enum Kind {

		WRITE, UPDATE, DELETE

	}

	/** Column types by type code; {@code null} where no type has that code. */
	private static final ColumnType[] TYPES = new ColumnType[256];

	static {
		for (ColumnType type : ColumnType.values()) {
			TYPES[type.getCode() & 0xFF] = type;
		}
	}

	private final Kind kind;

	private final boolean extraInformation;

	/** What a table id stands for; {@code null} for an id no table map named. */
	private final LongFunction<ResolvedTable> tables;

	/** Where skipped bytes are read to; each decoder is used on the reader thread only. */
	private final byte[] scratch = new byte[4096];

	/** The body of the subscribed rows event being decoded. */
	private final ArrayCursor body = new ArrayCursor();

	/** The null bitmap of the row image being read, grown to the widest table. */
	private byte[] nulls = new byte[8];

	/**
	 * @param tables what a table id stands for, whose rows are decoded only when they are wanted
	 */
	RowsEventDecoder(Kind kind, boolean extraInformation, Map<Long, TableMapEventData> tableMaps,
			LongFunction<ResolvedTable> tables) {
		super(tableMaps);
		this.kind = kind;
		this.extraInformation = extraInformation;
		this.tables = tables;
	}

	@Override
	public DecodedRows deserialize(ByteArrayInputStream in) throws IOException {
		long tableId = in.readLong(6);
		ResolvedTable table = this.tables.apply(tableId);
		if (table == null || !table.wanted()) {
			discard(in, in.available());
			return new DecodedRows(tableId, table, false, 0, List.of(), List.of(), null);
		}
		try {
			int length = in.available();
			in.fill(this.body.reset(length), 0, length);
			return decode(tableId, table, this.body);
		}
		catch (EOFException | SocketException ex) {
			throw ex;
		}
		catch (IOException | RuntimeException ex) {
			// Reported per table; the stock client would otherwise drop the event and carry on.
			return new DecodedRows(tableId, table, false, 0, List.of(), List.of(), String.valueOf(ex.getMessage()));
		}
	}

	private DecodedRows decode(long tableId, ResolvedTable table, ArrayCursor in) throws IOException {
		in.readInteger(2); // flags
		if (this.extraInformation) {
			int extraLength = in.readInteger(2);
			in.discard(extraLength - 2);
		}
		int columnCount = in.readPackedInteger();
		requireFullImage(in.readSetBits(columnCount), columnCount, tableId);
		if (this.kind == Kind.UPDATE) {
			requireFullImage(in.readSetBits(columnCount), columnCount, tableId);
		}
		TableMapEventData map = table.map();
		if (map.getColumnTypes().length != columnCount) {
			throw new IOException("Rows event for table id " + tableId + " carries " + columnCount
					+ " columns, its table map has " + map.getColumnTypes().length);
		}
		boolean[] keys = table.keyMask();
		List<Serializable[]> before = new ArrayList<>();
		List<Serializable[]> after = new ArrayList<>();
		while (in.available() > 0) {
			switch (this.kind) {
				case WRITE -> after.add(row(map, null, in));
				case DELETE -> before.add(row(map, keys, in));
				case UPDATE -> {
					before.add(row(map, keys, in));
					after.add(row(map, null, in));
				}
			}
		}
		return new DecodedRows(tableId, table, true, columnCount, before, after, null);
	}

	/**
	 * Reads one full row image: its null bitmap, then each non-null cell.
	 * @param keys which columns to decode, the other cells read past and left {@code null}; or
	 * {@code null} to decode every cell
	 */
	private Serializable[] row(TableMapEventData map, boolean[] keys, ArrayCursor in) throws IOException {
		byte[] types = map.getColumnTypes();
		int[] metadata = map.getColumnMetadata();
		int count = types.length;
		Serializable[] values = new Serializable[count];
		int nullBytes = (count + 7) >> 3;
		if (this.nulls.length < nullBytes) {
			this.nulls = new byte[nullBytes];
		}
		byte[] nullBitmap = this.nulls;
		in.fill(nullBitmap, 0, nullBytes);
		for (int i = 0; i < count; i++) {
			if ((nullBitmap[i >> 3] & (1 << (i & 7))) != 0) {
				continue;
			}
			// As the stock decoder (after MySQL's log_event_print_value): a CHAR-like column carries its
			// real type and length in its metadata.
			int typeCode = types[i] & 0xFF;
			int meta = metadata[i];
			int length = 0;
			if (typeCode == ColumnType.STRING.getCode()) {
				if (meta >= 256) {
					int meta0 = meta >> 8;
					int meta1 = meta & 0xFF;
					if ((meta0 & 0x30) != 0x30) {
						typeCode = meta0 | 0x30;
						length = meta1 | (((meta0 & 0x30) ^ 0x30) << 4);
					}
					else {
						if (meta0 == ColumnType.ENUM.getCode() || meta0 == ColumnType.SET.getCode()) {
							typeCode = meta0;
						}
						length = meta1;
					}
				}
				else {
					length = meta;
				}
			}
			ColumnType type = TYPES[typeCode & 0xFF];
			if (type == null) {
				throw new IOException("Unsupported column type code " + typeCode + " in table " + map.getDatabase() + "."
						+ map.getTable());
			}
			if (keys == null || (i < keys.length && keys[i])) {
				values[i] = deserializeCell(type, meta, length, in);
			}
			else {
				skipCell(type, meta, length, in);
			}
		}
		return values;
	}

	/** Reads past one cell; string-like cells without building a value, others decoded and dropped. */
	private void skipCell(ColumnType type, int meta, int length, ArrayCursor in) throws IOException {
		switch (type) {
			case STRING -> in.discard((length < 256) ? in.readInteger(1) : in.readInteger(2));
			case VARCHAR, VAR_STRING -> in.discard((meta < 256) ? in.readInteger(1) : in.readInteger(2));
			case BLOB, GEOMETRY, JSON -> in.discard(in.readInteger(meta));
			default -> deserializeCell(type, meta, length, in);
		}
	}

	/**
	 * Reads past {@code length} bytes of an unsubscribed event into a scratch buffer. The stream's
	 * own skip allocates a buffer on every call, once or more per event on the reader's hottest path.
	 */
	private void discard(ByteArrayInputStream in, int length) throws IOException {
		for (int left = length; left > 0;) {
			int chunk = Math.min(left, this.scratch.length);
			in.fill(this.scratch, 0, chunk);
			left -= chunk;
		}
	}

	private static void requireFullImage(int columns, int columnCount, long tableId) throws IOException {
		if (columns != columnCount) {
			throw new IOException("Rows event for table id " + tableId + " carries " + columns + " of "
					+ columnCount + " columns; Tributary needs full row images (binlog_row_image=FULL)");
		}
	}

	@Override
	protected Serializable deserializeString(int length, ByteArrayInputStream in) throws IOException {
		int size = (length < 256) ? in.readInteger(1) : in.readInteger(2);
		return in.read(size);
	}

	@Override
	protected Serializable deserializeVarString(int meta, ByteArrayInputStream in) throws IOException {
		int size = (meta < 256) ? in.readInteger(1) : in.readInteger(2);
		return in.read(size);
	}

	@Override
	protected Serializable deserializeYear(ByteArrayInputStream in) throws IOException {
		int value = in.readInteger(1);
		return (value == 0) ? 0 : 1900 + value;
	}

	@Override
	protected Serializable deserializeDate(ByteArrayInputStream in) throws IOException {
		int value = in.readInteger(3);
		return date(value >> 9, (value >> 5) & 0xF, value & 0x1F);
	}

	@Override
	protected Serializable deserializeDatetime(ByteArrayInputStream in) throws IOException {
		long value = in.readLong(8);
		long date = value / 1_000_000L;
		long time = value % 1_000_000L;
		return date((int) (date / 10000), (int) (date / 100 % 100), (int) (date % 100)) + " "
				+ clock(false, time / 10000, time / 100 % 100, time % 100, 0, 0);
	}

	@Override
	protected Serializable deserializeDatetimeV2(int meta, ByteArrayInputStream in) throws IOException {
		long packed = bigEndian(in.read(5)) - 0x8000000000L;
		int micros = fraction(meta, in);
		long ymd = packed >> 17;
		long ym = ymd >> 5;
		long hms = packed & 0x1FFFF;
		return date((int) (ym / 13), (int) (ym % 13), (int) (ymd & 0x1F)) + " "
				+ clock(false, hms >> 12, (hms >> 6) & 0x3F, hms & 0x3F, micros, meta);
	}

	@Override
	protected Serializable deserializeTimestamp(ByteArrayInputStream in) throws IOException {
		return timestamp(in.readLong(4), 0, 0);
	}

	@Override
	protected Serializable deserializeTimestampV2(int meta, ByteArrayInputStream in) throws IOException {
		long seconds = bigEndian(in.read(4));
		return timestamp(seconds, fraction(meta, in), meta);
	}

	@Override
	protected Serializable deserializeTime(ByteArrayInputStream in) throws IOException {
		int value = (in.readInteger(3) << 8) >> 8;
		boolean negative = value < 0;
		int magnitude = Math.abs(value);
		return clock(negative, magnitude / 10000, magnitude / 100 % 100, magnitude % 100, 0, 0);
	}

	@Override
	protected Serializable deserializeTimeV2(int meta, ByteArrayInputStream in) throws IOException {
		long packed;
		if (meta >= 5) {
			packed = bigEndian(in.read(6)) - 0x800000000000L;
		}
		else {
			long intPart = bigEndian(in.read(3)) - 0x800000L;
			long frac = 0;
			if (meta >= 3) {
				frac = bigEndian(in.read(2));
				if (intPart < 0 && frac != 0) {
					intPart++;
					frac -= 0x10000;
				}
				frac *= 100;
			}
			else if (meta >= 1) {
				frac = bigEndian(in.read(1));
				if (intPart < 0 && frac != 0) {
					intPart++;
					frac -= 0x100;
				}
				frac *= 10000;
			}
			packed = (intPart << 24) + frac;
		}
		boolean negative = packed < 0;
		long magnitude = Math.abs(packed);
		long hms = magnitude >> 24;
		return clock(negative, (hms >> 12) & 0x3FF, (hms >> 6) & 0x3F, hms & 0x3F, (int) (magnitude & 0xFFFFFF), meta);
	}

	private static String timestamp(long epochSeconds, int micros, int digits) {
		if (epochSeconds == 0 && micros == 0) {
			return "0000-00-00 " + clock(false, 0, 0, 0, 0, digits);
		}
		LocalDateTime utc = LocalDateTime.ofInstant(Instant.ofEpochSecond(epochSeconds), ZoneOffset.UTC);
		return date(utc.getYear(), utc.getMonthValue(), utc.getDayOfMonth()) + " "
				+ clock(false, utc.getHour(), utc.getMinute(), utc.getSecond(), micros, digits);
	}

	/** Reads the fractional-second bytes that follow a temporal value and returns microseconds. */
	private static int fraction(int digits, ByteArrayInputStream in) throws IOException {
		int length = (digits + 1) / 2;
		if (length == 0) {
			return 0;
		}
		int value = (int) bigEndian(in.read(length));
		return switch (length) {
			case 1 -> value * 10000;
			case 2 -> value * 100;
			default -> value;
		};
	}

	private static long bigEndian(byte[] bytes) {
		long value = 0;
		for (byte b : bytes) {
			value = (value << 8) | (b & 0xFF);
		}
		return value;
	}

	private static String date(int year, int month, int day) {
		char[] text = new char[10];
		digits(text, 0, year, 4);
		text[4] = '-';
		digits(text, 5, month, 2);
		text[7] = '-';
		digits(text, 8, day, 2);
		return new String(text);
	}

	private static String clock(boolean negative, long hours, long minutes, long seconds, int micros, int digits) {
		StringBuilder text = new StringBuilder(16);
		if (negative) {
			text.append('-');
		}
		if (hours < 10) {
			text.append('0');
		}
		text.append(hours).append(':');
		if (minutes < 10) {
			text.append('0');
		}
		text.append(minutes).append(':');
		if (seconds < 10) {
			text.append('0');
		}
		text.append(seconds);
		if (digits > 0) {
			char[] fraction = new char[6];
			digits(fraction, 0, micros, 6);
			text.append('.').append(fraction, 0, digits);
		}
		return text.toString();
	}

	private static void digits(char[] into, int offset, long value, int width) {
		for (int i = offset + width - 1; i >= offset; i--) {
			into[i] = (char) ('0' + (value % 10));
			value /= 10;
		}
	}

}
