package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot stopped half-way continues after its last landed chunk on the next start, re-reading
 * almost nothing, and converges with changes made on both sides of the cut while it was stopped.
 * Also the snapshot modes: {@code always} copies again, {@code never} only streams.
 */
@ExtendWith(DatabaseExtension.class)
class ResumeCopyIT {

	private static final int ROWS = 100_000;

	@Test
	void stoppedCopyContinuesAfterItsLastLandedChunk(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "resume").replicating("orders")
			.withSettings((s) -> s.withChunkRows(2_000));
		replication.createOrdersTable(ROWS);
		long firstRun = replication.stopCopyAt(ROWS / 2);
		assertThat(firstRun).isBetween((long) ROWS / 2, (long) ROWS * 3 / 4);

		// Changes while stopped, below and above the cut.
		replication.onSource("UPDATE orders SET amount = amount + 1 WHERE id % 1000 = 7",
				"DELETE FROM orders WHERE id % 997 = 3", "INSERT INTO orders (customer_id, status, amount, created_at) "
						+ "VALUES (1, 'NEW', 1.00, NOW(6)), (2, 'NEW', 2.00, NOW(6))");
		try (RunningPipeline second = replication.startStreaming(Duration.ofMinutes(2))) {
			second.awaitCaughtUp();
			long secondRun = second.table().rowsCopied();
			long reread = firstRun + secondRun - ROWS;
			assertThat(reread).as("rows read again after the restart (first %d, second %d)", firstRun, secondRun)
				.isLessThan(ROWS / 10);
			replication.assertEqual("orders");
		}
	}

	@Test
	void snapshotModesAlwaysAndNever(TestDatabase db) throws Exception {
		Replication base = Replication.of(db, "mode");
		base.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1), (2, 2)");
		try (RunningPipeline pipeline = base.withSettings(snapshot(base, SnapshotMode.NEVER)).startStreaming()) {
			base.onSource("INSERT INTO t VALUES (3, 3)");
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().rowsCopied()).isZero();
			assertThat(pipeline.table().changesApplied()).isEqualTo(1);
		}
		try (RunningPipeline pipeline = base.withSettings(snapshot(base, SnapshotMode.ALWAYS)).startStreaming()) {
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().rowsCopied()).isEqualTo(3);
			base.assertEqual("t");
		}
	}

	private static UnaryOperator<PipelineSettings> snapshot(Replication replication, SnapshotMode mode) {
		TableMapping t = replication.mapping("t");
		return (s) -> s.withTables(List.of(new TableMapping(t.source(), t.target(), List.of(), mode)));
	}

}
