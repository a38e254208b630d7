package io.tributary.pipeline;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
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

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
		ReplicationIT.server(database);
	}

	@Test
	void fifoModeWithKeysInBothCasesConverges() throws Exception {
		String src = db.schema("ci_src");
		String dst = db.schema("ci_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, TABLE, "INSERT INTO t VALUES ('m', 1), ('N', 2), ('x', 3)");
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t").withFlushInterval(Duration.ofMillis(500));
		try (Pipeline pipeline = new Pipeline(settings, pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			// One transaction, so that its changes are likely to be drained together.
			db.server().execute(src, "START TRANSACTION",
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
			db.server().execute(src, "INSERT INTO t VALUES ('Z', 0)");
			for (int round = 1; round <= 9; round++) {
				db.server().execute(src, "UPDATE t SET k = '" + ((round % 2 == 1) ? "z" : "Z") + "', v = " + round
						+ " WHERE k = 'z'");
			}
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(pipeline).phase()).isEqualTo(Phase.STREAMING);
			List<String> expected = List.of("A=4", "b=2", "m=5", "n=6", "x=6", "z=9");
			assertThat(rows(pool, src)).isEqualTo(expected);
			assertThat(rows(pool, dst)).as("target, spelled exactly").isEqualTo(expected);
		}
	}

	@Test
	void aTableResumingWithoutASnapshotKeepsBinlogOrderFromTheStart() throws Exception {
		String src = db.schema("ci_resume_src");
		String dst = db.schema("ci_resume_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, TABLE, "INSERT INTO t VALUES ('a', 1), ('b', 2)");
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t").withFlushInterval(Duration.ofMillis(500));
		try (Pipeline first = new Pipeline(settings, pool, pool)) {
			first.start();
			awaitTable(first, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			first.awaitCaughtUp(Duration.ofMinutes(1));
		}
		db.server().execute(src, "START TRANSACTION", "UPDATE t SET k = 'A', v = 3 WHERE k = 'a'",
				"DELETE FROM t WHERE k = 'a'", "INSERT INTO t VALUES ('a', 4)", "UPDATE t SET k = 'B' WHERE k = 'b'",
				"UPDATE t SET k = 'b', v = 5 WHERE k = 'B'", "INSERT INTO t VALUES ('C', 6)",
				"UPDATE t SET k = 'c' WHERE k = 'C'", "COMMIT");
		try (Pipeline second = new Pipeline(settings, pool, pool)) {
			second.start();
			second.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(second).rowsCopied()).as("rows copied after a restart").isZero();
			List<String> expected = List.of("a=4", "b=5", "c=6");
			assertThat(rows(pool, src)).isEqualTo(expected);
			assertThat(rows(pool, dst)).as("target, spelled exactly").isEqualTo(expected);
		}
	}

	/** Returns the rows of {@code schema.t} as {@code k=v}, the key spelt as stored, in byte order. */
	private static List<String> rows(DataSource pool, String schema) throws Exception {
		List<String> rows = new ArrayList<>();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT BINARY k, v FROM " + schema + ".t ORDER BY BINARY k")) {
			while (rs.next()) {
				rows.add(new String(rs.getBytes(1), StandardCharsets.UTF_8) + "=" + rs.getInt(2));
			}
		}
		return rows;
	}

}
