package io.tributary.subscription;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

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
 * The pipeline's budget over the buffers of all its tables: 1 MB rows spread over two tables whose
 * own soft limits are far away park the adder once both together hold the budget; the room any
 * table gives back (an apply ending, a table cleared, retired or closed) wakes it; the budget always
 * holds exactly what its buffers hold; and under concurrent adds and releases no wake-up is lost.
 */
class BufferBudgetTest {

	private static final long MB = 1024 * 1024;

	/** A recheck so long that only a wake-up ends a wait within a test's patience. */
	private static final long NEVER = Duration.ofHours(1).toMillis();

	private final AtomicInteger flushRequests = new AtomicInteger();

	private final BufferBudget budget = new BufferBudget(8 * MB, NEVER);

	private final BufferedSubscription orders = buffer("orders", 64 * MB);

	private final BufferedSubscription items = buffer("items", 64 * MB);

	@Test
	void parksTheReaderWhenAllTablesTogetherHoldTheBudget() throws Exception {
		fill(this.orders, 1, 5);
		fill(this.items, 1, 3);
		Thread reader = start(() -> this.items.add(row(this.items, 4, MB), at(4)));
		await("the reader parked at the budget", () -> this.budget.parks() == 1 && isWaiting(reader));
		assertThat(this.items.counters().parks()).isEqualTo(1);
		assertThat(this.items.counters().budgetParks()).isEqualTo(1);
		assertThat(this.orders.counters().parks()).isZero();
		assertThat(this.budget.heldBytes()).isGreaterThanOrEqualTo(8 * MB).isLessThan(9 * MB);
		assertThat(this.flushRequests.get()).isPositive();
		// The other table's apply ends: its room wakes the reader.
		Drain drain = this.orders.drain(() -> Watermarks.NONE);
		assertThat(isWaiting(reader)).as("a drain in flight still holds its room").isTrue();
		this.orders.settle(drain);
		joined(reader);
		assertThat(this.items.counters().bufferedKeys()).isEqualTo(4);
		assertThat(this.budget.heldBytes()).isEqualTo(held(this.orders, this.items));
	}

	@Test
	void replacingABufferedKeyNeverWaitsForTheBudget() {
		fill(this.orders, 1, 8);
		assertThat(this.budget.spent()).isTrue();
		this.orders.add(row(this.orders, 3, MB), at(9));
		assertThat(this.budget.parks()).isZero();
		assertThat(this.budget.heldBytes()).isEqualTo(held(this.orders));
	}

	@Test
	void aClearedTableGivesItsRoomBack() throws Exception {
		fill(this.orders, 1, 8);
		Thread reader = start(() -> this.items.add(row(this.items, 1, MB), at(9)));
		await("the reader parked at the budget", () -> isWaiting(reader) && this.budget.parks() == 1);
		// Paused, dropped or failed: the table's buffer is emptied.
		this.orders.clear();
		joined(reader);
		assertThat(this.budget.heldBytes()).isEqualTo(held(this.items)).isLessThan(2 * MB);
	}

	@Test
	void aRetiredBufferGivesBackEverythingItHeldInFlightIncluded() throws Exception {
		fill(this.orders, 1, 6);
		Drain inFlight = this.orders.drain(() -> Watermarks.NONE);
		fill(this.orders, 7, 8);
		Thread reader = start(() -> this.items.add(row(this.items, 1, MB), at(9)));
		await("the reader parked at the budget", () -> isWaiting(reader) && this.budget.parks() == 1);
		// The table took another buffer; a change added to the old one afterwards counts nowhere.
		this.orders.retire();
		joined(reader);
		this.orders.add(row(this.orders, 99, MB), at(10));
		this.orders.settle(inFlight);
		assertThat(this.budget.heldBytes()).isEqualTo(held(this.items));
	}

	@Test
	void closingTheWaitingTableReleasesTheReaderWithItsChangeKept() throws Exception {
		fill(this.orders, 1, 8);
		Thread reader = start(() -> this.items.add(row(this.items, 1, MB), at(9)));
		await("the reader parked at the budget", () -> isWaiting(reader) && this.budget.parks() == 1);
		this.items.close();
		joined(reader);
		assertThat(this.items.counters().bufferedKeys()).isEqualTo(1);
		assertThat(this.budget.heldBytes()).isEqualTo(held(this.orders, this.items));
	}

	@Test
	void theBudgetHoldsExactlyWhatItsBuffersHold() {
		BufferBudget counted = BufferBudget.unlimited();
		BufferedSubscription buffer = new BufferedSubscription(layout("t"), -1, Long.MAX_VALUE, () -> {
		}, counted);
		for (long id = 1; id <= 100; id++) {
			buffer.add(row(buffer, id, 100 + id), at(id));
		}
		buffer.add(row(buffer, 7, 5000), at(101));
		assertThat(counted.heldBytes()).isEqualTo(held(buffer));
		// Keys 1-20 in flight, 21-40 dropped as above the high watermark, the rest stay.
		Drain drain = buffer.drain(() -> keysUpTo(20, 40), false);
		assertThat(counted.heldBytes()).isEqualTo(held(buffer));
		buffer.requeue(drain.upserts().subList(0, 5));
		buffer.settle(drain);
		assertThat(counted.heldBytes()).isEqualTo(held(buffer));
		buffer.settle(buffer.drain(() -> Watermarks.NONE));
		assertThat(counted.heldBytes()).isZero();
	}

	@Test
	void noWakeUpIsLostUnderConcurrentAddsAndReleases() throws Exception {
		BufferBudget shared = new BufferBudget(64 * 1024, NEVER);
		List<BufferedSubscription> tables = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			tables.add(new BufferedSubscription(layout("t" + i), 32 * 1024, Long.MAX_VALUE, () -> {
			}, shared));
		}
		int changes = 20_000;
		AtomicInteger added = new AtomicInteger();
		AtomicLong most = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> readers = new ArrayList<>();
		for (int r = 0; r < 2; r++) {
			int first = r;
			readers.add(start(() -> {
				for (int n = first; n < changes; n += 2) {
					BufferedSubscription table = tables.get((n / 2) % 3 + first * 3);
					table.add(row(table, n, 1024), at(n));
					added.incrementAndGet();
				}
			}));
		}
		Thread releaser = start(() -> {
			try {
				while (added.get() < changes) {
					BufferedSubscription table = tables.get(ThreadLocalRandom.current().nextInt(tables.size()));
					most.accumulateAndGet(shared.heldBytes(), Math::max);
					if (ThreadLocalRandom.current().nextInt(10) == 0) {
						table.clear();
					}
					else {
						table.settle(table.drain(() -> Watermarks.NONE, ThreadLocalRandom.current().nextBoolean()));
					}
				}
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
		});
		for (Thread reader : readers) {
			joined(reader);
		}
		joined(releaser);
		assertThat(failure.get()).isNull();
		assertThat(shared.parks()).as("the budget was reached").isPositive();
		// Each reader adds one change at most past the budget, checked before its add.
		assertThat(most.get()).isLessThan(64 * 1024 + 2 * 2048);
		long held = 0;
		for (BufferedSubscription table : tables) {
			held += held(table);
		}
		assertThat(shared.heldBytes()).isEqualTo(held);
	}

	private BufferedSubscription buffer(String table, long softLimit) {
		return new BufferedSubscription(layout(table), softLimit, Long.MAX_VALUE, this.flushRequests::incrementAndGet,
				this.budget);
	}

	private static void fill(BufferedSubscription buffer, long from, long to) {
		for (long id = from; id <= to; id++) {
			buffer.add(row(buffer, id, MB), at(id));
		}
	}

	private static long held(BufferedSubscription... buffers) {
		long held = 0;
		for (BufferedSubscription buffer : buffers) {
			SubscriptionCounters counters = buffer.counters();
			held += counters.bufferedBytes() + counters.inFlightBytes();
		}
		return held;
	}

	/** Keys up to {@code landed} may be applied, those above {@code dispatched} dropped, the others deferred. */
	private static Watermarks keysUpTo(long landed, long dispatched) {
		return (key) -> {
			long id = (Long) key.values()[0];
			return (id <= landed) ? Verdict.APPLY : (id > dispatched) ? Verdict.DROP : Verdict.DEFER;
		};
	}

	private static TableLayout layout(String table) {
		return new TableLayout(new TableId("s", table),
				List.of(new Column("id", 0, "bigint", "bigint", ValueKind.INTEGER, false, null, 0, 0, List.of(), false),
						new Column("data", 1, "longblob", "longblob", ValueKind.BYTES, false,
								StandardCharsets.ISO_8859_1, 0, 0, List.of(), true)),
				new int[] { 0 });
	}

	private static RowChange row(BufferedSubscription buffer, long id, long bytes) {
		return new RowChange(buffer.layout().table(), new Object[] { id }, new Object[] { id, new byte[(int) bytes] });
	}

	private static Position at(long offset) {
		return Position.of("mysql-bin.000001", offset);
	}

	private static Thread start(Runnable work) {
		Thread thread = new Thread(work);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	private static void joined(Thread thread) throws Exception {
		await(thread.getName() + " done", () -> !thread.isAlive());
	}

	private static boolean isWaiting(Thread thread) {
		Thread.State state = thread.getState();
		return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
	}

	private static void await(String what, Await.Condition condition) throws Exception {
		Await.until(what, Duration.ofSeconds(60), condition);
	}

}
