package io.tributary.pipeline;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.name.TablePattern;
import io.tributary.name.TargetTemplate;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sixteen shards with equal keys merged into one target table, each in its slice (the rows whose
 * {@code shard} column names it), while writes race their copies; a resnapshot and a TRUNCATE of
 * one shard touch its slice only; a shard whose layout differs is refused alone, naming the column.
 */
@ExtendWith(DatabaseExtension.class)
class MergedShardsIT {

	private static final String ROW = "CONCAT_WS('|', id, customer_id, status, amount, note, code, MD5(payload), "
			+ "MD5(data), created_at, updated_at)";

	@Test
	void sixteenShardsMergeIntoOneTargetAndEachIsCopiedResnapshottedAndTruncatedInItsSlice(TestDatabase db)
			throws Exception {
		Replication replication = Replication.of(db, "shards");
		String src = replication.source();
		List<String> shards = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			String shard = String.format("orders_%02d", i);
			shards.add(shard);
			// Equal keys in every shard, and a unique column whose values repeat from shard to shard.
			Workload.createOrdersTable(replication.sourcePool(), src + "." + shard, 400);
			replication.onSource("ALTER TABLE " + shard + " ADD COLUMN code VARCHAR(20) NULL, ADD UNIQUE KEY uk_code (code)",
					"UPDATE " + shard + " SET code = CONCAT('c', id), note = CONCAT('" + shard + " ', id)");
		}
		Replication merged = merging(replication);
		List<Workload> writers = new ArrayList<>();
		for (String shard : List.of("orders_00", "orders_07", "orders_15")) {
			writers.add(replication.workload(shard).threads(1).ratePerSecond(150).seed(shard.hashCode()).build());
		}
		try (RunningPipeline pipeline = merged.start()) {
			writers.forEach(Workload::start);
			awaitStreaming(pipeline, 16);
			writers.forEach(Workload::stop);
			pipeline.awaitCaughtUp();
			assertThat(pipeline.status().tables()).extracting(TableStatus::target).containsOnly(replication.target()
					+ ".orders");
			for (String shard : shards) {
				assertSliceEqual(replication, shard);
			}
			assertThat(pipeline.status().tables()).allSatisfy((t) -> assertThat(t.checksum().chunksRecheckedStillDiffering())
				.as(t.name()).isZero());

			// Drift in two slices; a resnapshot of one repairs that one and leaves the other alone.
			String target = replication.targetTable("orders");
			replication.onTarget("DELETE FROM " + target + " WHERE shard = 'orders_03' AND id <= 5",
					"INSERT INTO " + target + " (id, customer_id, status, amount, created_at, shard) "
							+ "VALUES (9999999, 1, 'drift', 1, NOW(), 'orders_03'), "
							+ "(9999999, 1, 'drift', 1, NOW(), 'orders_04')");
			replication.onSource("UPDATE orders_03 SET status = 'moved' WHERE id % 5 = 0");
			pipeline.pipeline().resnapshot(new TableId(src, "orders_03"));
			pipeline.awaitTable("orders_03", (t) -> t.phase() == Phase.STREAMING && t.lastAction() != null);
			pipeline.awaitCaughtUp();
			assertSliceEqual(replication, "orders_03");
			assertThat(replication.queryString("SELECT COUNT(*) FROM " + target + " WHERE id = 9999999"))
				.as("the other slice's drift is left to it").isEqualTo("1");

			// A TRUNCATE of one shard empties its slice only.
			replication.onSource("TRUNCATE TABLE orders_05", "INSERT INTO orders_05 SELECT * FROM orders_06 WHERE id <= 3");
			pipeline.awaitCaughtUp();
			assertSliceEqual(replication, "orders_05");
			assertSliceEqual(replication, "orders_06");
			assertThat(replication.queryString("SELECT COUNT(*) FROM " + target)).isEqualTo(String.valueOf(
					16 * 400L - 400 + 3 + 1 + countsAdded(replication, shards)));
		}
	}

	@Test
	void aShardWhoseLayoutDiffersIsRefusedAloneNamingTheColumn(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "shardlayout");
		String src = replication.source();
		for (String shard : List.of("orders_00", "orders_01", "orders_02")) {
			Workload.createOrdersTable(replication.sourcePool(), src + "." + shard, 50);
		}
		replication.onSource("ALTER TABLE orders_02 ADD COLUMN region CHAR(2) NULL AFTER status");
		try (RunningPipeline pipeline = merging(replication).start()) {
			awaitStreaming(pipeline, 3, 2);
			TableStatus refused = pipeline.table("orders_02");
			assertThat(refused.phase()).isEqualTo(Phase.FAILED);
			assertThat(refused.lastError()).contains("column region char(2) (column 4) is in the source");
			assertSliceEqual(replication, "orders_00");
			assertSliceEqual(replication, "orders_01");
		}
	}

	private static Replication merging(Replication replication) {
		TableRule shards = TableRule.toTables("shards", TablePattern.parse(replication.source() + ".orders_*"), List.of(),
				TargetTemplate.parse(replication.target() + ".orders", null), List.of(), SnapshotMode.AUTO)
			.merging("shard", ShardValue.TABLE);
		return replication.withSettings((s) -> s.toBuilder().tables(List.of()).rules(List.of(shards)).build()
			.withChunkRows(100));
	}

	private static void awaitStreaming(RunningPipeline pipeline, int tables) throws Exception {
		awaitStreaming(pipeline, tables, tables);
	}

	private static void awaitStreaming(RunningPipeline pipeline, int tables, int streaming) throws Exception {
		pipeline.awaitStatus(streaming + " of " + tables + " tables streaming, the others failed",
				(status) -> status.tables().size() == tables
						&& status.tables().stream().filter((table) -> table.phase() == Phase.STREAMING).count() == streaming
						&& status.tables().stream().allMatch((t) -> t.phase() == Phase.STREAMING || t.phase() == Phase.FAILED),
				Replication.WAIT);
	}

	private static void assertSliceEqual(Replication replication, String shard) throws Exception {
		String row = hasCode(replication, shard) ? ROW : ROW.replace(", code", ", NULL");
		List<String> source = replication.queryStrings("SELECT " + row + " FROM " + replication.sourceTable(shard)
				+ " ORDER BY id");
		List<String> slice = replication.queryStrings("SELECT " + row + " FROM " + replication.targetTable("orders")
				+ " WHERE shard = '" + shard + "' ORDER BY id");
		assertThat(slice).as("the slice of " + shard).isEqualTo(source);
	}

	private static boolean hasCode(Replication replication, String shard) throws Exception {
		return !"0".equals(replication.queryString("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '"
				+ replication.source() + "' AND TABLE_NAME = '" + shard + "' AND COLUMN_NAME = 'code'"));
	}

	/** Rows the writers added beyond the 400 of each shard they wrote to, counted on the source. */
	private static long countsAdded(Replication replication, List<String> shards) throws Exception {
		long added = 0;
		for (String shard : shards) {
			if (!shard.equals("orders_05")) {
				added += replication.countInSource(shard) - 400;
			}
		}
		return added;
	}

}
