package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.source.SourceSettings;
import io.tributary.source.TableId;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Per-table control under a workload on two tables of one source: one table is paused, resumed,
 * resnapshotted or restarted while the other keeps streaming, and both end equal to the source.
 */
@ExtendWith(DatabaseExtension.class)
class TableControlIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
	}

	@Test
	void aPausedTableFallsBehindWhileTheOtherStreamsAndCatchesUpOnResume() throws Exception {
		Tables t = new Tables("pause");
		try (Pipeline pipeline = t.start(t.settings()); Workloads writes = t.workloads()) {
			pipeline.pause(t.a);
			TableStatus paused = await(pipeline, t.a, (s) -> s.phase() == Phase.PAUSED);
			assertThat(paused.lastAction().name()).isEqualTo("pause");
			assertThatThrownBy(() -> pipeline.pause(t.a)).hasMessageContaining("already paused");
			long appliedAtPause = paused.changesApplied();
			long otherApplied = status(pipeline, t.b).changesApplied();
			await(pipeline, t.b, (s) -> s.changesApplied() > otherApplied + 300);
			assertThat(status(pipeline, t.a).changesApplied()).isEqualTo(appliedAtPause);
			assertThat(status(pipeline, t.a).bufferedKeys()).isZero();
			pipeline.resume(t.a);
			await(pipeline, t.a, (s) -> s.changesApplied() > appliedAtPause && s.phase() == Phase.STREAMING);
			assertThat(status(pipeline, t.a).lastAction().name()).isEqualTo("resume");
			writes.stop();
			t.assertConverged(pipeline);
		}
	}

	@Test
	void aPausedTableWithMoreChangesThanItsSoftLimitDoesNotStallTheOtherTable() throws Exception {
		Tables t = new Tables("softpause");
		PipelineSettings settings = t.settings().withBufferSoftLimitBytes(64 * 1024);
		try (Pipeline pipeline = t.start(settings)) {
			pipeline.pause(t.a);
			await(pipeline, t.a, (s) -> s.phase() == Phase.PAUSED);
			// About 4 MB of row images for the paused table, 60 times its soft limit.
			t.execute("UPDATE " + t.source(t.a) + " SET note = REPEAT('x', 200)");
			t.execute("UPDATE " + t.source(t.a) + " SET note = REPEAT('y', 200)");
			t.execute("UPDATE " + t.source(t.b) + " SET note = 'after the paused table''s backlog' WHERE id <= 50");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			TableComparison.assertEqual(t.pool, t.source(t.b), t.pool, t.target(t.b));
			assertThat(status(pipeline, t.a).parkEvents()).isZero();
			assertThat(status(pipeline, t.b).parkEvents()).isZero();
			pipeline.resume(t.a);
			t.assertConverged(pipeline);
		}
	}

	@Test
	void resnapshotCopiesATableAgainWhileTheOtherStreamsAndRemovesRowsDeletedMeanwhile() throws Exception {
		Tables t = new Tables("resnap");
		try (Pipeline pipeline = t.start(t.settings())) {
			pipeline.pause(t.a);
			await(pipeline, t.a, (s) -> s.phase() == Phase.PAUSED);
			t.execute("DELETE FROM " + t.source(t.a) + " WHERE id % 3 = 0");
			// Drift in the target that only a new copy repairs: a row the source never had.
			t.execute("INSERT INTO " + t.target(t.a) + " SELECT id + 10000000, customer_id, status, amount, note, "
					+ "payload, data, created_at, updated_at FROM " + t.target(t.a) + " LIMIT 1");
			try (Workloads writes = t.workloads()) {
				pipeline.resnapshot(t.a);
				assertThat(status(pipeline, t.a).lastAction().name()).isEqualTo("resnapshot");
				long otherApplied = status(pipeline, t.b).changesApplied();
				await(pipeline, t.a, (s) -> s.phase() == Phase.STREAMING);
				await(pipeline, t.b, (s) -> s.changesApplied() > otherApplied);
				writes.stop();
			}
			t.assertConverged(pipeline);
			assertThat(status(pipeline, t.a).rowsCopied()).isPositive();
		}
	}

	@Test
	void aTableWhoseTargetRefusesItsRowsFailsAloneAndRestartsOnceFixed() throws Exception {
		Tables t = new Tables("failrestart");
		// Short enough for the narrowed target column below, which new values then overflow.
		t.execute("UPDATE " + t.source(t.a) + " SET note = NULL");
		try (Pipeline pipeline = t.start(t.settings())) {
			t.execute("ALTER TABLE " + t.target(t.a) + " MODIFY note VARCHAR(5)");
			t.execute("UPDATE " + t.source(t.a) + " SET note = 'longer than five' WHERE id <= 10");
			TableStatus failed = await(pipeline, t.a, (s) -> s.phase() == Phase.FAILED);
			assertThat(failed.lastError()).contains("wide enough").contains("restart the table");
			assertThatThrownBy(() -> pipeline.resume(t.a)).hasMessageContaining("not paused");
			t.execute("UPDATE " + t.source(t.b) + " SET note = 'still streaming' WHERE id <= 10");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			TableComparison.assertEqual(t.pool, t.source(t.b), t.pool, t.target(t.b));
			assertThat(pipeline.status().state()).isEqualTo(PipelineStatus.State.RUNNING);

			t.execute("ALTER TABLE " + t.target(t.a) + " MODIFY note VARCHAR(200)");
			try (Workloads writes = t.workloads()) {
				pipeline.restart(t.a);
				await(pipeline, t.a, (s) -> s.phase() == Phase.STREAMING);
				assertThat(status(pipeline, t.a).lastAction().name()).isEqualTo("restart");
				writes.stop();
			}
			t.assertConverged(pipeline);
		}
	}

	@Test
	void aDroppedTargetTableFailsItsTableAloneAndRestartCopiesItAgain() throws Exception {
		Tables t = new Tables("droprestart");
		try (Pipeline pipeline = t.start(t.settings())) {
			t.execute("DROP TABLE " + t.target(t.a));
			t.execute("UPDATE " + t.source(t.a) + " SET note = 'after the drop' WHERE id <= 10");
			TableStatus failed = await(pipeline, t.a, (s) -> s.phase() == Phase.FAILED);
			assertThat(failed.lastError()).contains("target table is missing");
			assertThat(status(pipeline, t.b).phase()).isEqualTo(Phase.STREAMING);
			pipeline.restart(t.a);
			await(pipeline, t.a, (s) -> s.phase() == Phase.STREAMING);
			t.assertConverged(pipeline);
		}
	}

	@Test
	void actionsThatMakeNoSenseAreRefusedWithTheReason() throws Exception {
		Tables t = new Tables("refused");
		try (Pipeline pipeline = t.start(t.settings())) {
			TableId unknown = new TableId(t.src, "nowhere");
			assertThatThrownBy(() -> pipeline.pause(unknown)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("not in cdc.tables");
			assertThatThrownBy(() -> pipeline.resume(t.a)).hasMessageContaining("not paused");
			assertThatThrownBy(() -> pipeline.restart(t.a)).hasMessageContaining("only a failed table");
		}
	}

	private static TableStatus status(Pipeline pipeline, TableId table) {
		return pipeline.status().tables().stream().filter((s) -> s.name().equals(table.toString())).findFirst()
			.orElseThrow();
	}

	private static TableStatus await(Pipeline pipeline, TableId table, Predicate<TableStatus> condition)
			throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
		while (true) {
			TableStatus status = status(pipeline, table);
			if (condition.test(status)) {
				return status;
			}
			assertThat(System.nanoTime()).as("condition on %s not reached; status %s", table, pipeline.status())
				.isLessThan(deadline);
			Thread.sleep(50);
		}
	}

	/** Workloads on both tables, stopped on close. */
	private record Workloads(Workload a, Workload b) implements AutoCloseable {

		void stop() {
			this.a.stop();
			this.b.stop();
		}

		@Override
		public void close() {
			stop();
		}

	}

	/** Two source tables of 5,000 orders each and their targets. */
	private static final class Tables {

		final String src;

		final String dst;

		final TableId a;

		final TableId b;

		final DataSource pool = db.dataSource(null);

		Tables(String name) {
			this.src = db.schema(name + "_src");
			this.dst = db.schema(name + "_dst");
			this.a = new TableId(this.src, "orders_a");
			this.b = new TableId(this.src, "orders_b");
			Workload.createOrdersTable(this.pool, source(this.a), 5_000);
			Workload.createOrdersTable(this.pool, source(this.b), 5_000);
		}

		String source(TableId table) {
			return this.src + "." + table.table();
		}

		String target(TableId table) {
			return this.dst + "." + table.table();
		}

		PipelineSettings settings() {
			SourceSettings source = new SourceSettings(db.server().host(), db.server().port(), db.server().username(),
					db.server().password(), 10_000 + ThreadLocalRandom.current().nextInt(1_000_000),
					Duration.ofSeconds(10), Duration.ofSeconds(1));
			return PipelineSettings
				.of(source,
						List.of(new TableMapping(this.a, new TableId(this.dst, "orders_a")),
								new TableMapping(this.b, new TableId(this.dst, "orders_b"))),
						new TableId(this.dst, "tributary_checkpoint"))
				.withChunkRows(1_000)
				.withChecksum(ChecksumSettings.DEFAULTS.withFixDifferences(false));
		}

		Pipeline start(PipelineSettings settings) throws Exception {
			Pipeline pipeline = new Pipeline(settings, this.pool, this.pool);
			pipeline.start();
			await(pipeline, this.a, (s) -> s.phase() == Phase.STREAMING);
			await(pipeline, this.b, (s) -> s.phase() == Phase.STREAMING);
			return pipeline;
		}

		Workloads workloads() {
			Workload first = Workload.builder(this.pool, source(this.a)).threads(1).ratePerSecond(300)
				.mix(3, 5, 2, 1).seed(11).build();
			Workload second = Workload.builder(this.pool, source(this.b)).threads(1).ratePerSecond(300)
				.mix(3, 5, 2, 1).seed(12).build();
			first.start();
			second.start();
			return new Workloads(first, second);
		}

		void execute(String sql) throws SQLException {
			try (Connection connection = this.pool.getConnection(); Statement statement = connection.createStatement()) {
				statement.execute(sql);
			}
		}

		void assertConverged(Pipeline pipeline) throws Exception {
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			TableComparison.assertEqual(this.pool, source(this.a), this.pool, target(this.a));
			TableComparison.assertEqual(this.pool, source(this.b), this.pool, target(this.b));
		}

	}

}
