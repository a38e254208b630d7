package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
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
		ReplicationIT.server(db);
		String src = db.schema("purge_src");
		String dst = db.schema("purge_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO t SELECT seq, CONCAT('v', seq) FROM (SELECT a.n * 10 + b.n + 1 AS seq FROM "
						+ "(SELECT 0 n UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 "
						+ "UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9) a, "
						+ "(SELECT 0 n UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 "
						+ "UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9) b) numbers");
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t");
		try (Pipeline first = new Pipeline(settings, pool, pool)) {
			first.start();
			awaitTable(first, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			first.awaitCaughtUp(Duration.ofMinutes(1));
		}
		// Changes while stopped, then the binlog holding them is purged.
		db.server().execute(src, "UPDATE t SET v = 'changed' WHERE id <= 10", "DELETE FROM t WHERE id > 90",
				"INSERT INTO t VALUES (500, 'new')", "FLUSH BINARY LOGS");
		String newest = currentBinlogFile(pool);
		// A server keeps a file a dump thread still reads; the closed reader's thread may linger briefly.
		long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
		do {
			db.server().execute(src, "PURGE BINARY LOGS TO '" + newest + "'");
			assertThat(System.nanoTime()).as("binlog files before " + newest + " purged").isLessThan(deadline);
			Thread.sleep(50);
		}
		while (!oldestBinlogFile(pool).equals(newest));

		try (Pipeline refusing = new Pipeline(settings, pool, pool)) {
			refusing.start();
			awaitTable(refusing, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			// MySQL resumes by GTID and sees the purge in gtid_purged; MariaDB by file and sees the file gone.
			assertThat(table(refusing).lastError())
				.contains(db.server().isMariaDb() ? "no longer has binlog file" : "has purged transactions")
				.contains("cdc.checkpoint.invalid-behavior=restart")
				.contains("delete its row from the checkpoint table");
		}
		try (Pipeline restarting = new Pipeline(
				settings.withInvalidCheckpointBehavior(InvalidCheckpointBehavior.RESTART), pool, pool)) {
			restarting.start();
			awaitTable(restarting, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			restarting.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(restarting).rowsCopied()).isPositive();
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	private static String oldestBinlogFile(DataSource pool) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW BINARY LOGS")) {
			rs.next();
			return rs.getString(1);
		}
	}

	private static String currentBinlogFile(DataSource pool) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW MASTER STATUS")) {
			rs.next();
			return rs.getString(1);
		}
	}

}
