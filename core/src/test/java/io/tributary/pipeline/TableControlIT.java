package io.tributary.pipeline;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableDetail;
import io.tributary.status.TableEvent;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
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

	@Test
	void aPausedTableFallsBehindWhileTheOtherStreamsAndCatchesUpOnResume(TestDatabase db) throws Exception {
		Replication replication = twoTables(db, "pause");
		try (RunningPipeline running = streaming(replication); Writes writes = new Writes(replication)) {
			running.pipeline().pause(id(replication, "a"), "alice");
			TableStatus paused = running.awaitTable("a", (t) -> t.phase() == Phase.PAUSED);
			assertThat(paused.lastAction().name()).isEqualTo("pause");
			assertThatThrownBy(() -> running.pipeline().pause(id(replication, "a"))).hasMessageContaining("already paused");
			long otherApplied = running.table("b").changesApplied();
			running.awaitTable("b", (t) -> t.changesApplied() > otherApplied + 300);
			assertThat(running.table("a").changesApplied()).isEqualTo(paused.changesApplied());
			assertThat(running.table("a").bufferedKeys()).isZero();
			running.pipeline().resume(id(replication, "a"), "bob");
			running.awaitTable("a", (t) -> t.changesApplied() > paused.changesApplied() && t.phase() == Phase.STREAMING);
			assertThat(running.table("a").lastAction().name()).isEqualTo("resume");
			// The timeline tells the story in order: each action as asked, then the phase it led to.
			List<TableEvent> timeline = running.pipeline().detail(id(replication, "a")).timeline();
			assertThat(timeline).extracting((e) -> e.kind() + " " + e.message().replaceAll(":.*", "") + " " + e.by())
				.containsSubsequence("PHASE CATCHING_UP to STREAMING null", "ACTION pause alice",
						"PHASE STREAMING to PAUSED null", "ACTION resume bob", "PHASE PAUSED to CATCHING_UP null",
						"PHASE CATCHING_UP to STREAMING null");
			assertThat(running.pipeline().detail(id(replication, "b")).timeline())
				.noneMatch((e) -> e.kind() == TableEvent.Kind.ACTION);
			writes.stop();
			assertConverged(replication, running);
		}
	}

	@Test
	void aPausedTableWithMoreChangesThanItsSoftLimitDoesNotStallTheOtherTable(TestDatabase db) throws Exception {
		Replication replication = twoTables(db, "softpause").withSettings((s) -> s.withBufferSoftLimitBytes(64 * 1024));
		try (RunningPipeline running = streaming(replication)) {
			running.pipeline().pause(id(replication, "a"));
			running.awaitTable("a", (t) -> t.phase() == Phase.PAUSED);
			// About 4 MB of row images for the paused table, 60 times its soft limit.
			replication.onSource("UPDATE a SET note = REPEAT('x', 200)", "UPDATE a SET note = REPEAT('y', 200)",
					"UPDATE b SET note = 'after the paused table''s backlog' WHERE id <= 50");
			running.awaitCaughtUp();
			replication.assertEqual("b");
			assertThat(running.table("a").parkEvents()).isZero();
			assertThat(running.table("b").parkEvents()).isZero();
			running.pipeline().resume(id(replication, "a"));
			assertConverged(replication, running);
		}
	}

	@Test
	void resnapshotCopiesATableAgainWhileTheOtherStreamsAndRemovesRowsDeletedMeanwhile(TestDatabase db)
			throws Exception {
		Replication replication = twoTables(db, "resnap");
		try (RunningPipeline running = streaming(replication)) {
			running.pipeline().pause(id(replication, "a"));
			running.awaitTable("a", (t) -> t.phase() == Phase.PAUSED);
			replication.onSource("DELETE FROM a WHERE id % 3 = 0");
			// Drift in the target that only a new copy repairs: a row the source never had.
			replication.onTarget("INSERT INTO a SELECT id + 10000000, customer_id, status, amount, note, payload, data, "
					+ "created_at, updated_at FROM a LIMIT 1");
			try (Writes writes = new Writes(replication)) {
				running.pipeline().resnapshot(id(replication, "a"));
				assertThat(running.table("a").lastAction().name()).isEqualTo("resnapshot");
				long otherApplied = running.table("b").changesApplied();
				running.awaitTable("a", (t) -> t.phase() == Phase.STREAMING);
				running.awaitTable("b", (t) -> t.changesApplied() > otherApplied);
				writes.stop();
			}
			assertConverged(replication, running);
			assertThat(running.table("a").rowsCopied()).isPositive();
		}
	}

	@Test
	void aTableWhoseTargetRefusesItsRowsFailsAloneAndRestartsOnceFixed(TestDatabase db) throws Exception {
		Replication replication = twoTables(db, "failrestart");
		// Short enough for the narrowed target column below, which new values then overflow.
		replication.onSource("UPDATE a SET note = NULL");
		try (RunningPipeline running = streaming(replication)) {
			replication.onTarget("ALTER TABLE a MODIFY note VARCHAR(5)");
			replication.onSource("UPDATE a SET note = 'longer than five' WHERE id <= 10",
					"UPDATE b SET note = 'still streaming' WHERE id <= 10");
			TableStatus failed = running.awaitTable("a", (t) -> t.phase() == Phase.FAILED);
			assertThat(failed.lastError()).contains("wide enough").contains("restart the table");
			TableDetail detail = running.pipeline().detail(id(replication, "a"));
			assertThat(detail.timeline()).anyMatch((e) -> e.kind() == TableEvent.Kind.FLUSH_FAILED)
				.anyMatch((e) -> e.message().startsWith("STREAMING to FAILED: ") && e.message().contains("wide enough"));
			assertThat(detail.columns()).extracting(TableDetail.ColumnInfo::name).startsWith("id");
			assertThat(detail.keyColumns()).containsExactly("id");
			assertThat(detail.checkpoint()).isNotNull();
			assertThat(detail.checkpoint().snapshotDone()).isTrue();
			assertThatThrownBy(() -> running.pipeline().resume(id(replication, "a"))).hasMessageContaining("not paused");
			running.awaitCaughtUp();
			replication.assertEqual("b");
			assertThat(running.status().state()).isEqualTo(PipelineStatus.State.RUNNING);

			replication.onTarget("ALTER TABLE a MODIFY note VARCHAR(200)");
			try (Writes writes = new Writes(replication)) {
				running.pipeline().restart(id(replication, "a"));
				running.awaitTable("a", (t) -> t.phase() == Phase.STREAMING);
				assertThat(running.table("a").lastAction().name()).isEqualTo("restart");
				writes.stop();
			}
			assertConverged(replication, running);
		}
	}

	@Test
	void aDroppedTargetTableFailsItsTableAloneAndRestartCopiesItAgain(TestDatabase db) throws Exception {
		Replication replication = twoTables(db, "droprestart");
		try (RunningPipeline running = streaming(replication)) {
			replication.onTarget("DROP TABLE a");
			replication.onSource("UPDATE a SET note = 'after the drop' WHERE id <= 10");
			TableStatus failed = running.awaitTable("a", (t) -> t.phase() == Phase.FAILED);
			assertThat(failed.lastError()).contains("target table is missing");
			assertThat(running.table("b").phase()).isEqualTo(Phase.STREAMING);
			running.pipeline().restart(id(replication, "a"));
			running.awaitTable("a", (t) -> t.phase() == Phase.STREAMING);
			assertConverged(replication, running);
		}
	}

	@Test
	void aTableWhoseSourceLayoutBreaksFailsAloneAndRestartCopiesItOnceTheTargetFollows(TestDatabase db)
			throws Exception {
		Replication replication = twoTables(db, "layoutrestart");
		try (RunningPipeline running = streaming(replication); Writes writes = new Writes(replication)) {
			replication.onSource("ALTER TABLE a MODIFY note VARCHAR(300)");
			TableStatus failed = running.awaitTable("a", (t) -> t.phase() == Phase.FAILED);
			assertThat(failed.lastError()).contains("cannot follow").contains("resnapshot");
			long otherApplied = running.table("b").changesApplied();
			running.awaitTable("b", (t) -> t.changesApplied() > otherApplied + 100);
			replication.onTarget("ALTER TABLE a MODIFY note VARCHAR(300)");
			running.pipeline().restart(id(replication, "a"));
			running.awaitTable("a", (t) -> t.phase() == Phase.STREAMING);
			assertThat(running.table("a").lastAction().detail()).contains("layout had changed");
			writes.stop();
			assertConverged(replication, running);
		}
	}

	@Test
	void actionsThatMakeNoSenseAreRefusedWithTheReason(TestDatabase db) throws Exception {
		Replication replication = twoTables(db, "refused");
		try (RunningPipeline running = streaming(replication)) {
			Pipeline pipeline = running.pipeline();
			assertThatThrownBy(() -> pipeline.pause(id(replication, "nowhere")))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in PipelineSettings.tables");
			assertThatThrownBy(() -> pipeline.resume(id(replication, "a"))).hasMessageContaining("not paused");
			assertThatThrownBy(() -> pipeline.restart(id(replication, "a")))
				.hasMessageContaining("only a failed or dropped table");
		}
	}

	/** Source tables {@code a} and {@code b} of 5,000 orders each, replicated in 1,000-row chunks. */
	private static Replication twoTables(TestDatabase db, String name) {
		Replication replication = Replication.of(db, name).replicating("a", "b")
			.withSettings((s) -> s.withChunkRows(1_000));
		Workload.createOrdersTable(replication.pool(), replication.sourceTable("a"), 5_000);
		Workload.createOrdersTable(replication.pool(), replication.sourceTable("b"), 5_000);
		return replication;
	}

	private static RunningPipeline streaming(Replication replication) throws Exception {
		RunningPipeline running = replication.startStreaming();
		running.awaitTable("b", (t) -> t.phase() == Phase.STREAMING);
		return running;
	}

	private static TableId id(Replication replication, String table) {
		return replication.mapping(table).source();
	}

	private static void assertConverged(Replication replication, RunningPipeline running) throws Exception {
		running.awaitCaughtUp();
		replication.assertEqual("a");
		replication.assertEqual("b");
	}

	/** Inserts, updates, deletes and key moves on both tables, until stopped. */
	private static final class Writes implements AutoCloseable {

		private final Workload a;

		private final Workload b;

		Writes(Replication replication) {
			this.a = replication.workload("a").threads(1).ratePerSecond(300).mix(3, 5, 2, 1).seed(11).build();
			this.b = replication.workload("b").threads(1).ratePerSecond(300).mix(3, 5, 2, 1).seed(12).build();
			this.a.start();
			this.b.start();
		}

		void stop() {
			this.a.stop();
			this.b.stop();
		}

		@Override
		public void close() {
			stop();
		}

	}

}
