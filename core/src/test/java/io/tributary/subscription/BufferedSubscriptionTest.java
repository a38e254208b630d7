package io.tributary.subscription;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;
import io.tributary.source.Position;
import io.tributary.source.RowChange;

import static org.assertj.core.api.Assertions.assertThat;

class BufferedSubscriptionTest {

	private static final TableId TABLE = new TableId("shop", "orders");

	private static final TableLayout LAYOUT = new TableLayout(TABLE,
			List.of(new Column("id", 0, "bigint", "bigint", ValueKind.INTEGER, false, null, 0, 0, List.of(), false),
					new Column("note", 1, "varchar", "varchar(20)", ValueKind.TEXT, false,
							java.nio.charset.StandardCharsets.UTF_8, 20, 0, List.of(), true)),
			new int[] { 0 });

	private final BufferedSubscription buffer = new BufferedSubscription(LAYOUT);

	@Test
	void keepsOnlyTheLastImagePerKey() {
		this.buffer.add(upsert(1, "a"), at(100));
		this.buffer.add(upsert(1, "b"), at(200));
		this.buffer.add(upsert(2, "c"), at(200));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(drain.upserts()).hasSize(2);
		assertThat(drain.upserts()).filteredOn((e) -> e.key().values()[0].equals(1L))
			.singleElement()
			.satisfies((e) -> assertThat(e.image()[1]).isEqualTo("b"));
		assertThat(this.buffer.counters().keysAdded()).isEqualTo(3);
		assertThat(this.buffer.counters().bufferedKeys()).isZero();
	}

	@Test
	void anEarlyDrainHoldsAKeyItWroteUntilTheNextFullDrainAndAHotKeyStaysHeldOneIntervalMore() {
		this.buffer.add(upsert(1, "a"), at(100));
		assertThat(this.buffer.drain(() -> Watermarks.NONE, true).upserts()).hasSize(1);
		this.buffer.add(upsert(1, "b"), at(200));
		this.buffer.add(upsert(2, "x"), at(200));
		Drain early = this.buffer.drain(() -> Watermarks.NONE, true);
		assertThat(early.upserts()).singleElement().satisfies((e) -> assertThat(e.key().values()).containsExactly(2L));
		assertThat(this.buffer.oldestPending()).as("the held change keeps its position unconfirmed").isEqualTo(at(200));
		assertThat(this.buffer.drain(() -> Watermarks.NONE, false).upserts())
			.singleElement().satisfies((e) -> assertThat(e.image()[1]).isEqualTo("b"));
		// Key 1 was held, so it is hot for the next interval; key 2 was written once and is cool.
		this.buffer.add(upsert(1, "c"), at(300));
		this.buffer.add(upsert(2, "y"), at(300));
		assertThat(this.buffer.drain(() -> Watermarks.NONE, true).upserts())
			.singleElement().satisfies((e) -> assertThat(e.key().values()).containsExactly(2L));
		assertThat(this.buffer.drain(() -> Watermarks.NONE, false).upserts()).hasSize(1);
		// A whole interval without a change of key 1 cools it down.
		this.buffer.drain(() -> Watermarks.NONE, false);
		this.buffer.add(upsert(1, "d"), at(400));
		assertThat(this.buffer.drain(() -> Watermarks.NONE, true).upserts()).hasSize(1);
	}

	@Test
	void deleteAfterInsertLeavesADelete() {
		this.buffer.add(upsert(7, "x"), at(100));
		this.buffer.add(delete(7), at(100));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(drain.upserts()).isEmpty();
		assertThat(drain.deletes()).singleElement().satisfies((e) -> assertThat(e.key().values()).containsExactly(7L));
	}

	@Test
	void insertAfterDeleteLeavesTheImage() {
		this.buffer.add(delete(7), at(100));
		this.buffer.add(upsert(7, "again"), at(150));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(drain.deletes()).isEmpty();
		assertThat(drain.upserts()).singleElement().satisfies((e) -> assertThat(e.image()[1]).isEqualTo("again"));
	}

	@Test
	void oldestPendingFollowsTheEntriesStillHeld() {
		assertThat(this.buffer.oldestPending()).isNull();
		this.buffer.add(upsert(1, "a"), at(100));
		this.buffer.add(upsert(2, "b"), at(300));
		assertThat(this.buffer.oldestPending()).isEqualTo(at(100));
		// Overwriting key 1 with a later change moves its resume position on.
		this.buffer.add(upsert(1, "c"), at(400));
		assertThat(this.buffer.oldestPending()).isEqualTo(at(300));
		this.buffer.drain(() -> Watermarks.NONE);
		assertThat(this.buffer.oldestPending()).isNull();
	}

	@Test
	void deferredChangesStayAndDroppedOnesAreCounted() {
		this.buffer.add(upsert(1, "landed"), at(100));
		this.buffer.add(upsert(50, "in flight"), at(100));
		this.buffer.add(upsert(900, "not dispatched"), at(100));
		Watermarks copier = (key) -> {
			long id = (Long) key.values()[0];
			return (id <= 10) ? Verdict.APPLY : (id <= 100) ? Verdict.DEFER : Verdict.DROP;
		};
		Drain drain = this.buffer.drain(() -> copier);
		assertThat(drain.upserts()).singleElement().satisfies((e) -> assertThat(e.key().values()).containsExactly(1L));
		assertThat(drain.deferred()).isEqualTo(1);
		assertThat(drain.dropped()).isEqualTo(1);
		assertThat(this.buffer.counters().bufferedKeys()).isEqualTo(1);
		assertThat(this.buffer.counters().droppedAboveHighWatermark()).isEqualTo(1);
		assertThat(this.buffer.oldestPending()).isEqualTo(at(100));
	}

	@Test
	void copierPositionIsReadInsideTheDrainAfterEarlierAdds() {
		this.buffer.add(upsert(5, "v"), at(100));
		RowKey[] seen = new RowKey[1];
		this.buffer.drain(() -> {
			// The supplier runs while the buffer is locked, after the add above.
			assertThat(this.buffer.counters().bufferedKeys()).isEqualTo(1);
			return (key) -> {
				seen[0] = key;
				return Verdict.APPLY;
			};
		});
		assertThat(seen[0].values()).containsExactly(5L);
	}

	@Test
	void requeueKeepsANewerChange() {
		this.buffer.add(upsert(3, "old"), at(100));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		this.buffer.add(upsert(3, "new"), at(200));
		this.buffer.requeue(drain.upserts());
		Drain again = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(again.upserts()).singleElement().satisfies((e) -> assertThat(e.image()[1]).isEqualTo("new"));
	}

	@Test
	void requeuedChangeHoldsThePositionBack() {
		this.buffer.add(upsert(3, "x"), at(100));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(this.buffer.oldestPending()).isNull();
		this.buffer.requeue(drain.upserts());
		assertThat(this.buffer.oldestPending()).isEqualTo(at(100));
	}

	@Test
	void requestsOneFlushWhenReachingMaxChanges() {
		java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
		BufferedSubscription bounded = new BufferedSubscription(LAYOUT, -1, 3, requests::incrementAndGet);
		bounded.add(upsert(1, "a"), at(1));
		bounded.add(upsert(2, "b"), at(2));
		assertThat(requests).hasValue(0);
		bounded.add(upsert(3, "c"), at(3));
		bounded.add(upsert(4, "d"), at(4));
		assertThat(requests).hasValue(1);
		bounded.drain(() -> Watermarks.NONE);
		for (long id = 5; id <= 7; id++) {
			bounded.add(upsert(id, "e"), at(id));
		}
		assertThat(requests).hasValue(2);
	}

	private static Position at(long offset) {
		return Position.of("mysql-bin.000001", offset);
	}

	private static RowChange upsert(long id, String note) {
		return new RowChange(TABLE, new Object[] { id }, new Object[] { id, note });
	}

	private static RowChange delete(long id) {
		return new RowChange(TABLE, new Object[] { id }, null);
	}

}
