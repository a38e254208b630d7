package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.copy.Copier;
import io.tributary.source.TableId;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot stopped half-way continues after its last landed chunk on the next start, re-reading
 * almost nothing, and converges with changes made on both sides of the cut while it was stopped.
 * Also the snapshot modes: {@code always} copies again, {@code never} only streams.
 */
@ExtendWith(DatabaseExtension.class)
class ResumeCopyIT {

	private static final int ROWS = 100_000;

	@Test
	void stoppedCopyContinuesAfterItsLastLandedChunk(TestDatabase db) throws Exception {
		ReplicationIT.server(db);
		String src = db.schema("resume_src");
		String dst = db.schema("resume_dst");
		DataSource pool = db.dataSource(null);
		Workload.createOrdersTable(pool, src + ".orders", ROWS);
		PipelineSettings settings = ReplicationIT.settings(src, dst, "orders").withChunkRows(2_000);
		long firstRun = copyUntilThenStop(settings, pool, ROWS / 2);
		assertThat(firstRun).isBetween((long) ROWS / 2, (long) ROWS * 3 / 4);

		// Changes while stopped, below and above the cut.
		db.server().execute(src, "UPDATE orders SET amount = amount + 1 WHERE id % 1000 = 7",
				"DELETE FROM orders WHERE id % 997 = 3", "INSERT INTO orders (customer_id, status, amount, created_at) "
						+ "VALUES (1, 'NEW', 1.00, NOW(6)), (2, 'NEW', 2.00, NOW(6))");
		try (Pipeline second = new Pipeline(settings, pool, pool)) {
			second.start();
			awaitTable(second, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(2));
			second.awaitCaughtUp(Duration.ofMinutes(1));
			long secondRun = table(second).rowsCopied();
			long reread = firstRun + secondRun - ROWS;
			assertThat(reread).as("rows read again after the restart (first %d, second %d)", firstRun, secondRun)
				.isLessThan(ROWS / 10);
			TableComparison.assertEqual(pool, src + ".orders", pool, dst + ".orders");
		}
	}

	@Test
	void snapshotModesAlwaysAndNever(TestDatabase db) throws Exception {
		ReplicationIT.server(db);
		String src = db.schema("mode_src");
		String dst = db.schema("mode_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1), (2, 2)");
		PipelineSettings base = ReplicationIT.settings(src, dst, "t");
		PipelineSettings never = base.withTables(List.of(new TableMapping(new TableId(src, "t"), new TableId(dst, "t"),
				List.of(), SnapshotMode.NEVER)));
		try (Pipeline pipeline = new Pipeline(never, pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			db.server().execute(src, "INSERT INTO t VALUES (3, 3)");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(pipeline).rowsCopied()).isZero();
			assertThat(table(pipeline).changesApplied()).isEqualTo(1);
		}
		PipelineSettings always = base.withTables(List.of(new TableMapping(new TableId(src, "t"),
				new TableId(dst, "t"), List.of(), SnapshotMode.ALWAYS)));
		try (Pipeline pipeline = new Pipeline(always, pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(pipeline).rowsCopied()).isEqualTo(3);
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	/**
	 * Runs a pipeline until its copy is about to dispatch the chunk after key {@code halfway}, holds
	 * it there, stops the pipeline while it is held, and returns the rows the copy landed.
	 */
	static long copyUntilThenStop(PipelineSettings settings, DataSource pool, long halfway) throws Exception {
		CountDownLatch reached = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Pipeline first = new Pipeline(settings, pool, pool);
		first.observeChunks(new Copier.ChunkObserver() {

			@Override
			public void beforeDispatch(Object[] lowerExclusive) {
				if (lowerExclusive != null && ((Number) lowerExclusive[0]).longValue() >= halfway) {
					reached.countDown();
					try {
						release.await(2, TimeUnit.MINUTES);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
			}

		});
		first.start();
		assertThat(reached.await(2, TimeUnit.MINUTES)).isTrue();
		Thread stopping = new Thread(first::close);
		stopping.start();
		long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
		while (first.status().state() != PipelineStatus.State.STOPPING) {
			assertThat(System.nanoTime()).isLessThan(deadline);
			Thread.sleep(10);
		}
		release.countDown();
		stopping.join(120_000);
		assertThat(first.status().state()).isEqualTo(PipelineStatus.State.STOPPED);
		return table(first).rowsCopied();
	}

}
