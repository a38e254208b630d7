package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.Position;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checkpoints carry the executed GTIDs (on MariaDB the GTID list, each GTID with the server id of
 * its event header) and the reader resumes by them on both servers, so a checkpoint whose file is
 * unknown to the server still resumes, and one whose GTIDs the server never executed is refused.
 */
@ExtendWith(DatabaseExtension.class)
class GtidResumeIT {

	@Test
	void checkpointsCarryGtidsAndMySqlResumesByThem(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "gtid");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1), (2, 2)");
		try (RunningPipeline first = replication.startStreaming()) {
			replication.onSource("INSERT INTO t VALUES (3, 3)");
			first.awaitCaughtUp();
		}
		Position saved = replication.checkpoint("t");
		assertThat(saved.gtids()).as("GTIDs in the checkpoint").isNotNull();
		assertThat(saved.serverId()).as("server of the checkpoint").isEqualTo(
				Long.parseLong(replication.queryString("SELECT @@server_id")));
		if (db.server().isMariaDb()) {
			// Exactly the list the server itself gives for that place in its binary log.
			assertThat(saved.gtids()).isEqualTo(replication.queryString(
					"SELECT BINLOG_GTID_POS('" + saved.file() + "', " + saved.offset() + ")"));
		}
		else {
			assertThat(saved.gtids()).contains(replication.queryString("SELECT @@server_uuid"));
		}
		replication.onSource("UPDATE t SET v = 30 WHERE id = 3", "INSERT INTO t VALUES (4, 4)");
		// A file the server never had: only a resume by GTID can still find the place.
		setCheckpoint(replication, "mysql-bin.999999:4|" + saved.gtids());
		try (RunningPipeline second = replication.start()) {
			second.awaitCaughtUp();
			assertThat(second.table().rowsCopied()).isZero();
			assertThat(second.status().positionsByGtid()).isTrue();
			replication.assertEqual("t");
		}
		// GTIDs the server never executed: its history diverged from the checkpoint's.
		String diverged = db.server().isMariaDb() ? saved.gtids() + ",7-99-5"
				: saved.gtids() + ",aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee:1-5";
		setCheckpoint(replication, saved.file() + ":" + saved.offset() + "|" + diverged);
		try (RunningPipeline third = replication.start()) {
			assertThat(third.awaitPhase(Phase.FAILED).lastError())
				.contains(db.server().isMariaDb() ? "does not hold the checkpoint's transaction 7-99-5"
						: "does not contain the checkpoint's")
				.contains("PipelineSettings.invalidCheckpointBehavior=restart");
		}
	}

	private static void setCheckpoint(Replication replication, String position) throws Exception {
		try (Connection connection = replication.pool().getConnection();
				PreparedStatement statement = connection.prepareStatement(
						"UPDATE " + replication.targetTable("tributary_checkpoint") + " SET binlog_position = ?")) {
			statement.setString(1, position);
			assertThat(statement.executeUpdate()).isEqualTo(1);
		}
	}

}
