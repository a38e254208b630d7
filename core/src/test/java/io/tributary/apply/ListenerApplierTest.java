package io.tributary.apply;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;
import io.tributary.source.Position;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ListenerApplierTest {

	private static final TableId TABLE = new TableId("shop", "orders");

	private static final TableLayout LAYOUT = new TableLayout(TABLE,
			List.of(new Column("note", 0, "varchar", "varchar(20)", ValueKind.TEXT, false, StandardCharsets.UTF_8, 20,
					0, List.of(), true),
					new Column("id", 1, "bigint", "bigint", ValueKind.INTEGER, false, null, 0, 0, List.of(), false)),
			new int[] { 1 });

	private final List<ChangeBatch> received = new ArrayList<>();

	private final AtomicLong now = new AtomicLong();

	@Test
	void deliversUpsertsAndDeletesOfADrainAsOneBatch() {
		ListenerApplier applier = new ListenerApplier(this.received::add, LAYOUT, this.now::get);
		Position position = Position.of("binlog.000007", 4711);

		applier.apply(List.<Object[]>of(new Object[] { "a", 1L }, new Object[] { "b", 2L }),
				List.<Object[]>of(new Object[] { 3L }), position);

		assertThat(this.received).singleElement().satisfies((batch) -> {
			assertThat(batch.table()).isEqualTo(TABLE);
			assertThat(batch.columns()).containsExactly("note", "id");
			assertThat(batch.keyColumns()).containsExactly("id");
			assertThat(batch.upserts()).containsExactly(new Object[] { "a", 1L }, new Object[] { "b", 2L });
			assertThat(batch.deletedKeys()).containsExactly(new Object[] { 3L });
			assertThat(batch.position()).isEqualTo(position);
			assertThat(batch.size()).isEqualTo(3);
		});
	}

	@Test
	void deliversSnapshotRowsWithoutAPosition() {
		ListenerApplier applier = new ListenerApplier(this.received::add, LAYOUT, this.now::get);

		applier.upsert(List.<Object[]>of(new Object[] { "a", 1L }));
		applier.delete(List.<Object[]>of(new Object[] { 2L }));
		applier.apply(List.of(), List.of(), Position.of("binlog.000007", 4));

		assertThat(this.received).hasSize(2);
		assertThat(this.received.get(0).upserts()).hasSize(1);
		assertThat(this.received.get(0).deletedKeys()).isEmpty();
		assertThat(this.received.get(0).position()).isNull();
		assertThat(this.received.get(1).deletedKeys()).containsExactly(new Object[] { 2L });
	}

	@Test
	void aFailingListenerFailsTheApplyAndIsPausedBeforeTheNextDelivery() {
		List<String> calls = new ArrayList<>();
		boolean[] failing = { true };
		ListenerApplier applier = new ListenerApplier((batch) -> {
			calls.add("call");
			if (failing[0]) {
				throw new IllegalStateException("queue unavailable");
			}
		}, LAYOUT, this.now::get);
		List<Object[]> rows = List.<Object[]>of(new Object[] { "a", 1L });

		assertThatExceptionOfType(ApplyException.class).isThrownBy(() -> applier.apply(rows, List.of(), null))
			.withMessageContaining("shop.orders")
			.withMessageContaining("queue unavailable")
			.withMessageContaining("delivered again in 100 ms")
			.withCauseInstanceOf(IllegalStateException.class);
		assertThat(calls).hasSize(1);

		this.now.addAndGet(Duration.ofMillis(50).toNanos());
		assertThatExceptionOfType(ListenerApplier.Paused.class)
			.isThrownBy(() -> applier.apply(rows, List.of(), null))
			.withMessageContaining("failed 1 time(s) in a row");
		assertThat(calls).as("not called during the pause").hasSize(1);

		this.now.addAndGet(Duration.ofMillis(60).toNanos());
		assertThatExceptionOfType(ApplyException.class).isThrownBy(() -> applier.apply(rows, List.of(), null))
			.withMessageContaining("delivered again in 200 ms");
		assertThat(calls).hasSize(2);

		failing[0] = false;
		this.now.addAndGet(Duration.ofMillis(200).toNanos());
		applier.apply(rows, List.of(), null);
		applier.apply(rows, List.of(), null);
		assertThat(calls).hasSize(4);
	}

	@Test
	void snapshotRowsAreNotHeldBackByAPause() {
		boolean[] failing = { true };
		ListenerApplier applier = new ListenerApplier((batch) -> {
			if (failing[0]) {
				throw new Exception("down");
			}
			this.received.add(batch);
		}, LAYOUT, this.now::get);
		List<Object[]> rows = List.<Object[]>of(new Object[] { "a", 1L });
		assertThatExceptionOfType(ApplyException.class).isThrownBy(() -> applier.upsert(rows));

		failing[0] = false;
		applier.upsert(rows);

		assertThat(this.received).hasSize(1);
	}

	@Test
	void countsListenerCallsAsBatches() {
		boolean[] failing = { true };
		ListenerApplier applier = new ListenerApplier((batch) -> {
			if (failing[0]) {
				throw new IllegalStateException("down");
			}
		}, LAYOUT, this.now::get);
		List<Object[]> rows = List.<Object[]>of(new Object[] { "a", 1L }, new Object[] { "b", 2L });
		assertThatExceptionOfType(ApplyException.class).isThrownBy(() -> applier.upsert(rows));
		failing[0] = false;
		applier.upsert(rows);
		this.now.addAndGet(Duration.ofSeconds(1).toNanos());
		applier.apply(rows.subList(0, 1), List.<Object[]>of(new Object[] { 3L }), Position.of("binlog.000001", 4));

		assertThat(applier.counters()).isEqualTo(new ApplierCounters(2, 1, 3, 1, 0, 0, 1, 1));
	}

	@Test
	void aNewLayoutKeepsTheCountersAndThePause() {
		boolean[] failing = { true };
		ListenerApplier applier = new ListenerApplier((batch) -> {
			if (failing[0]) {
				throw new IllegalStateException("down");
			}
			this.received.add(batch);
		}, LAYOUT, this.now::get);
		List<Object[]> rows = List.<Object[]>of(new Object[] { "a", 1L });
		assertThatExceptionOfType(ApplyException.class).isThrownBy(() -> applier.apply(rows, List.of(), null));
		TableLayout wider = new TableLayout(TABLE, List.of(LAYOUT.columns().get(0), LAYOUT.columns().get(1),
				new Column("extra", 2, "int", "int", ValueKind.INTEGER, false, null, 0, 0, List.of(), true)),
				new int[] { 1 });

		ListenerApplier next = applier.withLayout(wider);
		failing[0] = false;

		assertThatExceptionOfType(ListenerApplier.Paused.class)
			.isThrownBy(() -> next.apply(List.<Object[]>of(new Object[] { "a", 1L, 7L }), List.of(), null));
		this.now.addAndGet(Duration.ofMillis(100).toNanos());
		next.apply(List.<Object[]>of(new Object[] { "a", 1L, 7L }), List.of(), null);
		assertThat(this.received).singleElement()
			.satisfies((batch) -> assertThat(batch.columns()).containsExactly("note", "id", "extra"));
		assertThat(next.counters().batchesFailed()).isEqualTo(1);
		assertThat(next.counters().batchesApplied()).isEqualTo(1);
	}

	@Test
	void aListenerThatDoesNotHandleTruncationFailsTheTruncate() {
		ListenerApplier applier = new ListenerApplier(this.received::add, LAYOUT, this.now::get);

		assertThatExceptionOfType(ApplyException.class).isThrownBy(applier::truncate)
			.withMessageContaining("shop.orders")
			.withCauseInstanceOf(UnsupportedOperationException.class);
	}

	@Test
	void passesATruncationToTheListener() {
		List<TableId> truncated = new ArrayList<>();
		ListenerApplier applier = new ListenerApplier(new ChangeListener() {

			@Override
			public void onChanges(ChangeBatch batch) {
			}

			@Override
			public void onTruncate(TableId table) {
				truncated.add(table);
			}

		}, LAYOUT, this.now::get);

		applier.truncate();

		assertThat(truncated).containsExactly(TABLE);
	}

}
