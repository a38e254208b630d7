package io.tributary.apply;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The race REPLACE exists for: rows that trade a UNIQUE value in one source transaction arrive in
 * one drain, in no particular order, and may be written by different statements running at the
 * same time. Whatever the interleaving, the target must end up in the final state.
 *
 * <p>Pairs with an even number exchange two values; odd pairs move a value from one row to the
 * other, which held NULL.
 */
@ExtendWith(DatabaseExtension.class)
class UniqueSwapConvergenceIT {

	private static final int PAIRS = 50;

	private static final String DDL = " (id INT PRIMARY KEY, slot INT NULL, note VARCHAR(20) NOT NULL, "
			+ "UNIQUE KEY uk_slot (slot))";

	private static TestDatabase db;

	private static String schema;

	private static DataSource pool;

	private static ApplyWorkers workers;

	@BeforeAll
	static void tables(TestDatabase database) {
		db = database;
		schema = database.schema("swap");
		pool = database.dataSource(schema);
		db.server().execute(schema, "CREATE TABLE before_swap" + DDL, "CREATE TABLE after_swap" + DDL,
				"INSERT INTO before_swap VALUES " + values(state(false)),
				"INSERT INTO after_swap VALUES " + values(state(true)));
		workers = new ApplyWorkers("swap-it", 4);
	}

	@AfterAll
	static void stopWorkers() {
		if (workers != null) {
			workers.close();
		}
	}

	@Test
	void swapsInOneStatementConvergeInAnyOrder() throws Exception {
		ParallelApplier applier = applier("one_statement", 1000);
		for (int round = 0; round < 6; round++) {
			applier.upsert(shuffled(state(round % 2 == 0), round));
			TableComparison.assertEqual(pool, schema + ".one_statement", pool,
					schema + (round % 2 == 0 ? ".after_swap" : ".before_swap"));
		}
		assertThat(applier.counters().batchesApplied()).isEqualTo(6);
	}

	@Test
	void swapsSplitAcrossConcurrentStatementsConverge() throws Exception {
		ParallelApplier applier = applier("split", 4);
		List<List<Object[]>> batches = applier.planUpserts(shuffled(state(true), 99)).batches();
		assertThat(batches).hasSizeGreaterThan(8);
		assertThat(splitPairs(batches, 0)).as("exchanging pairs split across statements").isPositive();
		assertThat(splitPairs(batches, 1)).as("moving pairs split across statements").isPositive();

		for (int round = 0; round < 10; round++) {
			applier.upsert(shuffled(state(round % 2 == 0), round));
			TableComparison.assertEqual(pool, schema + ".split", pool,
					schema + (round % 2 == 0 ? ".after_swap" : ".before_swap"));
		}
		ApplierCounters counters = applier.counters();
		assertThat(counters.rowsUpserted()).isEqualTo(10L * 2 * PAIRS);
		assertThat(counters.batchesFailed()).isZero();
	}

	@Test
	void swapsConvergeWhenEveryRowIsItsOwnStatement() throws Exception {
		ParallelApplier applier = applier("single_rows", 1);
		for (int round = 0; round < 4; round++) {
			applier.upsert(shuffled(state(round % 2 == 0), 1000 + round));
			TableComparison.assertEqual(pool, schema + ".single_rows", pool,
					schema + (round % 2 == 0 ? ".after_swap" : ".before_swap"));
		}
	}

	@Test
	void swapsConvergeWhenStatementsIgnoreTheUniqueIndex() throws Exception {
		ParallelApplier sorted = applier("unsorted", 2);
		ParallelApplier applier = ParallelApplier.create(statements("unsorted", 2), workers, 4,
				ParallelApplier.DEFAULT_MAX_RETRIES, ParallelApplier.DEFAULT_GROW_AFTER, List.of());
		assertThat(sorted.planUpserts(state(true)).index()).isNotNull();
		assertThat(applier.planUpserts(state(true)).index()).isNull();
		for (int round = 0; round < 10; round++) {
			applier.upsert(shuffled(state(round % 2 == 0), 2000 + round));
			TableComparison.assertEqual(pool, schema + ".unsorted", pool,
					schema + (round % 2 == 0 ? ".after_swap" : ".before_swap"));
		}
		assertThat(applier.counters().batchesFailed()).isZero();
	}

	/** Creates the target in the state before the swaps and an applier cutting statements of {@code rows}. */
	private static ParallelApplier applier(String table, int rows) throws Exception {
		db.server().execute(schema, "CREATE TABLE " + table + DDL, "INSERT INTO " + table + " SELECT * FROM before_swap");
		return ParallelApplier.create(statements(table, rows), workers, 4);
	}

	private static JdbcReplaceApplier statements(String table, int rows) throws Exception {
		TableId id = new TableId(schema, table);
		TableLayout layout;
		try (Connection connection = pool.getConnection()) {
			layout = LayoutReader.read(connection, id);
		}
		return new JdbcReplaceApplier(pool, id, layout, rows, 1 << 20);
	}

	/** Returns every row, before or after the swaps, as row images {id, slot, note}. */
	private static List<Object[]> state(boolean swapped) {
		List<Object[]> rows = new ArrayList<>();
		for (int pair = 0; pair < PAIRS; pair++) {
			long first = 2L * pair + 1;
			long second = first + 1;
			Long slotA = 10L * pair + 1;
			Long slotB = (pair % 2 == 0) ? Long.valueOf(10L * pair + 2) : null;
			rows.add(new Object[] { first, swapped ? slotB : slotA, "row " + first });
			rows.add(new Object[] { second, swapped ? slotA : slotB, "row " + second });
		}
		return rows;
	}

	/** Counts the pairs of a parity (0: exchanging, 1: moving) whose rows are in different batches. */
	private static int splitPairs(List<List<Object[]>> batches, int parity) {
		Map<Long, Integer> batchOfId = new HashMap<>();
		for (int i = 0; i < batches.size(); i++) {
			for (Object[] row : batches.get(i)) {
				batchOfId.put((Long) row[0], i);
			}
		}
		int split = 0;
		for (int pair = parity; pair < PAIRS; pair += 2) {
			long first = 2L * pair + 1;
			if (!batchOfId.get(first).equals(batchOfId.get(first + 1))) {
				split++;
			}
		}
		return split;
	}

	private static List<Object[]> shuffled(List<Object[]> rows, long seed) {
		List<Object[]> copy = new ArrayList<>(rows);
		Collections.shuffle(copy, new Random(seed));
		return copy;
	}

	private static String values(List<Object[]> rows) {
		return rows.stream()
			.map((row) -> "(" + row[0] + ", " + row[1] + ", '" + row[2] + "')")
			.collect(Collectors.joining(", "));
	}

}
