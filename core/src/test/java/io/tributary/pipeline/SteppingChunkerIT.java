package io.tributary.pipeline;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.copy.Copier;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.InsertStatements;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables keyed by one integer column are chunked by stepping through the key space: dense, sparse
 * (where the copier switches to key probes), negative, BIGINT UNSIGNED near 2^64-1, and a copy
 * stopped half-way. Rows inserted above the highest key read when the copy started are copied.
 */
@ExtendWith(DatabaseExtension.class)
class SteppingChunkerIT {

	private static final BigInteger TOP_UNSIGNED = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

	@Test
	void denseTableIsSteppedAndRowsAboveTheFirstMaxAreCopied(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "step_dense");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		replication.onSource(rows(1, 10_000, Long::toString));
		Chunks chunks = new Chunks();
		run(replication, chunks, () -> replication.onSource("UPDATE t SET v = 'changed' WHERE id IN (5, 5000)",
				"DELETE FROM t WHERE id = 9000",
				InsertStatements.single("t", 10_001, 12_500, (i) -> i + ", '" + i + "'")));
		assertThat(chunks.probed.get()).as("chunks bounded by key probes").isZero();
		assertThat(chunks.steppedUppers()).as("the plan went on past the highest key read at the start")
			.anyMatch((upper) -> upper.compareTo(BigInteger.valueOf(10_000)) > 0);
		assertThat(chunks.lastUpper).as("the last chunk is open-ended").isNull();
	}

	@Test
	void rowsInsertedAfterTheLastReadOfTheHighestKeyAreCopiedByTheOpenEndedChunk(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "step_open");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		replication.onSource(rows(1, 5_000, Long::toString));
		Chunks chunks = new Chunks();
		// Once the last chunk is dispatched and before it is read: changes above the highest key
		// must wait for that chunk (were it bounded at that key, they would be dropped and lost).
		chunks.beforeLastRead = () -> {
			replication.onSource("INSERT INTO t VALUES (5001, 'next'), (900000, 'far')",
					"UPDATE t SET v = 'changed' WHERE id = 4999");
			chunks.pipeline.awaitTable((t) -> t.deferredInFlight() + t.droppedAboveHighWatermark() >= 3);
		};
		run(replication, chunks, () -> {
		});
		assertThat(chunks.probed.get()).isZero();
		assertThat(chunks.lastUpper).as("the last chunk is open-ended").isNull();
	}

	@Test
	void sparseTableSwitchesToKeyProbes(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "step_sparse");
		replication.onSource("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(20) NOT NULL)",
				InsertStatements.single("t", 0, 1999, (i) -> (i * 1_000_000L + 1) + ", 'r" + i + "'"));
		Chunks chunks = new Chunks();
		run(replication, chunks, () -> replication.onSource("UPDATE t SET v = 'changed' WHERE id = 1000000001",
				"INSERT INTO t VALUES (1999000002, 'above')"));
		assertThat(chunks.stepped.get()).as("chunks stepped before the key space proved sparse").isPositive();
		assertThat(chunks.probed.get()).as("chunks bounded by key probes after the switch").isPositive();
		// Stepping on through two billion key values would take hundreds of thousands of chunks.
		assertThat(chunks.stepped.get() + chunks.probed.get()).isLessThan(30);
	}

	@Test
	void negativeKeysAndTheEdgesOfTheSignedRange(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "step_neg");
		replication.onSource("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		replication.onSource(rows(-6_000, 3_999, (i) -> "n" + i));
		Chunks chunks = new Chunks();
		run(replication, chunks, () -> replication.onSource("UPDATE t SET v = 'changed' WHERE id IN (-5000, -1, 2000)",
				"DELETE FROM t WHERE id = -10", "INSERT INTO t VALUES (" + Long.MIN_VALUE + ", 'min')",
				"INSERT INTO t VALUES (" + Long.MAX_VALUE + ", 'max')"));
		assertThat(chunks.probed.get()).isZero();
		assertThat(chunks.steppedUppers()).as("stepped bounds below zero").anyMatch((upper) -> upper.signum() < 0);
	}

	@Test
	void unsignedBigintKeysNearTheTopOfTheirRange(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "step_unsigned");
		replication.onSource("CREATE TABLE t (id BIGINT UNSIGNED PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		BigInteger first = TOP_UNSIGNED.subtract(BigInteger.valueOf(5_000));
		replication.onSource(InsertStatements.batches("t", 0, 4_999,
				(i) -> first.add(BigInteger.valueOf(i)) + ", 'u" + i + "'"));
		Chunks chunks = new Chunks();
		run(replication, chunks, () -> replication.onSource(
				"UPDATE t SET v = 'changed' WHERE id = " + TOP_UNSIGNED.subtract(BigInteger.valueOf(10)),
				"DELETE FROM t WHERE id = " + TOP_UNSIGNED.subtract(BigInteger.valueOf(2_000)),
				"INSERT INTO t VALUES (" + TOP_UNSIGNED + ", 'top')"));
		assertThat(chunks.probed.get()).isZero();
		assertThat(chunks.steppedUppers()).isNotEmpty()
			.allMatch((upper) -> upper.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) > 0);
	}

	@Test
	void steppedCopyStoppedHalfwayContinuesAfterItsLastLandedChunk(TestDatabase db) throws Exception {
		int rows = 40_000;
		Replication replication = Replication.of(db, "step_resume").withSettings((s) -> s.withChunkRows(2_000));
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		replication.onSource(rows(1, rows, (i) -> "r" + i));
		long firstRun = replication.stopCopyAt(rows / 2);
		replication.onSource("UPDATE t SET v = 'changed' WHERE id % 1000 = 7", "DELETE FROM t WHERE id % 997 = 3",
				"INSERT INTO t VALUES (" + (rows + 1) + ", 'new')");
		Chunks chunks = new Chunks(CopyHold.never());
		try (RunningPipeline second = replication.start((p) -> p.observeChunks(chunks))) {
			second.awaitPhase(Phase.STREAMING, Duration.ofMinutes(2));
			second.awaitCaughtUp();
			long reread = firstRun + second.table().rowsCopied() - rows;
			assertThat(reread).as("rows read again after the restart").isLessThan(rows / 10);
			assertThat(chunks.stepped.get()).isPositive();
			assertThat(chunks.probed.get()).isZero();
			replication.assertEqual("t");
		}
	}

	/** Runs a pipeline that holds after the first chunk while {@code meanwhile} runs, and checks equality. */
	private static void run(Replication replication, Chunks chunks, CopyHold.Action meanwhile) throws Exception {
		Replication chunked = replication.withSettings((s) -> s.withChunkRows(1000));
		try (RunningPipeline pipeline = chunked.start((p) -> p.observeChunks(chunks))) {
			chunks.pipeline = pipeline;
			chunks.hold.whileHeld(meanwhile);
			pipeline.awaitPhase(Phase.STREAMING, Duration.ofMinutes(2));
			pipeline.awaitCaughtUp();
			replication.assertEqual("t");
		}
	}

	/** Rows {@code (i, value(i))} from {@code first} to {@code last}, 1000 a statement. */
	private static String[] rows(long first, long last, LongFunction<String> value) {
		return InsertStatements.batches("t", first, last, (i) -> i + ", '" + value.apply(i) + "'");
	}

	/** Records how chunks were bounded, and holds the copier before its second chunk until released. */
	static final class Chunks implements Copier.ChunkObserver {

		final CopyHold hold;

		final AtomicInteger stepped = new AtomicInteger();

		final AtomicInteger probed = new AtomicInteger();

		final List<Object> uppers = Collections.synchronizedList(new ArrayList<>());

		volatile Object lastUpper = "none";

		volatile RunningPipeline pipeline;

		/** Runs once the open-ended last chunk is dispatched, before it is read. */
		volatile CopyHold.Action beforeLastRead = () -> {
		};

		Chunks() {
			this(CopyHold.afterFirstChunk());
		}

		Chunks(CopyHold hold) {
			this.hold = hold;
		}

		@Override
		public void beforeDispatch(Object[] lowerExclusive) {
			this.hold.beforeDispatch(lowerExclusive);
		}

		@Override
		public void dispatched(Object[] lowerExclusive, Object[] upperInclusive, boolean stepped) {
			this.lastUpper = (upperInclusive != null) ? upperInclusive[0] : null;
			if (upperInclusive == null) {
				try {
					this.beforeLastRead.run();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				return;
			}
			(stepped ? this.stepped : this.probed).incrementAndGet();
			if (stepped) {
				this.uppers.add(upperInclusive[0]);
			}
		}

		List<BigInteger> steppedUppers() {
			synchronized (this.uppers) {
				return this.uppers.stream()
					.map((key) -> (key instanceof BigInteger big) ? big : BigInteger.valueOf((Long) key))
					.toList();
			}
		}

	}

}
