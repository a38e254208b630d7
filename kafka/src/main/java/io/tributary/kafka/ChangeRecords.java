package io.tributary.kafka;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import io.tributary.apply.ChangeOrigin;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;

/**
 * Writes a table's changes as Kafka record keys and values, format version 1 (see
 * {@code docs/kafka.md}).
 *
 * <p>The key is a JSON array of the row's key values in key-column order, for example {@code [42]}
 * or {@code ["eu",7]}. Snapshot reads and the binlog produce the same canonical values, so a key
 * is written to the same bytes whichever path read the row, and the topic compacts to one record
 * per row.
 *
 * <p>The value of a row image is a JSON object:
 * {@code {"v":1,"op":"upsert","table":"shop.orders","position":"...","sourceTime":"...","row":{...}}}.
 * {@code position} and {@code sourceTime} are {@code null} for rows the snapshot copied (and for
 * changes of a table whose key is replayed in binlog order). A delete has no value at all (a
 * tombstone). Values: integers as JSON numbers, DECIMAL as a JSON
 * string at the column's scale, FLOAT and DOUBLE as numbers, text, temporal and JSON columns as
 * strings, binary and BIT columns as base64 strings, SQL NULL as {@code null}.
 */
final class ChangeRecords {

	/** The version every value carries in its {@code v} field. */
	static final int VERSION = 1;

	private final String table;

	private final List<String> columns;

	ChangeRecords(TableLayout layout) {
		this.table = layout.table().toString();
		this.columns = layout.columns().stream().map(Column::name).toList();
	}

	/** Returns the record key of a row key (key values in key-column order). */
	byte[] key(Object[] key) {
		StringBuilder json = new StringBuilder(16 + key.length * 8);
		json.append('[');
		for (int i = 0; i < key.length; i++) {
			if (i > 0) {
				json.append(',');
			}
			value(json, key[i]);
		}
		return json.append(']').toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Returns the record value of a row image.
	 * @param image the row in source column order
	 * @param origin where it was read, or {@code null} for a snapshot row or when unknown
	 */
	byte[] value(Object[] image, ChangeOrigin origin) {
		StringBuilder json = new StringBuilder(64 + image.length * 16);
		json.append("{\"v\":").append(VERSION).append(",\"op\":\"upsert\",\"table\":");
		string(json, this.table);
		json.append(",\"position\":");
		if (origin != null && origin.position() != null) {
			string(json, origin.position().toString());
		}
		else {
			json.append("null");
		}
		json.append(",\"sourceTime\":");
		if (origin != null && origin.sourceMillis() > 0) {
			string(json, Instant.ofEpochMilli(origin.sourceMillis()).toString());
		}
		else {
			json.append("null");
		}
		json.append(",\"row\":{");
		// A layout followed into fewer columns than a late image carries never happens; the shorter wins.
		int width = Math.min(image.length, this.columns.size());
		for (int i = 0; i < width; i++) {
			if (i > 0) {
				json.append(',');
			}
			string(json, this.columns.get(i));
			json.append(':');
			value(json, image[i]);
		}
		return json.append("}}").toString().getBytes(StandardCharsets.UTF_8);
	}

	private static void value(StringBuilder json, Object value) {
		if (value == null) {
			json.append("null");
		}
		else if (value instanceof BigDecimal decimal) {
			string(json, decimal.toPlainString());
		}
		else if (value instanceof Number number) {
			// Long, BigInteger, Float and Double: finite, so their text is a JSON number.
			json.append(number);
		}
		else if (value instanceof byte[] bytes) {
			json.append('"').append(Base64.getEncoder().encodeToString(bytes)).append('"');
		}
		else {
			string(json, value.toString());
		}
	}

	private static void string(StringBuilder json, String text) {
		json.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> json.append("\\\"");
				case '\\' -> json.append("\\\\");
				case '\n' -> json.append("\\n");
				case '\r' -> json.append("\\r");
				case '\t' -> json.append("\\t");
				default -> {
					if (c < 0x20) {
						json.append(String.format("\\u%04x", (int) c));
					}
					else {
						json.append(c);
					}
				}
			}
		}
		json.append('"');
	}

}
