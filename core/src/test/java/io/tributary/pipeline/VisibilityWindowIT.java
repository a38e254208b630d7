package io.tributary.pipeline;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.InsertStatements;
import io.tributary.test.TestDatabase;

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
		// The first chunk ends well below 3000 (stepped chunks of 1000 key values hold 500 rows here;
		// probed ones end at 2000), so the changes below are all above the high watermark.
		// Only the writer's commit may meet the semi-sync stall: no checkpoint write during the test, and
		// the first chunk landed before the stall is armed (target and source share the server).
		Replication replication = Replication.of(db, "vis")
			.withSettings((s) -> s.withChunkRows(1000).withCheckpointInterval(Duration.ofHours(1)));
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)",
				InsertStatements.single("t", 1, 3000, (i) -> (2 * i) + ", 'before'"));
		CopyHold hold = CopyHold.afterFirstChunk();
		try (RunningPipeline pipeline = replication.start((p) -> p.observeChunks(hold))) {
			hold.awaitHeld(Replication.WAIT);
			pipeline.awaitTable((t) -> t.chunksCopied() == 1);
			assertThat(pipeline.table().rowsCopied()).isLessThan(1500);
			CompletableFuture<Void> writer;
			try {
				replication.onSource("SET GLOBAL rpl_semi_sync_master_wait_point = 'AFTER_SYNC'",
						"SET GLOBAL rpl_semi_sync_master_wait_no_slave = ON",
						"SET GLOBAL rpl_semi_sync_master_timeout = 6000", "SET GLOBAL rpl_semi_sync_master_enabled = ON");
				writer = CompletableFuture.runAsync(() -> replication.onSource("START TRANSACTION",
						"UPDATE t SET v = 'after' WHERE id = 3000", "DELETE FROM t WHERE id = 5000",
						"INSERT INTO t VALUES (4001, 'inserted')", "COMMIT"));
				// The reader has the changes and dropped them above the high watermark (2000)...
				pipeline.awaitTable((t) -> t.droppedAboveHighWatermark() >= 3, Duration.ofSeconds(5));
				// ...while the commit still stalls and the rows are not visible to plain reads.
				assertThat(writer).isNotDone();
				String plainRead = "SELECT v FROM " + replication.sourceTable("t") + " WHERE id = 3000";
				assertThat(replication.queryString(plainRead)).isEqualTo("before");
				hold.release();
				writer.get(1, TimeUnit.MINUTES);
			}
			finally {
				hold.release();
				replication.onSource("SET GLOBAL rpl_semi_sync_master_enabled = OFF");
			}
			pipeline.awaitPhase(Phase.STREAMING);
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().droppedAboveHighWatermark()).isGreaterThanOrEqualTo(3);
			replication.assertEqual("t");
			// Equal without help: the chunk checksum finds nothing to repair.
			TableStatus.Checksum checksum = pipeline.checksum("t", Duration.ofMinutes(2));
			assertThat(checksum.chunksChecked()).isPositive();
			assertThat(checksum.chunksDiffering()).isZero();
			assertThat(checksum.chunksRepaired()).isZero();
		}
	}

}
