package io.tributary.pipeline;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.source.StartPoint;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where tables start: a one-shot copy ({@code snapshot only}) that stops at a position its target
 * equals and stays stopped across restarts; and tables that stream without a copy from an instant,
 * a binlog file and offset, or a GTID set, each taking the changes from there on and none before;
 * start points the source cannot serve refused, that table alone.
 */
@ExtendWith(DatabaseExtension.class)
class StartPointIT {

	@Test
	void aSnapshotOnlyTableIsCopiedWhileWrittenThenStopsAndStaysStopped(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "only");
		String src = replication.source();
		Workload.createOrdersTable(replication.sourcePool(), src + ".t", 3_000);
		Workload.createOrdersTable(replication.sourcePool(), src + ".witness", 10);
		TableMapping once = new TableMapping(new TableId(src, "t"), new TableId(replication.target(), "t"), List.of(),
				SnapshotMode.ONLY);
		Replication onlyOnce = replication.withSettings((s) -> s.withTables(List.of(once, replication.mapping("witness")))
			.withChunkRows(500));
		CopyHold hold = CopyHold.afterFirstChunk();
		try (RunningPipeline pipeline = onlyOnce.start((p) -> p.observeChunks(hold))) {
			hold.whileHeld(() -> replication.onSource("UPDATE t SET note = 'during' WHERE id % 10 = 0",
					"DELETE FROM t WHERE id % 97 = 0", "INSERT INTO t SELECT id + 100000, customer_id, status, amount, note, "
							+ "payload, data, created_at, updated_at FROM t WHERE id <= 50"));
			TableStatus copied = pipeline.awaitTable("t", (t) -> t.phase() == Phase.COPIED);
			assertThat(copied.lastAction().name()).isEqualTo("copied");
			assertThat(copied.lastAction().detail()).contains("equals the source table at " + copied.confirmedPosition());
			replication.assertEqual("t");

			// Nothing more reaches it; the witness shows the reader went past the change.
			replication.onSource("UPDATE t SET note = 'after the end' WHERE id <= 100", "UPDATE witness SET note = 'seen'");
			replication.awaitEqual("witness", Replication.WAIT);
			assertThat(replication.queryString("SELECT COUNT(*) FROM " + replication.targetTable("t")
					+ " WHERE note = 'after the end'")).isEqualTo("0");
			assertThat(pipeline.table("t").phase()).isEqualTo(Phase.COPIED);
			assertThat(pipeline.table("t").confirmedPosition()).isEqualTo(copied.confirmedPosition());
		}
		try (RunningPipeline restarted = onlyOnce.start()) {
			restarted.awaitTable("witness", (t) -> t.phase() == Phase.STREAMING);
			TableStatus again = restarted.table("t");
			assertThat(again.phase()).isEqualTo(Phase.COPIED);
			assertThat(again.rowsCopied()).isZero();
			replication.onSource("UPDATE witness SET note = 'seen again'");
			replication.awaitEqual("witness", Replication.WAIT);
			assertThat(replication.queryString("SELECT COUNT(*) FROM " + replication.targetTable("t")
					+ " WHERE note = 'after the end'")).isEqualTo("0");
		}
	}

	@Test
	void tablesStreamWithoutACopyFromAnInstantAFileOffsetOrAGtidSet(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "startat");
		String src = replication.source();
		List<String> tables = List.of("by_time", "by_file", "by_gtid", "bad_offset", "purged");
		for (String table : tables) {
			Workload.createOrdersTable(replication.sourcePool(), src + "." + table, 100);
			replication.onSource("UPDATE " + table + " SET note = 'before' WHERE id <= 10");
		}
		// The start points: the next whole second, and the head with its GTIDs, before any change below.
		long second = Long.parseLong(replication.queryString("SELECT UNIX_TIMESTAMP()")) + 1;
		Await.until("the source's clock is at " + second, Replication.WAIT,
				() -> Long.parseLong(replication.queryString("SELECT UNIX_TIMESTAMP()")) >= second);
		String[] head = headAndGtids(replication);
		for (String table : tables) {
			replication.onSource("UPDATE " + table + " SET note = 'after' WHERE id BETWEEN 11 AND 20",
					"INSERT INTO " + table + " SELECT id + 1000, customer_id, status, amount, 'after', payload, data, "
							+ "created_at, updated_at FROM " + table + " WHERE id = 1");
		}
		List<TableMapping> mappings = new ArrayList<>();
		mappings.add(startingAt(replication, "by_time", "timestamp:" + Instant.ofEpochSecond(second)));
		mappings.add(startingAt(replication, "by_file", head[0] + ":" + head[1]));
		mappings.add(startingAt(replication, "by_gtid", "gtid:" + head[2]));
		mappings.add(startingAt(replication, "bad_offset", head[0] + ":" + (Long.parseLong(head[1]) + 1)));
		mappings.add(startingAt(replication, "purged", "timestamp:2001-01-01T00:00:00+01:00"));
		try (RunningPipeline pipeline = replication.withSettings((s) -> s.withTables(mappings)).start()) {
			for (String table : List.of("by_time", "by_file", "by_gtid")) {
				pipeline.awaitTable(table, (t) -> t.phase() == Phase.STREAMING);
			}
			assertThat(pipeline.awaitTable("bad_offset", (t) -> t.phase() == Phase.FAILED).lastError())
				.contains("no transaction starts at offset");
			assertThat(pipeline.awaitTable("purged", (t) -> t.phase() == Phase.FAILED).lastError())
				.contains("oldest binlog file").contains("starts at");
			pipeline.awaitCaughtUp();
			for (String table : List.of("by_time", "by_file", "by_gtid")) {
				assertThat(replication.queryStrings("SELECT CONCAT(id, ' ', note) FROM " + replication.targetTable(table)
						+ " ORDER BY id")).as(table)
					.containsExactly("11 after", "12 after", "13 after", "14 after", "15 after", "16 after", "17 after",
							"18 after", "19 after", "20 after", "1001 after");
				assertThat(pipeline.table(table).rowsCopied()).isZero();
			}
		}
	}

	private static TableMapping startingAt(Replication replication, String table, String start) {
		return replication.mapping(table).startingAt(StartPoint.parse(start));
	}

	/** The source's head: file, offset and GTIDs, as a reader would start from there. */
	private static String[] headAndGtids(Replication replication) throws Exception {
		boolean mariaDb = replication.queryString("SELECT VERSION()").contains("MariaDB");
		List<String> status = new ArrayList<>();
		try (var connection = replication.sourcePool().getConnection(); var statement = connection.createStatement();
				var rs = statement.executeQuery("SHOW MASTER STATUS")) {
			rs.next();
			status.add(rs.getString(1));
			status.add(rs.getString(2));
		}
		status.add(replication.queryString(mariaDb ? "SELECT @@GLOBAL.gtid_binlog_pos" : "SELECT @@GLOBAL.gtid_executed")
			.replace("\n", ""));
		return status.toArray(new String[0]);
	}

}
