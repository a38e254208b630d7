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

	private final List<String> told = new ArrayList<>();

	private boolean follows;

	private final RowEventDispatch dispatch = new RowEventDispatch(new IgnoringHandler() {

		@Override
		public void onChange(RowChange change, Position resumeFrom) {
			RowEventDispatchTest.this.changes.add(change);
		}

		@Override
		public void onTableFailed(TableId table, RuntimeException error) {
			RowEventDispatchTest.this.failures.add(table + ": " + error.getMessage());
		}

		@Override
		public void onTableAppeared(TableId table) {
			RowEventDispatchTest.this.told.add("appeared " + table);
		}

		@Override
		public void onTableDropped(TableId table, String what) {
			RowEventDispatchTest.this.told.add("dropped " + table);
		}

		@Override
		public TableLayout onTableRenamed(TableId from, TableId to, TableLayout layout, String statement) {
			RowEventDispatchTest.this.told.add("renamed " + from + " to " + to);
			return RowEventDispatchTest.this.follows ? new TableLayout(to, layout.columns(), layout.keyColumns()) : null;
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

	/**
	 * A rename the handler follows moves the subscription to the new name before anyone hears of
	 * it, so the new name is not announced as a table that appeared, and the old one is not dropped.
	 */
	@Test
	void aFollowedRenameMovesTheSubscriptionAndAnnouncesNothingElse() {
		this.dispatch.subscribe(layout());
		this.follows = true;
		this.dispatch.onSchemaStatement(SchemaStatement.parse("RENAME TABLE t TO t2", "s"), "RENAME TABLE t TO t2");
		assertThat(this.told).containsExactly("renamed s.t to s.t2");
		TableMapEventData renamed = map();
		renamed.setTable("t2");
		this.dispatch.tableMaps().put(71L, renamed);
		assertThat(this.dispatch.resolve(71).wanted()).isTrue();
		this.dispatch.tableMaps().put(70L, map());
		assertThat(this.dispatch.resolve(70).wanted()).isFalse();
	}

	@Test
	void aRenameNotFollowedDropsTheOldNameAndAnnouncesTheNew() {
		this.dispatch.subscribe(layout());
		this.dispatch.onSchemaStatement(SchemaStatement.parse("RENAME TABLE t TO t2", "s"), "RENAME TABLE t TO t2");
		assertThat(this.told).containsExactly("renamed s.t to s.t2", "appeared s.t2", "dropped s.t");
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
