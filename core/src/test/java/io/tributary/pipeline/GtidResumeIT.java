package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.Position;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checkpoints carry the executed GTIDs. On MySQL the reader resumes by GTID, so a checkpoint
 * whose file is unknown to the server still resumes, and one whose GTIDs the server never
 * executed is refused; on MariaDB positions carry the GTID list and resume by file and offset.
 */
@ExtendWith(DatabaseExtension.class)
class GtidResumeIT {

	@Test
	void checkpointsCarryGtidsAndMySqlResumesByThem(TestDatabase db) throws Exception {
		ReplicationIT.server(db);
		String src = db.schema("gtid_src");
		String dst = db.schema("gtid_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1), (2, 2)");
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t");
		try (Pipeline first = new Pipeline(settings, pool, pool)) {
			first.start();
			awaitTable(first, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			db.server().execute(src, "INSERT INTO t VALUES (3, 3)");
			first.awaitCaughtUp(Duration.ofMinutes(1));
		}
		Position saved = Position.parse(checkpoint(pool, dst));
		assertThat(saved.gtids()).as("GTIDs in the checkpoint").isNotNull();
		if (db.server().isMariaDb()) {
			assertThat(saved.gtids()).matches("(\\d+-\\d+-\\d+,?)+");
		}
		else {
			assertThat(saved.gtids()).contains(serverUuid(pool));
		}
		db.server().execute(src, "UPDATE t SET v = 30 WHERE id = 3", "INSERT INTO t VALUES (4, 4)");
		// A file the server never had: only a resume by GTID can still find the place.
		setCheckpoint(pool, dst, "mysql-bin.999999:4|" + saved.gtids());
		try (Pipeline second = new Pipeline(settings, pool, pool)) {
			second.start();
			if (db.server().isMariaDb()) {
				awaitTable(second, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
				assertThat(table(second).lastError()).contains("no longer has binlog file mysql-bin.999999");
				return;
			}
			second.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(second).rowsCopied()).isZero();
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
		// GTIDs the server never executed: its history diverged from the checkpoint's.
		setCheckpoint(pool, dst, saved.file() + ":" + saved.offset() + "|" + saved.gtids()
				+ ",aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee:1-5");
		try (Pipeline third = new Pipeline(settings, pool, pool)) {
			third.start();
			awaitTable(third, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			assertThat(table(third).lastError()).contains("does not contain the checkpoint's")
				.contains("cdc.checkpoint.invalid-behavior=restart");
		}
	}

	private static String checkpoint(DataSource pool, String schema) throws Exception {
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = connection
					.prepareStatement("SELECT binlog_position FROM " + schema + ".tributary_checkpoint");
				ResultSet rs = statement.executeQuery()) {
			rs.next();
			return rs.getString(1);
		}
	}

	private static void setCheckpoint(DataSource pool, String schema, String position) throws Exception {
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = connection
					.prepareStatement("UPDATE " + schema + ".tributary_checkpoint SET binlog_position = ?")) {
			statement.setString(1, position);
			assertThat(statement.executeUpdate()).isEqualTo(1);
		}
	}

	private static String serverUuid(DataSource pool) throws Exception {
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = connection.prepareStatement("SELECT @@server_uuid");
				ResultSet rs = statement.executeQuery()) {
			rs.next();
			return rs.getString(1);
		}
	}

}
