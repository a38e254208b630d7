package io.tributary.source.binlog;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;
import io.tributary.source.Position;
import io.tributary.source.RowChange;

import static org.assertj.core.api.Assertions.assertThat;

class RowEventDispatchTest {

	private static final TableId TABLE = new TableId("s", "t");

	private final List<String> failures = new ArrayList<>();

	private final List<RowChange> changes = new ArrayList<>();

	private final RowEventDispatch dispatch = new RowEventDispatch(new IgnoringHandler() {

		@Override
		public void onChange(RowChange change, Position resumeFrom) {
			RowEventDispatchTest.this.changes.add(change);
		}

		@Override
		public void onTableFailed(TableId table, RuntimeException error) {
			RowEventDispatchTest.this.failures.add(table + ": " + error.getMessage());
		}

	});

	/**
	 * A table subscribed between reading a rows event and handing it on (a resnapshot, a table
	 * added while running) skips that event like one read just before: its copy starts later.
	 */
	@Test
	void anEventReadBeforeItsTableWasSubscribedIsSkippedNotFailed() {
		this.dispatch.tableMaps().put(70L, map());
		ResolvedTable unsubscribed = this.dispatch.resolve(70);
		assertThat(unsubscribed.wanted()).isFalse();
		this.dispatch.subscribe(layout());
		this.dispatch.onRows(new DecodedRows(70, unsubscribed, false, 1, List.of(), List.of(), null), null, false);
		assertThat(this.failures).isEmpty();
		assertThat(this.changes).isEmpty();

		ResolvedTable subscribed = this.dispatch.resolve(70);
		List<Serializable[]> inserted = List.<Serializable[]>of(new Serializable[] { 7 });
		this.dispatch.onRows(new DecodedRows(70, subscribed, true, 1, List.of(), inserted, null), null, false);
		assertThat(this.failures).isEmpty();
		assertThat(this.changes).singleElement().satisfies((c) -> assertThat(c.key()).containsExactly(7L));
	}

	@Test
	void anEventThatCouldNotBeDecodedFailsItsTable() {
		this.dispatch.tableMaps().put(70L, map());
		this.dispatch.subscribe(layout());
		this.dispatch.onRows(new DecodedRows(70, this.dispatch.resolve(70), false, 1, List.of(), List.of(),
				"the images are cut short"), null, false);
		assertThat(this.failures).singleElement().asString().contains("Could not decode a row event of s.t")
			.contains("the images are cut short");
	}

	private static TableMapEventData map() {
		TableMapEventData map = new TableMapEventData();
		map.setTableId(70);
		map.setDatabase("s");
		map.setTable("t");
		map.setColumnTypes(new byte[] { 3 });
		map.setColumnMetadata(new int[] { 0 });
		return map;
	}

	private static TableLayout layout() {
		return new TableLayout(TABLE,
				List.of(new Column("id", 0, "int", "int", ValueKind.INTEGER, false, null, 0, 0, List.of(), true)),
				new int[] { 0 });
	}

}
