package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.copy.Copier;
import io.tributary.source.TableId;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The binlog delivers a transaction before the source makes its rows visible. With semi-sync in
 * AFTER_SYNC mode and no replica to acknowledge, a commit stalls between binlog sync and engine
 * commit for the whole semi-sync timeout: its changes reach Tributary, are dropped above the high
 * watermark, and the copier must still copy them. It does because chunk reads are locking reads,
 * which wait for the stalled commit. With plain reads this test loses the update, the insert and
 * the delete.
 */
@ExtendWith(DatabaseExtension.class)
class VisibilityWindowIT {

	@Test
	void changesDroppedAboveTheHighWatermarkDuringACommitStallAreCopied(TestDatabase db) throws Exception {
		Assumptions.assumeTrue(db.server().isMariaDb(),
				"Semi-sync is built into MariaDB; the embedded MySQL server ships no semisync plugin");
		ReplicationIT.server(db);
		String src = db.schema("vis_src");
		String dst = db.schema("vis_dst");
		DataSource pool = db.dataSource(null);
		StringBuilder rows = new StringBuilder("INSERT INTO t VALUES ");
		for (int i = 1; i <= 3000; i++) {
			rows.append((i > 1) ? ", " : "").append('(').append(2 * i).append(", 'before')");
		}
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)", rows.toString());
		// The first chunk ends well below 3000 (stepped chunks of 1000 key values hold 500 rows here;
		// probed ones end at 2000), so the changes below are all above the high watermark.
		CountDownLatch paused = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		// Only the writer's commit may meet the semi-sync stall: no checkpoint write during the test, and
		// the first chunk landed before the stall is armed (target and source share the server).
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t").withChunkRows(1000)
			.withCheckpointInterval(Duration.ofHours(1));
		try (Pipeline pipeline = new Pipeline(settings, pool, pool)) {
			pipeline.observeChunks(new Copier.ChunkObserver() {

				@Override
				public void beforeDispatch(Object[] lowerExclusive) {
					if (lowerExclusive != null && paused.getCount() > 0) {
						paused.countDown();
						awaitQuietly(release);
					}
				}

			});
			pipeline.start();
			assertThat(paused.await(1, TimeUnit.MINUTES)).as("copier paused after the first chunk").isTrue();
			awaitTable(pipeline, (t) -> t.chunksCopied() == 1, Duration.ofMinutes(1));
			assertThat(table(pipeline).rowsCopied()).isLessThan(1500);
			CompletableFuture<Void> writer;
			try {
				db.server().execute(src, "SET GLOBAL rpl_semi_sync_master_wait_point = 'AFTER_SYNC'",
						"SET GLOBAL rpl_semi_sync_master_wait_no_slave = ON",
						"SET GLOBAL rpl_semi_sync_master_timeout = 6000", "SET GLOBAL rpl_semi_sync_master_enabled = ON");
				writer = CompletableFuture.runAsync(() -> db.server().execute(src, "START TRANSACTION",
						"UPDATE t SET v = 'after' WHERE id = 3000", "DELETE FROM t WHERE id = 5000",
						"INSERT INTO t VALUES (4001, 'inserted')", "COMMIT"));
				// The reader has the changes and dropped them above the high watermark (2000)...
				awaitTable(pipeline, (t) -> t.droppedAboveHighWatermark() >= 3, Duration.ofSeconds(5));
				// ...while the commit still stalls and the rows are not visible to plain reads.
				assertThat(writer).isNotDone();
				assertThat(plainRead(pool, src + ".t", 3000)).isEqualTo("before");
				release.countDown();
				writer.get(1, TimeUnit.MINUTES);
			}
			finally {
				release.countDown();
				db.server().execute(src, "SET GLOBAL rpl_semi_sync_master_enabled = OFF");
			}
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(pipeline).droppedAboveHighWatermark()).isGreaterThanOrEqualTo(3);
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
			// Equal without help: the chunk checksum finds nothing to repair.
			TableStatus.Checksum checksum = pipeline.checksum(new TableId(src, "t")).get(2, TimeUnit.MINUTES);
			assertThat(checksum.chunksChecked()).isPositive();
			assertThat(checksum.chunksDiffering()).isZero();
			assertThat(checksum.chunksRepaired()).isZero();
		}
	}

	private static String plainRead(DataSource pool, String table, int id) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT v FROM " + table + " WHERE id = " + id)) {
			rs.next();
			return rs.getString(1);
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(2, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
