package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.LiveHeapSampler;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pipeline's buffer budget through the whole pipeline: a backlog of 1 MB rows spread over 40
 * tables, each far under its own soft limit, is read with a budget of 8 MB for all of them. The
 * reader parks at the budget, the bytes all tables hold together stay under it, the heap the
 * pipeline holds stays below the budget plus 64 MB (sampled by {@link LiveHeapSampler}, as in
 * {@code SoftLimitIT}), and every table converges.
 */
@ExtendWith(DatabaseExtension.class)
class BufferBudgetIT {

	private static final Logger logger = LoggerFactory.getLogger(BufferBudgetIT.class);

	private static final long MB = 1024 * 1024;

	private static final long BUDGET = 8 * MB;

	private static final int TABLES = 40;

	private static final int ROWS_PER_TABLE = 4;

	@Test
	void backlogAcrossFortyTablesParksTheReaderAtTheBudgetAndKeepsHeapBelowBudgetPlus64Megabytes(TestDatabase db)
			throws Exception {
		List<String> tables = IntStream.rangeClosed(1, TABLES).mapToObj((i) -> String.format("t%02d", i)).toList();
		Replication replication = Replication.of(db, "budget")
			.replicating(tables.toArray(String[]::new))
			.withSettings((s) -> s.withBufferSoftLimitBytes(64 * MB).withBufferBudgetBytes(BUDGET));
		for (String table : tables) {
			replication.onSource("CREATE TABLE " + table + " (id INT PRIMARY KEY, data LONGBLOB NOT NULL)");
		}
		// A first run copies the empty tables and leaves checkpoints: the rows below are read as a backlog.
		replication.startStreaming(Duration.ofMinutes(2)).close();
		for (int row = 1; row <= ROWS_PER_TABLE; row++) {
			for (String table : tables) {
				replication.onSource("INSERT INTO " + table + " VALUES (" + row + ", REPEAT(CHAR(" + (65 + row % 26)
						+ "), " + MB + "))");
			}
		}
		try (LiveHeapSampler heap = new LiveHeapSampler(Duration.ofMillis(10));
				RunningPipeline second = replication.start()) {
			AtomicLong mostHeld = new AtomicLong();
			// Polled every 5 ms: the peak of the bytes held is what is measured.
			PipelineStatus done = Await.value("every row applied", Duration.ofMinutes(3), Duration.ofMillis(5),
					second::status, (status) -> {
						mostHeld.accumulateAndGet(status.buffers().heldBytes(), Math::max);
						return status.tables().stream().allMatch((table) -> table.changesApplied() >= ROWS_PER_TABLE);
					});
			second.awaitCaughtUp(Duration.ofMinutes(2));
			long peak = heap.peakAboveBaseline();
			long budgetParks = done.tables().stream().mapToLong(TableStatus::budgetParkEvents).sum();
			long mostPerTable = done.tables().stream().mapToLong(TableStatus::parkEvents).max().orElse(0);
			logger.info("Budget {} MB over {} tables, {} rows of 1 MB: {} park(s) at the budget ({} counted by the "
					+ "tables), {} ms parked, most held seen {} MB, heap kept above baseline at most {} MB over {} "
					+ "sample(s)", BUDGET / MB, TABLES, TABLES * ROWS_PER_TABLE, done.buffers().parkEvents(),
					budgetParks, done.buffers().parkedMillis(), mostHeld.get() / MB, peak / MB, heap.samples());
			assertThat(done.buffers().budgetBytes()).isEqualTo(BUDGET);
			assertThat(done.buffers().parkEvents()).as("the reader waited for room under the budget").isPositive();
			assertThat(budgetParks).as("parks the tables count at the budget").isEqualTo(done.buffers().parkEvents());
			assertThat(mostPerTable).as("every park of a table was at the budget, not its soft limit")
				.isLessThanOrEqualTo(budgetParks);
			assertThat(mostHeld.get()).as("bytes held by all tables together").isLessThan(BUDGET + 2 * MB);
			assertThat(heap.samples()).as("heap samples taken").isPositive();
			assertThat(peak).as("heap kept above baseline").isLessThan(BUDGET + 64 * MB);
			for (String table : tables) {
				replication.assertEqual(table);
			}
			assertThat(second.status().buffers().heldBytes()).as("held once caught up").isZero();
		}
	}

}
