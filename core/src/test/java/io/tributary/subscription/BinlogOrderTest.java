package io.tributary.subscription;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.tributary.source.RowChange;
import io.tributary.test.Await;

import static io.tributary.subscription.FifoFixtures.CASE_INSENSITIVE;
import static io.tributary.subscription.FifoFixtures.at;
import static io.tributary.subscription.FifoFixtures.delete;
import static io.tributary.subscription.FifoFixtures.render;
import static io.tributary.subscription.FifoFixtures.statements;
import static io.tributary.subscription.FifoFixtures.upsert;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A buffer whose table's key is not memory-comparable keeps binlog order once its copy is over:
 * the map drains first, then the queue in order, run after run.
 */
class BinlogOrderTest {

	private final BufferedSubscription buffer = new BufferedSubscription(CASE_INSENSITIVE);

	@Test
	void mergesByKeyUntilTheCopyEndsAndKeepsOrderAfter() {
		this.buffer.add(upsert("A", 1), at(100));
		this.buffer.add(upsert("A", 2), at(110));
		assertThat(this.buffer.keepsBinlogOrder()).isFalse();
		assertThat(this.buffer.counters().bufferedKeys()).isEqualTo(1);
		assertThat(this.buffer.endCopyPhase()).isTrue();
		assertThat(this.buffer.endCopyPhase()).as("again").isTrue();
		this.buffer.add(upsert("B", 3), at(120));
		this.buffer.add(upsert("B", 4), at(130));
		assertThat(this.buffer.keepsBinlogOrder()).isTrue();
		assertThat(this.buffer.counters().bufferedKeys()).as("one merged key and two queued changes").isEqualTo(3);
	}

	@Test
	void keepsTheOrderOfCollationEqualKeys() {
		this.buffer.endCopyPhase();
		List<RowChange> changes = List.of(upsert("A", 1), delete("A"), upsert("a", 2), upsert("a", 3), delete("a"),
				upsert("A", 4));
		for (int i = 0; i < changes.size(); i++) {
			this.buffer.add(changes.get(i), at(100 + i));
		}
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(drain.upserts()).isEmpty();
		assertThat(drain.deletes()).isEmpty();
		assertThat(drain.size()).isEqualTo(6);
		List<BufferedChange> sequence = drain.runs().stream().flatMap((run) -> run.changes().stream())
			.toList();
		assertThat(render(sequence)).containsExactly("+A=1", "-A", "+a=2", "+a=3", "-a", "+A=4");
		assertThat(statements(drain.runs())).containsExactly("upsert [A=1]", "delete [A]", "upsert [a=3]",
				"delete [a]", "upsert [A=4]");
		assertThat(this.buffer.counters().bufferedKeys()).isZero();
		assertThat(this.buffer.oldestPending()).isNull();
	}

	@Test
	void drainsTheMapBeforeTheQueue() {
		this.buffer.add(upsert("a", 1), at(100));
		this.buffer.add(delete("B"), at(110));
		this.buffer.endCopyPhase();
		this.buffer.add(delete("a"), at(120));
		this.buffer.add(upsert("A", 2), at(130));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(render(drain.upserts())).containsExactly("+a=1");
		assertThat(render(drain.deletes())).containsExactly("-B");
		assertThat(statements(drain.runs())).containsExactly("delete [a]", "upsert [A=2]");
		assertThat(drain.mergedSize()).isEqualTo(2);
		assertThat(drain.size()).isEqualTo(4);
	}

	@Test
	void holdsTheQueueBackWhileAMergedChangeIsDeferred() {
		this.buffer.add(upsert("a", 1), at(100));
		this.buffer.endCopyPhase();
		this.buffer.add(delete("a"), at(120));
		Drain first = this.buffer.drain(() -> (key) -> Verdict.DEFER);
		assertThat(first.isEmpty()).isTrue();
		assertThat(first.deferred()).isEqualTo(1);
		assertThat(this.buffer.counters().bufferedKeys()).isEqualTo(2);
		Drain second = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(render(second.upserts())).containsExactly("+a=1");
		assertThat(statements(second.runs())).containsExactly("delete [a]");
	}

	@Test
	void oldestPendingCoversQueuedChanges() {
		this.buffer.endCopyPhase();
		this.buffer.add(upsert("x", 1), at(100));
		this.buffer.add(upsert("x", 2), at(300));
		// Unlike the map, a later change of the key does not move the position on.
		assertThat(this.buffer.oldestPending()).isEqualTo(at(100));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(this.buffer.oldestPending()).isNull();
		this.buffer.requeueAtFront(drain.runs().get(0).changes());
		assertThat(this.buffer.oldestPending()).isEqualTo(at(100));
		assertThat(this.buffer.counters().bufferedKeys()).isEqualTo(2);
	}

	@Test
	void requeuedChangesGoBackInFrontOfLaterOnesInOrder() {
		this.buffer.endCopyPhase();
		this.buffer.add(upsert("A", 1), at(100));
		this.buffer.add(delete("A"), at(110));
		this.buffer.add(upsert("a", 2), at(120));
		this.buffer.add(delete("a"), at(130));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		FifoFixtures.RecordingApplier applier = new FifoFixtures.RecordingApplier();
		applier.failAt = 2;
		OrderedReplay replay = new OrderedReplay(drain.runs());
		this.buffer.add(upsert("A", 3), at(140));
		try {
			replay.applyTo(applier);
		}
		catch (io.tributary.apply.ApplyException ex) {
			this.buffer.requeueAtFront(replay.remaining());
		}
		assertThat(applier.statements).containsExactly("upsert [A=1]", "delete [A]");
		assertThat(replay.applied()).isEqualTo(2);
		assertThat(this.buffer.oldestPending()).isEqualTo(at(120));
		Drain again = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(statements(again.runs())).containsExactly("upsert [a=2]", "delete [a]", "upsert [A=3]");
	}

	@Test
	void mergedChangesRequeuedAfterTheSwitchStayAheadOfTheQueue() {
		this.buffer.add(upsert("a", 1), at(100));
		this.buffer.endCopyPhase();
		this.buffer.add(delete("a"), at(110));
		Drain drain = this.buffer.drain(() -> Watermarks.NONE);
		// The merged part failed, so nothing of the drain was applied.
		this.buffer.requeue(drain.upserts());
		this.buffer.requeueAtFront(new OrderedReplay(drain.runs()).remaining());
		Drain again = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(render(again.upserts())).containsExactly("+a=1");
		assertThat(statements(again.runs())).containsExactly("delete [a]");
	}

	@Test
	void aMemoryComparableKeyKeepsMergingAfterTheCopy() {
		BufferedSubscription binary = new BufferedSubscription(FifoFixtures.layout("utf8mb4_bin"));
		assertThat(binary.endCopyPhase()).isFalse();
		binary.add(upsert("A", 1), at(100));
		binary.add(upsert("A", 2), at(110));
		Drain drain = binary.drain(() -> Watermarks.NONE);
		assertThat(render(drain.upserts())).containsExactly("+A=2");
		assertThat(drain.runs()).isEmpty();
	}

	@Test
	void clearDropsQueuedChanges() {
		this.buffer.endCopyPhase();
		this.buffer.add(upsert("A", 1), at(100));
		this.buffer.clear();
		assertThat(this.buffer.counters().bufferedKeys()).isZero();
		assertThat(this.buffer.counters().bufferedBytes()).isZero();
		assertThat(this.buffer.oldestPending()).isNull();
		assertThat(this.buffer.drain(() -> Watermarks.NONE).isEmpty()).isTrue();
	}

	@Test
	void requestsAFlushWhenQueuedChangesReachMaxChanges() {
		AtomicInteger requests = new AtomicInteger();
		BufferedSubscription bounded = new BufferedSubscription(CASE_INSENSITIVE, -1, 3, requests::incrementAndGet);
		bounded.endCopyPhase();
		bounded.add(upsert("A", 1), at(1));
		bounded.add(upsert("A", 2), at(2));
		assertThat(requests).hasValue(0);
		// The same key again: merged it would stay one change, queued it is the third.
		bounded.add(upsert("A", 3), at(3));
		assertThat(requests).hasValue(1);
	}

	@Test
	void softLimitParksEveryQueuedAddIncludingRepeatsOfAKey() throws Exception {
		long mb = 1024 * 1024;
		AtomicInteger requests = new AtomicInteger();
		BufferedSubscription bounded = new BufferedSubscription(CASE_INSENSITIVE, 8 * mb, Long.MAX_VALUE,
				requests::incrementAndGet);
		bounded.endCopyPhase();
		Thread reader = new Thread(() -> {
			for (long i = 1; i <= 20; i++) {
				bounded.add(large("same", mb), at(i));
			}
		});
		reader.start();
		await("the reader parked at the limit", () -> bounded.counters().parks() == 1 && isWaiting(reader));
		assertThat(bounded.counters().bufferedKeys()).isEqualTo(8);
		assertThat(bounded.counters().bufferedBytes()).isLessThan(10 * mb);
		assertThat(requests.get()).isPositive();
		List<String> drained = new ArrayList<>();
		drainInto(bounded, drained);
		// The next eight repeats of the key fill the buffer again: the reader parks a second time.
		await("the reader parked a second time", () -> bounded.counters().parks() == 2 && isWaiting(reader));
		assertThat(bounded.counters().bufferedKeys()).isEqualTo(8);
		while (reader.isAlive() || bounded.counters().bufferedKeys() > 0) {
			drainInto(bounded, drained);
			assertThat(bounded.counters().bufferedBytes()).isLessThan(10 * mb);
			reader.join(10);
		}
		assertThat(bounded.counters().keysAdded()).isEqualTo(20);
		assertThat(bounded.counters().parks()).isGreaterThanOrEqualTo(2);
		assertThat(drained).hasSize(20);
		List<String> expected = new ArrayList<>();
		for (long i = 1; i <= 20; i++) {
			expected.add(at(i).toString());
		}
		assertThat(drained).as("binlog order across drains").isEqualTo(expected);
	}

	private static void drainInto(BufferedSubscription buffer, List<String> drained) {
		Drain drain = buffer.drain(() -> Watermarks.NONE);
		drain.runs().forEach((run) -> run.changes().forEach((e) -> drained.add(e.resumeFrom().toString())));
		// Applied: the room it took is free again.
		buffer.settle(drain);
	}

	private static RowChange large(String key, long bytes) {
		return new RowChange(FifoFixtures.TABLE, new Object[] { key }, new Object[] { key, new byte[(int) bytes] });
	}

	private static boolean isWaiting(Thread thread) {
		Thread.State state = thread.getState();
		return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
	}

	private static void await(String what, Await.Condition condition) throws Exception {
		Await.until(what, Duration.ofSeconds(30), condition);
	}

}
