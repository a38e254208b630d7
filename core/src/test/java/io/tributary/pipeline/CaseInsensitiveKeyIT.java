package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table keyed by a case-insensitive VARCHAR: {@code 'A'} and {@code 'a'} are one row on the
 * server but two keys in memory. Once the copy is over its changes are applied in binlog order,
 * so a row deleted under one spelling and written again under the other ends with the spelling
 * and value the source has.
 *
 * <p>Each sequence below leaves, per row, the last upsert under one spelling and a delete under
 * the other. Applied in any order where that upsert precedes that delete, the row would go
 * missing; applied in an order where two spellings' images compete, the wrong spelling or value
 * could win. The final state is asserted exactly, spelling included ({@code BINARY k}).
 */
@ExtendWith(DatabaseExtension.class)
class CaseInsensitiveKeyIT {

	private static final String TABLE = "CREATE TABLE t (k VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci "
			+ "NOT NULL PRIMARY KEY, v INT NOT NULL)";

	private static final UnaryOperator<PipelineSettings> FLUSH_EVERY_HALF_SECOND = (s) -> s
		.withFlushInterval(Duration.ofMillis(500));

	@Test
	void fifoModeWithKeysInBothCasesConverges(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "ci").withSettings(FLUSH_EVERY_HALF_SECOND);
		replication.onSource(TABLE, "INSERT INTO t VALUES ('m', 1), ('N', 2), ('x', 3)");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			// One transaction, so that its changes are likely to be drained together.
			replication.onSource("START TRANSACTION",
					// 'A' inserted, deleted, written again as 'a', deleted, and finally inserted as 'A'.
					"INSERT INTO t VALUES ('A', 1)", "DELETE FROM t WHERE k = 'A'", "INSERT INTO t VALUES ('a', 2)",
					"UPDATE t SET v = 3 WHERE k = 'a'", "DELETE FROM t WHERE k = 'a'", "INSERT INTO t VALUES ('A', 4)",
					// A key update from 'B' to 'b': a delete of 'B' and an image under 'b'.
					"INSERT INTO t VALUES ('B', 1)", "UPDATE t SET k = 'b', v = 2 WHERE k = 'B'",
					// A copied row re-spelt twice: it ends as 'm' with its new value.
					"UPDATE t SET k = 'M' WHERE k = 'm'", "UPDATE t SET k = 'm', v = 5 WHERE k = 'M'",
					// Deleted through the other spelling, then inserted under it.
					"DELETE FROM t WHERE k = 'n'", "INSERT INTO t VALUES ('n', 6)",
					// Gone under both spellings.
					"INSERT INTO t VALUES ('C', 1)", "DELETE FROM t WHERE k = 'c'", "INSERT INTO t VALUES ('c', 2)",
					"DELETE FROM t WHERE k = 'C'",
					// A row updated repeatedly under one spelling.
					"UPDATE t SET v = v + 1 WHERE k = 'x'", "UPDATE t SET v = v + 1 WHERE k = 'X'",
					"UPDATE t SET v = v + 1 WHERE k = 'x'", "COMMIT");
			// The same in separate transactions: the row 'Z' alternates its spelling ten times.
			replication.onSource("INSERT INTO t VALUES ('Z', 0)");
			for (int round = 1; round <= 9; round++) {
				replication.onSource("UPDATE t SET k = '" + ((round % 2 == 1) ? "z" : "Z") + "', v = " + round
						+ " WHERE k = 'z'");
			}
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
			List<String> expected = List.of("A=4", "b=2", "m=5", "n=6", "x=6", "z=9");
			assertThat(rows(replication, replication.source())).isEqualTo(expected);
			assertThat(rows(replication, replication.target())).as("target, spelled exactly").isEqualTo(expected);
		}
	}

	@Test
	void aTableResumingWithoutASnapshotKeepsBinlogOrderFromTheStart(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "ci_resume").withSettings(FLUSH_EVERY_HALF_SECOND);
		replication.onSource(TABLE, "INSERT INTO t VALUES ('a', 1), ('b', 2)");
		replication.runUntilCaughtUp();
		replication.onSource("START TRANSACTION", "UPDATE t SET k = 'A', v = 3 WHERE k = 'a'",
				"DELETE FROM t WHERE k = 'a'", "INSERT INTO t VALUES ('a', 4)", "UPDATE t SET k = 'B' WHERE k = 'b'",
				"UPDATE t SET k = 'b', v = 5 WHERE k = 'B'", "INSERT INTO t VALUES ('C', 6)",
				"UPDATE t SET k = 'c' WHERE k = 'C'", "COMMIT");
		try (RunningPipeline second = replication.start()) {
			second.awaitCaughtUp();
			assertThat(second.table().rowsCopied()).as("rows copied after a restart").isZero();
			List<String> expected = List.of("a=4", "b=5", "c=6");
			assertThat(rows(replication, replication.source())).isEqualTo(expected);
			assertThat(rows(replication, replication.target())).as("target, spelled exactly").isEqualTo(expected);
		}
	}

	/** Returns the rows of {@code schema.t} as {@code k=v}, the key spelt as stored, in byte order. */
	private static List<String> rows(Replication replication, String schema) throws Exception {
		return replication.queryStrings("SELECT CONCAT(k, '=', v) FROM " + schema + ".t ORDER BY BINARY k");
	}

}
