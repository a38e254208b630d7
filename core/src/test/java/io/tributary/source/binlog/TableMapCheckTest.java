package io.tributary.source.binlog;

import java.util.List;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;

import static org.assertj.core.api.Assertions.assertThat;

class TableMapCheckTest {

	private static final TableLayout LAYOUT = new TableLayout(new TableId("s", "t"),
			List.of(column("id", 0, "int"), column("name", 1, "varchar"), column("amount", 2, "decimal"),
					column("kind", 3, "enum"), column("at", 4, "datetime")),
			new int[] { 0 });

	@Test
	void acceptsTheTypesTheLayoutDescribes() {
		assertThat(TableMapCheck.mismatch(map(new int[] { 3, 15, 246, 254, 18 }, new int[] { 0, 80, 0, 247 << 8 | 1, 0 }),
				LAYOUT)).isNull();
	}

	@Test
	void catchesColumnsOfDifferentTypesTradingPlaces() {
		// The layout was read after a reorder the stream has not reached yet.
		assertThat(TableMapCheck.mismatch(map(new int[] { 3, 246, 15, 254, 18 }, new int[] { 0, 0, 80, 247 << 8 | 1, 0 }),
				LAYOUT)).contains("column 2 (name)").contains("type code 246");
	}

	@Test
	void catchesAWiderInteger() {
		assertThat(TableMapCheck.mismatch(map(new int[] { 8, 15, 246, 254, 18 }, new int[] { 0, 80, 0, 247 << 8 | 1, 0 }),
				LAYOUT)).contains("column 1 (id)");
	}

	@Test
	void catchesADifferentColumnCount() {
		assertThat(TableMapCheck.mismatch(map(new int[] { 3, 15, 246, 254 }, new int[] { 0, 80, 0, 247 << 8 | 1 }), LAYOUT))
			.contains("4 columns");
	}

	private static TableMapEventData map(int[] types, int[] metadata) {
		TableMapEventData map = new TableMapEventData();
		byte[] codes = new byte[types.length];
		for (int i = 0; i < types.length; i++) {
			codes[i] = (byte) types[i];
		}
		map.setColumnTypes(codes);
		map.setColumnMetadata(metadata);
		return map;
	}

	private static Column column(String name, int ordinal, String type) {
		return new Column(name, ordinal, type, type, ValueKind.TEXT, false, null, 0, 0, List.of(), true);
	}

}
