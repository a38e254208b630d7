package io.tributary.subscription;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;
import io.tributary.source.Position;
import io.tributary.source.RowChange;
import io.tributary.test.Await;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soft limit: 1 MB rows into an 8 MB buffer park the adder, which the end of a drain's apply
 * releases, since a drain in flight still counts against the limit; an oversized row and an
 * overwrite of a buffered key are never held back.
 */
class SoftLimitTest {

	private static final TableId TABLE = new TableId("s", "blobs");

	private static final TableLayout LAYOUT = new TableLayout(TABLE,
			List.of(new Column("id", 0, "bigint", "bigint", ValueKind.INTEGER, false, null, 0, 0, List.of(), false),
					new Column("data", 1, "longblob", "longblob", ValueKind.BYTES, false, StandardCharsets.ISO_8859_1,
							0, 0, List.of(), true)),
			new int[] { 0 });

	private static final long MB = 1024 * 1024;

	private final AtomicInteger flushRequests = new AtomicInteger();

	private final BufferedSubscription buffer = new BufferedSubscription(LAYOUT, 8 * MB, Long.MAX_VALUE,
			this.flushRequests::incrementAndGet);

	@Test
	void parksTheReaderAtTheLimitAndKeepsMemoryBounded() throws Exception {
		Thread reader = new Thread(() -> {
			for (long id = 1; id <= 20; id++) {
				this.buffer.add(row(id, MB), at(id));
			}
		});
		reader.start();
		await("the reader parked", () -> this.buffer.counters().parks() == 1 && isWaiting(reader));
		SubscriptionCounters parked = this.buffer.counters();
		assertThat(parked.bufferedKeys()).isEqualTo(8);
		assertThat(parked.bufferedBytes()).isLessThan(8 * MB + 2 * MB);
		assertThat(this.flushRequests.get()).isPositive();
		while (reader.isAlive()) {
			this.buffer.settle(this.buffer.drain(() -> Watermarks.NONE));
			assertThat(this.buffer.counters().bufferedBytes()).isLessThan(8 * MB + 2 * MB);
			reader.join(10);
		}
		assertThat(this.buffer.counters().keysAdded()).isEqualTo(20);
		assertThat(this.buffer.counters().parks()).isPositive();
	}

	@Test
	void aDrainInFlightKeepsTheReaderParkedUntilItIsSettled() throws Exception {
		fill(8);
		Drain inFlight = this.buffer.drain(() -> Watermarks.NONE);
		assertThat(inFlight.size()).isEqualTo(8);
		Thread reader = new Thread(() -> this.buffer.add(row(9, MB), at(9)));
		reader.start();
		await("the reader parked", () -> this.buffer.counters().parks() == 1 && isWaiting(reader));
		SubscriptionCounters parked = this.buffer.counters();
		assertThat(parked.bufferedBytes()).isZero();
		assertThat(parked.inFlightBytes()).isEqualTo(inFlight.bytes()).isGreaterThanOrEqualTo(8 * MB);
		this.buffer.settle(inFlight);
		reader.join(10_000);
		assertThat(reader.isAlive()).isFalse();
		assertThat(this.buffer.counters().bufferedKeys()).isEqualTo(1);
		assertThat(this.buffer.counters().inFlightBytes()).isZero();
	}

	@Test
	void aFailedDrainPutBackIsCountedOnceAfterItIsSettled() {
		fill(8);
		long buffered = this.buffer.counters().bufferedBytes();
		Drain failed = this.buffer.drain(() -> Watermarks.NONE, true);
		this.buffer.requeue(failed.upserts());
		this.buffer.settle(failed);
		assertThat(this.buffer.counters().bufferedBytes()).isEqualTo(buffered);
		assertThat(this.buffer.counters().inFlightBytes()).isZero();
	}

	@Test
	void clearingTheBufferLeavesADrainInFlightCounted() {
		fill(8);
		Drain inFlight = this.buffer.drain(() -> Watermarks.NONE);
		this.buffer.clear();
		assertThat(this.buffer.counters().inFlightBytes()).isEqualTo(inFlight.bytes());
		this.buffer.settle(inFlight);
		assertThat(this.buffer.counters().inFlightBytes()).isZero();
	}

	@Test
	void admitsOneOversizedRow() {
		this.buffer.add(row(1, 20 * MB), at(1));
		assertThat(this.buffer.counters().bufferedBytes()).isGreaterThan(20 * MB);
		assertThat(this.buffer.counters().parks()).isZero();
	}

	@Test
	void overwritingABufferedKeyNeverWaits() {
		for (long id = 1; id <= 8; id++) {
			this.buffer.add(row(id, MB), at(id));
		}
		assertThat(this.buffer.counters().bufferedBytes()).isGreaterThanOrEqualTo(8 * MB);
		this.buffer.add(row(3, MB), at(9));
		assertThat(this.buffer.counters().parks()).isZero();
		assertThat(this.buffer.counters().bufferedKeys()).isEqualTo(8);
	}

	@Test
	void closingReleasesAParkedReaderWithItsChangeKept() throws Exception {
		for (long id = 1; id <= 8; id++) {
			this.buffer.add(row(id, MB), at(id));
		}
		Thread reader = new Thread(() -> this.buffer.add(row(99, MB), at(99)));
		reader.start();
		await("the reader parked", () -> this.buffer.counters().parks() == 1 && isWaiting(reader));
		this.buffer.close();
		reader.join(10_000);
		assertThat(reader.isAlive()).isFalse();
		assertThat(this.buffer.counters().bufferedKeys()).isEqualTo(9);
	}

	private void fill(int rows) {
		for (long id = 1; id <= rows; id++) {
			this.buffer.add(row(id, MB), at(id));
		}
	}

	private static boolean isWaiting(Thread thread) {
		Thread.State state = thread.getState();
		return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
	}

	private static void await(String what, Await.Condition condition) throws Exception {
		Await.until(what, Duration.ofSeconds(30), condition);
	}

	private static Position at(long offset) {
		return Position.of("mysql-bin.000001", offset);
	}

	private static RowChange row(long id, long bytes) {
		return new RowChange(TABLE, new Object[] { id }, new Object[] { id, new byte[(int) bytes] });
	}

}
