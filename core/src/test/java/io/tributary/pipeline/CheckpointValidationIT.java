package io.tributary.pipeline;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.InsertStatements;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A checkpoint whose binlog file was purged while Tributary was stopped: by default the table
 * stops with an error naming both ways out; with {@code restart} it is snapshotted again and
 * converges, rows deleted meanwhile included.
 */
@ExtendWith(DatabaseExtension.class)
class CheckpointValidationIT {

	@Test
	void purgedCheckpointFailsTheTableOrSnapshotsItAgain(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "purge");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				InsertStatements.single("t", 1, 100, (i) -> i + ", 'v" + i + "'"));
		replication.runUntilCaughtUp();
		// Changes while stopped, then the binlog holding them is purged.
		replication.onSource("UPDATE t SET v = 'changed' WHERE id <= 10", "DELETE FROM t WHERE id > 90",
				"INSERT INTO t VALUES (500, 'new')", "FLUSH BINARY LOGS");
		String newest = SourceQueries.headFileOffset(replication.pool()).file();
		// A server keeps a file a dump thread still reads; the closed reader's thread may linger briefly.
		Await.until("binlog files before " + newest + " purged", Replication.WAIT, () -> {
			replication.onSource("PURGE BINARY LOGS TO '" + newest + "'");
			return replication.queryString("SHOW BINARY LOGS").equals(newest);
		});

		try (RunningPipeline refusing = replication.start()) {
			// Both resume by GTID: MySQL sees the purge in gtid_purged, MariaDB in the GTID list its oldest file starts at.
			assertThat(refusing.awaitPhase(Phase.FAILED).lastError()).contains("has purged transactions")
				.contains("PipelineSettings.invalidCheckpointBehavior=restart")
				.contains("resnapshot the table");
		}
		Replication restarting = replication
			.withSettings((s) -> s.withInvalidCheckpointBehavior(InvalidCheckpointBehavior.RESTART));
		try (RunningPipeline pipeline = restarting.startStreaming()) {
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().rowsCopied()).isPositive();
			replication.assertEqual("t");
		}
	}

}
