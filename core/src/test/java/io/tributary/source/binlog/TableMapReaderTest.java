package io.tributary.source.binlog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

class TableMapReaderTest {

	private final Map<Long, TableMapEventData> tableMaps = new HashMap<>();

	private final TableMapReader reader = new TableMapReader(this.tableMaps);

	@Test
	void aRepeatedBodyGivesBackTheMapDecodedTheFirstTime() throws IOException {
		TableMapEventData first = read(body(70, "shop", "orders", 3));
		TableMapEventData again = read(body(70, "shop", "orders", 3));
		assertThat(again).isSameAs(first);
		assertThat(first.getTable()).isEqualTo("orders");
		assertThat(first.getDatabase()).isEqualTo("shop");
		assertThat(first.getColumnTypes()).hasSize(3);
		assertThat(this.tableMaps).containsEntry(70L, first);
	}

	@Test
	void anyDifferingByteIsDecodedAfresh() throws IOException {
		TableMapEventData three = read(body(70, "shop", "orders", 3));
		TableMapEventData four = read(body(70, "shop", "orders", 4));
		assertThat(four).isNotSameAs(three);
		assertThat(four.getColumnTypes()).hasSize(4);
		assertThat(this.tableMaps).containsEntry(70L, four);
		TableMapEventData otherId = read(body(71, "shop", "orders", 4));
		assertThat(otherId.getTableId()).isEqualTo(71);
		assertThat(this.tableMaps).containsEntry(71L, otherId).containsEntry(70L, four);
	}

	@Test
	void theMapOfAnIdIsPutBackWhenItsBodyRepeatsAfterAnother() throws IOException {
		TableMapEventData three = read(body(70, "shop", "orders", 3));
		read(body(70, "shop", "orders", 4));
		assertThat(read(body(70, "shop", "orders", 3))).isSameAs(three);
		assertThat(this.tableMaps).containsEntry(70L, three);
	}

	/**
	 * Through the whole event deserializer the library would wrap the reader and decode every map
	 * a second time, putting a fresh object under the table id; a repeated map must stay the same
	 * object there, which lets the row events skip checking it against the layout again.
	 */
	@Test
	void theStreamsTableMapsKeepTheMapDecodedTheFirstTime() throws IOException {
		RowEventDispatch rows = new RowEventDispatch(new IgnoringHandler());
		EventDeserializer events = StreamDeserializer.create(rows, (readAll) -> {
		});
		events.nextEvent(new ByteArrayInputStream(event(body(70, "shop", "orders", 3))));
		TableMapEventData first = rows.tableMaps().get(70L);
		events.nextEvent(new ByteArrayInputStream(event(body(70, "shop", "orders", 3))));
		assertThat(first).isNotNull();
		assertThat(rows.tableMaps().get(70L)).isSameAs(first);
		events.nextEvent(new ByteArrayInputStream(event(body(70, "shop", "orders", 4))));
		assertThat(rows.tableMaps().get(70L).getColumnTypes()).hasSize(4);
	}

	/** A TABLE_MAP event (type 19) around a body, without a checksum. */
	private static byte[] event(byte[] body) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		long length = 19 + body.length;
		long[][] fields = { { 1_700_000_000L, 4 }, { 19, 1 }, { 1, 4 }, { length, 4 }, { 1_000 + length, 4 }, { 0, 2 } };
		for (long[] field : fields) {
			for (int i = 0; i < field[1]; i++) {
				out.write((int) (field[0] >>> (8 * i)) & 0xff);
			}
		}
		out.writeBytes(body);
		return out.toByteArray();
	}

	private TableMapEventData read(byte[] body) throws IOException {
		ByteArrayInputStream in = new ByteArrayInputStream(body);
		TableMapEventData data = this.reader.deserialize(in);
		assertThat(in.available()).isZero();
		return data;
	}

	/** A table map body of {@code columns} LONG columns, none with metadata, all nullable. */
	private static byte[] body(long tableId, String database, String table, int columns) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (int i = 0; i < 6; i++) {
			out.write((int) (tableId >>> (8 * i)) & 0xff);
		}
		out.write(0);
		out.write(0);
		for (String name : new String[] { database, table }) {
			byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
			out.write(bytes.length);
			out.writeBytes(bytes);
			out.write(0);
		}
		out.write(columns);
		for (int i = 0; i < columns; i++) {
			out.write(3);
		}
		out.write(0);
		for (int i = 0; i < (columns + 7) / 8; i++) {
			out.write(0xff);
		}
		return out.toByteArray();
	}

}
