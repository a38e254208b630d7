package io.tributary.pipeline;

import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.copy.Copier;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables keyed by one integer column are chunked by stepping through the key space: dense, sparse
 * (where the copier switches to key probes), negative, BIGINT UNSIGNED near 2^64-1, and a copy
 * stopped half-way. Rows inserted above the highest key read when the copy started are copied.
 */
@ExtendWith(DatabaseExtension.class)
class SteppingChunkerIT {

	private static final BigInteger TOP_UNSIGNED = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
		ReplicationIT.server(database);
	}

	@Test
	void denseTableIsSteppedAndRowsAboveTheFirstMaxAreCopied() throws Exception {
		String src = db.schema("step_dense_src");
		String dst = db.schema("step_dense_dst");
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		insert(src, "t", 1, 10_000, (i) -> Long.toString(i));
		Chunks chunks = new Chunks();
		run(src, dst, chunks, () -> db.server().execute(src, "UPDATE t SET v = 'changed' WHERE id IN (5, 5000)",
				"DELETE FROM t WHERE id = 9000", insertSql("t", 10_001, 12_500, Long::toString)));
		assertThat(chunks.probed.get()).as("chunks bounded by key probes").isZero();
		assertThat(chunks.steppedUppers()).as("the plan went on past the highest key read at the start")
			.anyMatch((upper) -> upper.compareTo(BigInteger.valueOf(10_000)) > 0);
		assertThat(chunks.lastUpper).as("the last chunk is open-ended").isNull();
	}

	@Test
	void rowsInsertedAfterTheLastReadOfTheHighestKeyAreCopiedByTheOpenEndedChunk() throws Exception {
		String src = db.schema("step_open_src");
		String dst = db.schema("step_open_dst");
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		insert(src, "t", 1, 5_000, (i) -> Long.toString(i));
		Chunks chunks = new Chunks();
		// Once the last chunk is dispatched and before it is read: changes above the highest key
		// must wait for that chunk (were it bounded at that key, they would be dropped and lost).
		chunks.beforeLastRead = () -> {
			db.server().execute(src, "INSERT INTO t VALUES (5001, 'next'), (900000, 'far')",
					"UPDATE t SET v = 'changed' WHERE id = 4999");
			try {
				awaitTable(chunks.pipeline, (t) -> t.deferredInFlight() + t.droppedAboveHighWatermark() >= 3,
						Duration.ofMinutes(1));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		};
		run(src, dst, chunks, () -> {
		});
		assertThat(chunks.probed.get()).isZero();
		assertThat(chunks.lastUpper).as("the last chunk is open-ended").isNull();
	}

	@Test
	void sparseTableSwitchesToKeyProbes() throws Exception {
		String src = db.schema("step_sparse_src");
		String dst = db.schema("step_sparse_dst");
		db.server().execute(src, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		StringBuilder sql = new StringBuilder("INSERT INTO t VALUES ");
		for (int i = 0; i < 2000; i++) {
			sql.append((i > 0) ? ", " : "").append('(').append(i * 1_000_000L + 1).append(", 'r").append(i).append("')");
		}
		db.server().execute(src, sql.toString());
		Chunks chunks = new Chunks();
		run(src, dst, chunks, () -> db.server().execute(src, "UPDATE t SET v = 'changed' WHERE id = 1000000001",
				"INSERT INTO t VALUES (1999000002, 'above')"));
		assertThat(chunks.stepped.get()).as("chunks stepped before the key space proved sparse").isPositive();
		assertThat(chunks.probed.get()).as("chunks bounded by key probes after the switch").isPositive();
		// Stepping on through two billion key values would take hundreds of thousands of chunks.
		assertThat(chunks.stepped.get() + chunks.probed.get()).isLessThan(30);
	}

	@Test
	void negativeKeysAndTheEdgesOfTheSignedRange() throws Exception {
		String src = db.schema("step_neg_src");
		String dst = db.schema("step_neg_dst");
		db.server().execute(src, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		insert(src, "t", -6_000, 3_999, (i) -> "n" + i);
		Chunks chunks = new Chunks();
		run(src, dst, chunks, () -> db.server().execute(src, "UPDATE t SET v = 'changed' WHERE id IN (-5000, -1, 2000)",
				"DELETE FROM t WHERE id = -10", "INSERT INTO t VALUES (" + Long.MIN_VALUE + ", 'min')",
				"INSERT INTO t VALUES (" + Long.MAX_VALUE + ", 'max')"));
		assertThat(chunks.probed.get()).isZero();
		assertThat(chunks.steppedUppers()).as("stepped bounds below zero").anyMatch((upper) -> upper.signum() < 0);
	}

	@Test
	void unsignedBigintKeysNearTheTopOfTheirRange() throws Exception {
		String src = db.schema("step_unsigned_src");
		String dst = db.schema("step_unsigned_dst");
		db.server().execute(src, "CREATE TABLE t (id BIGINT UNSIGNED PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		BigInteger first = TOP_UNSIGNED.subtract(BigInteger.valueOf(5_000));
		for (int from = 0; from < 5_000; from += 1000) {
			StringBuilder sql = new StringBuilder("INSERT INTO t VALUES ");
			for (int i = from; i < from + 1000; i++) {
				sql.append((i > from) ? ", " : "").append('(').append(first.add(BigInteger.valueOf(i))).append(", 'u")
					.append(i).append("')");
			}
			db.server().execute(src, sql.toString());
		}
		Chunks chunks = new Chunks();
		run(src, dst, chunks, () -> db.server().execute(src,
				"UPDATE t SET v = 'changed' WHERE id = " + TOP_UNSIGNED.subtract(BigInteger.valueOf(10)),
				"DELETE FROM t WHERE id = " + TOP_UNSIGNED.subtract(BigInteger.valueOf(2_000)),
				"INSERT INTO t VALUES (" + TOP_UNSIGNED + ", 'top')"));
		assertThat(chunks.probed.get()).isZero();
		assertThat(chunks.steppedUppers()).isNotEmpty()
			.allMatch((upper) -> upper.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) > 0);
	}

	@Test
	void steppedCopyStoppedHalfwayContinuesAfterItsLastLandedChunk() throws Exception {
		int rows = 40_000;
		String src = db.schema("step_resume_src");
		String dst = db.schema("step_resume_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		insert(src, "t", 1, rows, (i) -> "r" + i);
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t").withChunkRows(2_000);
		long firstRun = ResumeCopyIT.copyUntilThenStop(settings, pool, rows / 2);
		db.server().execute(src, "UPDATE t SET v = 'changed' WHERE id % 1000 = 7", "DELETE FROM t WHERE id % 997 = 3",
				"INSERT INTO t VALUES (" + (rows + 1) + ", 'new')");
		Chunks chunks = new Chunks();
		chunks.held.countDown();
		try (Pipeline second = new Pipeline(settings, pool, pool)) {
			second.observeChunks(chunks);
			second.start();
			awaitTable(second, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(2));
			second.awaitCaughtUp(Duration.ofMinutes(1));
			long reread = firstRun + table(second).rowsCopied() - rows;
			assertThat(reread).as("rows read again after the restart").isLessThan(rows / 10);
			assertThat(chunks.stepped.get()).isPositive();
			assertThat(chunks.probed.get()).isZero();
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	/** Runs a pipeline that holds after the first chunk while {@code meanwhile} runs, and checks equality. */
	private void run(String src, String dst, Chunks chunks, Runnable meanwhile) throws Exception {
		DataSource pool = db.dataSource(null);
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t").withChunkRows(1000);
		try (Pipeline pipeline = new Pipeline(settings, pool, pool)) {
			pipeline.observeChunks(chunks);
			chunks.pipeline = pipeline;
			pipeline.start();
			assertThat(chunks.held.await(1, TimeUnit.MINUTES)).as("copier held after the first chunk").isTrue();
			try {
				meanwhile.run();
			}
			finally {
				chunks.release.countDown();
			}
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(2));
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	private static void insert(String schema, String table, long first, long last, LongFunction<String> value) {
		for (long from = first; from <= last; from += 1000) {
			db.server().execute(schema, insertSql(table, from, Math.min(last, from + 999), value));
		}
	}

	private static String insertSql(String table, long first, long last, LongFunction<String> value) {
		StringBuilder sql = new StringBuilder("INSERT INTO " + table + " VALUES ");
		for (long i = first; i <= last; i++) {
			sql.append((i > first) ? ", " : "").append('(').append(i).append(", '").append(value.apply(i)).append("')");
		}
		return sql.toString();
	}

	/** Records how chunks were bounded, and holds the copier before its second chunk until released. */
	static final class Chunks implements Copier.ChunkObserver {

		final CountDownLatch held = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		final AtomicInteger stepped = new AtomicInteger();

		final AtomicInteger probed = new AtomicInteger();

		final List<Object> uppers = Collections.synchronizedList(new ArrayList<>());

		volatile Object lastUpper = "none";

		volatile Pipeline pipeline;

		/** Runs once the open-ended last chunk is dispatched, before it is read. */
		volatile Runnable beforeLastRead = () -> {
		};

		@Override
		public void beforeDispatch(Object[] lowerExclusive) {
			if (lowerExclusive != null && this.held.getCount() > 0) {
				this.held.countDown();
				try {
					this.release.await(2, TimeUnit.MINUTES);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

		@Override
		public void dispatched(Object[] lowerExclusive, Object[] upperInclusive, boolean stepped) {
			this.lastUpper = (upperInclusive != null) ? upperInclusive[0] : null;
			if (upperInclusive == null) {
				this.beforeLastRead.run();
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
