package io.tributary.pipeline;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.apply.ChangeListener;
import io.tributary.name.TableId;
import io.tributary.name.TablePattern;
import io.tributary.name.TargetTemplate;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables taken by a pattern: each a table of its own, copied while writes race the copy, then
 * streamed; excluded and unmatched tables left alone; resumed from their checkpoints at the next
 * start, when a table created meanwhile is taken and copied too. Rules that would take one table
 * twice keep the pipeline from starting, with the reason in its status.
 */
@ExtendWith(DatabaseExtension.class)
class PatternRulesIT {

	@Test
	void aPatternTakesItsTablesEachOfItsOwnAndTakesNewOnesAtTheNextStart(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "patterns");
		String src = replication.source();
		String dst = replication.target();
		for (String table : List.of("orders_1", "orders_2", "orders_3", "orders_tmp", "items")) {
			Workload.createOrdersTable(replication.sourcePool(), src + "." + table, 3_000);
		}
		TableRule orders = TableRule.toTables("orders", TablePattern.parse(src + ".orders_*"),
				List.of(TablePattern.parse(src + ".orders_tmp")), TargetTemplate.parse(dst + ".copy_{table}", null),
				List.of(), SnapshotMode.AUTO);
		TableMapping items = new TableMapping(new TableId(src, "items"), new TableId(dst, "items"));
		Replication patterns = replication.withSettings((s) -> s.toBuilder().tables(List.of(items))
			.rules(List.of(orders)).build().withChunkRows(500));

		List<Workload> writers = new ArrayList<>();
		for (String table : List.of("orders_1", "orders_2", "orders_3")) {
			writers.add(replication.workload(table).threads(1).ratePerSecond(200).seed(table.hashCode()).build());
		}
		try (RunningPipeline pipeline = patterns.start()) {
			writers.forEach(Workload::start);
			awaitEveryTableStreaming(pipeline, 4);
			writers.forEach(Workload::stop);
			assertThat(pipeline.status().tables())
				.extracting((t) -> t.name() + " -> " + t.target() + " by " + t.rule())
				.containsExactly(src + ".items -> " + dst + ".items by null",
						src + ".orders_1 -> " + dst + ".copy_orders_1 by orders",
						src + ".orders_2 -> " + dst + ".copy_orders_2 by orders",
						src + ".orders_3 -> " + dst + ".copy_orders_3 by orders");
			pipeline.awaitCaughtUp();
			assertCopied(replication, "items", "items");
			for (String table : List.of("orders_1", "orders_2", "orders_3")) {
				assertCopied(replication, table, "copy_" + table);
			}
			assertThat(replication.queryString("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
					+ dst + "' AND TABLE_NAME IN ('copy_orders_tmp', 'orders_tmp')")).as("the excluded table").isEqualTo("0");
		}

		// Created while the pipeline is stopped: taken at the next start, the others resume.
		Workload.createOrdersTable(replication.sourcePool(), src + ".orders_4", 1_000);
		replication.onSource("UPDATE orders_2 SET amount = amount + 1 WHERE id <= 100");
		try (RunningPipeline resumed = patterns.start()) {
			awaitEveryTableStreaming(resumed, 5);
			assertThat(resumed.status().tables()).extracting(TableStatus::name)
				.containsExactly(src + ".items", src + ".orders_1", src + ".orders_2", src + ".orders_3", src + ".orders_4");
			assertThat(resumed.status().tables()).extracting(TableStatus::rowsCopied)
				.as("only the new table copied").containsExactly(0L, 0L, 0L, 0L, 1_000L);
			resumed.awaitCaughtUp();
			for (String table : List.of("orders_1", "orders_2", "orders_3", "orders_4")) {
				assertCopied(replication, table, "copy_" + table);
			}
		}
	}

	@Test
	void tablesThatAppearWhileThePipelineRunsAreTakenCopiedAndStreamed(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "appear");
		String src = replication.source();
		String dst = replication.target();
		Workload.createOrdersTable(replication.sourcePool(), src + ".t_1", 500);
		Workload.createOrdersTable(replication.sourcePool(), src + ".other", 300);
		Replication appearing = byRule(replication, "t_*", dst + ".{table}", 100);
		try (RunningPipeline pipeline = appearing.start()) {
			awaitEveryTableStreaming(pipeline, 1);
			// Created and filled in one burst, while t_1 keeps changing.
			Workload.createOrdersTable(replication.sourcePool(), src + ".t_burst", 2_000);
			replication.onSource("CREATE TABLE t_like LIKE t_1", "INSERT INTO t_like SELECT * FROM t_1 WHERE id <= 200",
					"UPDATE t_1 SET amount = amount + 1 WHERE id <= 300",
					"CREATE TABLE t_select (PRIMARY KEY (id)) SELECT * FROM t_1 WHERE id > 100",
					"RENAME TABLE other TO t_renamed", "CREATE TABLE staging LIKE t_1",
					"INSERT INTO staging SELECT * FROM t_1 WHERE id BETWEEN 50 AND 150", "RENAME TABLE staging TO t_staged",
					"CREATE TABLE not_taken (id INT PRIMARY KEY)",
					"INSERT INTO not_taken VALUES (1)", "DELETE FROM t_like WHERE id <= 20",
					"INSERT INTO t_renamed SELECT * FROM t_1 WHERE id > 450 ON DUPLICATE KEY UPDATE amount = 0");
			awaitEveryTableStreaming(pipeline, 6);
			assertThat(pipeline.status().tables()).extracting((t) -> t.name() + " by " + t.rule())
				.containsExactlyInAnyOrder(src + ".t_1 by t", src + ".t_burst by t", src + ".t_like by t",
						src + ".t_select by t", src + ".t_renamed by t", src + ".t_staged by t");
			assertThat(pipeline.status().tables()).filteredOn((t) -> t.name().equals(src + ".t_burst"))
				.extracting((t) -> t.lastAction().detail()).first().asString().contains("appeared on the source");
			replication.onSource("UPDATE t_burst SET status = 'late' WHERE id % 7 = 0", "DELETE FROM t_select WHERE id > 480",
					"INSERT INTO t_like SELECT * FROM t_1 WHERE id > 490");
			pipeline.awaitCaughtUp();
			for (String table : List.of("t_1", "t_burst", "t_like", "t_select", "t_renamed", "t_staged")) {
				assertCopied(replication, table, table);
			}
			assertThat(replication.queryString("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
					+ dst + "' AND TABLE_NAME = 'not_taken'")).isEqualTo("0");

			// Dropped while the others stream: it stops as dropped and keeps its target; created again, it is copied.
			replication.onSource("DROP TABLE t_select", "UPDATE t_1 SET status = 'after drop' WHERE id <= 10");
			Await.until("t_select dropped", Replication.WAIT, () -> phaseOf(pipeline, src + ".t_select") == Phase.DROPPED);
			pipeline.awaitCaughtUp();
			assertCopied(replication, "t_1", "t_1");
			assertThat(replication.countInTarget("t_select")).as("the dropped table's target, kept").isEqualTo(380);
			replication.onSource("CREATE TABLE t_select LIKE t_1", "INSERT INTO t_select SELECT * FROM t_1 WHERE id <= 30");
			Await.until("t_select copied again", Replication.WAIT,
					() -> phaseOf(pipeline, src + ".t_select") == Phase.STREAMING);
			pipeline.awaitCaughtUp();
			assertCopied(replication, "t_select", "t_select");
		}
	}

	private static Phase phaseOf(RunningPipeline pipeline, String table) {
		return pipeline.status().tables().stream().filter((t) -> t.name().equals(table)).findFirst()
			.map(TableStatus::phase).orElse(null);
	}

	@Test
	void aPatternInListenerModeHandsEachTableItTakesToTheListener(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "plisten");
		String src = replication.source();
		Workload.createOrdersTable(replication.sourcePool(), src + ".l_1", 300);
		Workload.createOrdersTable(replication.sourcePool(), src + ".l_2", 200);
		Map<String, Map<Object, Object[]>> received = new ConcurrentHashMap<>();
		ChangeListener listener = (batch) -> {
			Map<Object, Object[]> rows = received.computeIfAbsent(batch.table().toString(), (t) -> new ConcurrentHashMap<>());
			int id = batch.columns().indexOf("id");
			batch.deletedKeys().forEach((key) -> rows.remove(key[0]));
			batch.upserts().forEach((row) -> rows.put(row[id], row));
		};
		TableRule rule = TableRule.toTables("l", TablePattern.parse(src + ".l_*"), List.of(),
				TargetTemplate.parse("{schema}.{table}", null), List.of(), SnapshotMode.AUTO);
		Replication listening = replication.withSettings((s) -> s.toBuilder().tables(List.of()).rules(List.of(rule))
			.listener(listener).build());
		try (RunningPipeline pipeline = listening.start()) {
			awaitEveryTableStreaming(pipeline, 2);
			Workload.createOrdersTable(replication.sourcePool(), src + ".l_3", 100);
			replication.onSource("DELETE FROM l_1 WHERE id <= 50", "UPDATE l_2 SET amount = 0 WHERE id <= 10");
			awaitEveryTableStreaming(pipeline, 3);
			pipeline.awaitCaughtUp();
			assertThat(pipeline.status().tables()).extracting(TableStatus::target)
				.containsExactly("(listener).l_1", "(listener).l_2", "(listener).l_3");
			assertThat(received.get(src + ".l_1")).hasSize(250);
			assertThat(received.get(src + ".l_2")).hasSize(200);
			assertThat(received.get(src + ".l_3")).hasSize(100);
			assertThat(received.get(src + ".l_2").values()).filteredOn((row) -> ((Number) row[0]).longValue() <= 10)
				.hasSize(10).allSatisfy((row) -> assertThat(row).contains(new BigDecimal("0.00")));
		}
		assertThat(replication.queryStrings("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
				+ replication.target() + "'")).as("no target table").containsExactly("tributary_checkpoint");
	}

	@Test
	void rulesThatTakeOneTableTwiceKeepThePipelineFromStarting(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "overlap");
		String src = replication.source();
		String dst = replication.target();
		Workload.createOrdersTable(replication.sourcePool(), src + ".orders_1", 10);
		TableRule all = TableRule.toTables("all", TablePattern.parse(src + ".*"), List.of(),
				TargetTemplate.parse(dst + ".a_{table}", null), List.of(), SnapshotMode.AUTO);
		TableRule orders = TableRule.toTables("orders", TablePattern.parse("regex:" + src + "\\.orders_[0-9]"),
				List.of(), TargetTemplate.parse(dst + ".b_{table}", null), List.of(), SnapshotMode.AUTO);
		Replication overlapping = replication.withSettings((s) -> s.toBuilder().tables(List.of())
			.rules(List.of(all, orders)).build());
		try (RunningPipeline pipeline = overlapping.start()) {
			String error = Await.value("the refusal in the status", Replication.WAIT, () -> pipeline.status().lastError(),
					(text) -> text != null);
			assertThat(error).contains("Table " + src + ".orders_1 is taken by two rules, all (" + src + ".*) and "
					+ "orders (regex:").contains("exclude it from one of them");
			assertThat(pipeline.status().tables()).isEmpty();
		}
	}

	@Test
	void aTableRenamedWithinTheRulesIsFollowedWithoutACopy(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "renamed");
		String src = replication.source();
		String dst = replication.target();
		Workload.createOrdersTable(replication.sourcePool(), src + ".t_old", 800);
		Workload.createOrdersTable(replication.sourcePool(), src + ".t_other", 100);
		Replication renaming = byRule(replication, "t_*", dst + ".copy_{table}", 200);
		try (RunningPipeline pipeline = renaming.start()) {
			awaitEveryTableStreaming(pipeline, 2);
			// A checksum reads the table by its old name: a rename is followed once it is over.
			pipeline.awaitStatus("checksums done", (status) -> status.tables().stream()
				.allMatch((t) -> t.checksum().state() == TableStatus.Checksum.State.DONE), Replication.WAIT);
			// Changes on both sides of the rename, in one burst the reader meets in order.
			replication.onSource("UPDATE t_old SET note = 'before' WHERE id <= 100", "DELETE FROM t_old WHERE id > 780",
					"RENAME TABLE t_old TO t_new", "UPDATE t_new SET note = 'after' WHERE id BETWEEN 50 AND 150",
					"INSERT INTO t_new SELECT id + 5000, customer_id, status, amount, 'new', payload, data, created_at, "
							+ "updated_at FROM t_new WHERE id <= 10",
					"UPDATE t_other SET note = 'still here'");
			pipeline.awaitStatus("t_new followed", (status) -> status.tables().stream()
				.anyMatch((t) -> t.name().equals(src + ".t_new") && t.lastAction() != null
						&& t.lastAction().name().equals("renamed")), Replication.WAIT);
			pipeline.awaitCaughtUp();
			TableStatus followed = pipeline.table("t_new");
			assertThat(followed.phase()).isEqualTo(Phase.STREAMING);
			assertThat(followed.target()).isEqualTo(dst + ".copy_t_new");
			assertThat(followed.rowsCopied()).as("the first copy's rows, none since").isEqualTo(800);
			assertThat(followed.lastAction().detail()).contains("its target renamed to " + dst + ".copy_t_new");
			assertThat(pipeline.status().tables()).extracting(TableStatus::name)
				.containsExactlyInAnyOrder(src + ".t_new", src + ".t_other");
			assertCopied(replication, "t_new", "copy_t_new");
			assertCopied(replication, "t_other", "copy_t_other");
			assertThat(replication.queryString("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
					+ dst + "' AND TABLE_NAME = 'copy_t_old'")).isEqualTo("0");
		}
		// Resumed under its new name at the next start, from its checkpoint.
		replication.onSource("UPDATE t_new SET note = 'resumed' WHERE id <= 5");
		try (RunningPipeline resumed = renaming.start()) {
			awaitEveryTableStreaming(resumed, 2);
			resumed.awaitCaughtUp();
			assertThat(resumed.table("t_new").rowsCopied()).isZero();
			assertCopied(replication, "t_new", "copy_t_new");
		}
	}

	/** Replicates the source tables a pattern (in the source schema) takes, by rule {@code t}, and nothing else. */
	private static Replication byRule(Replication replication, String pattern, String target, int chunkRows) {
		TableRule rule = TableRule.toTables("t", TablePattern.parse(replication.source() + "." + pattern), List.of(),
				TargetTemplate.parse(target, null), List.of(), SnapshotMode.AUTO);
		return replication.withSettings((s) -> s.toBuilder().tables(List.of()).rules(List.of(rule)).build()
			.withChunkRows(chunkRows));
	}

	private static void awaitEveryTableStreaming(RunningPipeline pipeline, int tables) throws Exception {
		pipeline.awaitStatus(tables + " tables streaming", (status) -> status.tables().size() == tables
				&& status.tables().stream().allMatch((table) -> table.phase() == Phase.STREAMING), Replication.WAIT);
	}

	private static void assertCopied(Replication replication, String source, String target) {
		TableComparison.assertEqual(replication.sourcePool(), replication.source() + "." + source, replication.pool(),
				replication.target() + "." + target);
	}

}
