package io.tributary.pipeline;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.name.TableId;
import io.tributary.status.TableStatus;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.LiveHeapSampler;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The buffer's soft limit through the whole pipeline: a backlog of 1 MB rows read with an 8 MB
 * limit parks the binlog reader, and the heap the pipeline holds stays below the limit plus
 * 64 MB. Heap is measured by {@link LiveHeapSampler} as the largest live heap seen while the
 * backlog is applied, above the live heap before the pipeline started. A drain being applied
 * still counts against the limit: the reader waits for its apply to end rather than buffering a
 * second limit's worth meanwhile.
 */
@ExtendWith(DatabaseExtension.class)
class SoftLimitIT {

	private static final Logger logger = LoggerFactory.getLogger(SoftLimitIT.class);

	private static final long MB = 1024 * 1024;

	private static final long LIMIT = 8 * MB;

	private static final int ROWS = 64;

	@Test
	void backlogOfOneMegabyteRowsParksTheReaderAndKeepsHeapBelowLimitPlus64Megabytes(TestDatabase db)
			throws Exception {
		Replication replication = Replication.of(db, "soft").withSettings((s) -> s.withBufferSoftLimitBytes(LIMIT));
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, data LONGBLOB NOT NULL)");
		// A first run copies the empty table and leaves a checkpoint: the rows below are read as a backlog.
		replication.startStreaming().close();
		for (int i = 1; i <= ROWS; i++) {
			replication.onSource("INSERT INTO t VALUES (" + i + ", REPEAT(CHAR(" + (65 + i % 26) + "), " + MB + "))");
		}
		try (LiveHeapSampler heap = new LiveHeapSampler(Duration.ofMillis(10));
				RunningPipeline second = replication.start()) {
			AtomicLong maxBuffered = new AtomicLong();
			// Polled every 5 ms, not every 20: the buffer's peak is what is measured.
			Await.value("all rows applied", Duration.ofMinutes(2), Duration.ofMillis(5), second::table, (table) -> {
				maxBuffered.accumulateAndGet(table.bufferedBytes(), Math::max);
				return table.changesApplied() >= ROWS;
			});
			second.awaitCaughtUp();
			TableStatus status = second.table();
			long peak = heap.peakAboveBaseline();
			logger.info("Soft limit {} MB, {} rows of 1 MB: {} park(s), {} ms parked, buffer peak seen {} MB, "
					+ "heap kept above baseline at most {} MB over {} sample(s)", LIMIT / MB, ROWS,
					status.parkEvents(), status.parkedMillis(), maxBuffered.get() / MB, peak / MB, heap.samples());
			assertThat(status.parkEvents()).as("the reader waited for room").isPositive();
			assertThat(maxBuffered.get()).as("buffered bytes seen").isLessThan(LIMIT + 2 * MB);
			assertThat(heap.samples()).as("heap samples taken").isPositive();
			assertThat(peak).as("heap kept above baseline").isLessThan(LIMIT + 64 * MB);
			replication.assertEqual("t");
		}
	}

	@Test
	void aDrainBeingAppliedCountsAgainstTheLimitSoTheReaderWaitsForItsApply(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "inflight").withSettings((s) -> s.withBufferSoftLimitBytes(LIMIT));
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, data LONGBLOB NOT NULL)");
		replication.startStreaming().close();
		for (int i = 1; i <= ROWS; i++) {
			replication.onSource("INSERT INTO t VALUES (" + i + ", REPEAT(CHAR(" + (65 + i % 26) + "), " + MB + "))");
		}
		HeldAtApply held = new HeldAtApply();
		try (RunningPipeline second = replication.start(held::observe)) {
			second.awaitTable((table) -> table.changesApplied() >= ROWS, Duration.ofMinutes(2));
			logger.info("Soft limit {} MB, {} drain(s) held until the reader waited or had read all: buffered plus "
					+ "in flight at most {} MB", LIMIT / MB, held.checks, held.most / MB);
			assertThat(held.timedOut).as("the reader waited or read everything while a drain was held").isFalse();
			assertThat(held.checks).as("drains held").isPositive();
			assertThat(held.most).as("bytes buffered plus bytes of the drain being applied")
				.isLessThan(LIMIT + 2 * MB);
			replication.assertEqual("t");
		}
	}

	/**
	 * Holds each drain before its apply until the binlog reader waits for room or has read the
	 * whole backlog, then counts the rows buffered and the drain's rows, 1 MB each. Without counting
	 * the drain, the reader would have filled the buffer to the limit again by then.
	 */
	static final class HeldAtApply implements Pipeline.ApplyObserver {

		private volatile Pipeline pipeline;

		volatile long most;

		volatile int checks;

		volatile boolean timedOut;

		void observe(Pipeline pipeline) {
			this.pipeline = pipeline;
			pipeline.observeApplies(this);
		}

		@Override
		public void beforeApply(TableId table, int changes) {
			// On the pipeline's control thread: running out is recorded for the test, not thrown.
			try {
				Await.until("the reader waiting for room or done reading", Duration.ofMinutes(1), Duration.ofMillis(1),
						() -> readerWaitsForRoom() || this.pipeline.status().tables().get(0).keysAdded() >= ROWS);
			}
			catch (AssertionError ex) {
				this.timedOut = true;
				return;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
			long held = (this.pipeline.status().tables().get(0).bufferedKeys() + changes) * MB;
			this.most = Math.max(this.most, held);
			this.checks++;
		}

		private static boolean readerWaitsForRoom() {
			for (Map.Entry<Thread, StackTraceElement[]> thread : Thread.getAllStackTraces().entrySet()) {
				Thread.State state = thread.getKey().getState();
				if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
					continue;
				}
				for (StackTraceElement frame : thread.getValue()) {
					if (frame.getClassName().endsWith(".BufferMemory") && frame.getMethodName().equals("park")) {
						return true;
					}
				}
			}
			return false;
		}

	}

}
