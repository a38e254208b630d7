package io.tributary.pipeline;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Virtual and stored generated columns, between ordinary ones, in a unique key and not: the
 * target computes them, so neither the snapshot (loads and statements), nor streamed changes,
 * nor a checksum's repair may give them a value; the checksum still compares them.
 */
@ExtendWith(DatabaseExtension.class)
class GeneratedColumnsIT {

	/** Both servers take this syntax; MariaDB reads STORED as its PERSISTENT. */
	private static final String TABLE = "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, "
			+ "b INT AS (2 * a) VIRTUAL, a SMALLINT UNSIGNED, c INT AS (10 * id + a % 10) STORED, "
			+ "d VARCHAR(30) AS (CONCAT('n', a, '-', note)) VIRTUAL, note VARCHAR(20), UNIQUE KEY (c))";

	@Test
	void generatedColumnsAreComputedByTheTargetOnEveryPath(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "generated")
			.withSettings((s) -> s.withChecksum(ChecksumSettings.DEFAULTS.withFixDifferences(true)));
		replication.onSource(TABLE,
				"INSERT INTO t (id, a, note) SELECT seq, seq % 1000, CONCAT('r', seq) FROM "
						+ "(SELECT a.n * 100 + b.n * 10 + c.n + 1 AS seq FROM " + digits("a") + ", " + digits("b")
						+ ", " + digits("c") + ") s");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.assertEqual("t");
			// A batch of one row is a statement; one of 300 is loaded where the target allows it.
			replication.onSource("INSERT INTO t (id, a, note) VALUES (5001, 7, 'one')",
					"INSERT INTO t (id, a, note) SELECT id + 10000, a + 1, note FROM t WHERE id <= 300",
					"UPDATE t SET a = a + 5, note = 'moved' WHERE id % 7 = 0",
					"UPDATE t SET id = id + 20000 WHERE id BETWEEN 400 AND 410",
					"DELETE FROM t WHERE id % 11 = 0");
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
			assertThat(pipeline.table().lastError()).isNull();
			replication.assertEqual("t");

			// A row damaged on the target differs in its generated columns too, and is repaired.
			replication.onTarget("UPDATE t SET a = 999, note = 'damaged' WHERE id = 5001");
			TableStatus.Checksum repaired = pipeline.checksum("t", Duration.ofMinutes(2));
			assertThat(repaired.chunksDiffering()).isPositive();
			assertThat(repaired.chunksRepaired()).isEqualTo(repaired.chunksRecheckedStillDiffering()).isPositive();
			assertThat(repaired.lastError()).isNull();
			replication.assertEqual("t");
		}
	}

	@Test
	void aTargetWhoseColumnIsNotGeneratedIsRefused(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "generated_plain");
		replication.onSource(TABLE, "INSERT INTO t (id, a, note) VALUES (1, 1, 'x')");
		replication.onTarget("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, b INT, a SMALLINT UNSIGNED, "
				+ "c INT AS (10 * id + a % 10) STORED, d VARCHAR(30) AS (CONCAT('n', a, '-', note)) VIRTUAL, "
				+ "note VARCHAR(20), UNIQUE KEY (c))");
		try (RunningPipeline pipeline = replication.start()) {
			TableStatus failed = pipeline.awaitPhase(Phase.FAILED);
			assertThat(failed.lastError()).contains("column b is generated in the source but not in the target");
		}
	}

	private static String digits(String alias) {
		return "(SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL "
				+ "SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) " + alias;
	}

}
