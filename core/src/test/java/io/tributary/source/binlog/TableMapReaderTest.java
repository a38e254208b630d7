package io.tributary.source.binlog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
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
