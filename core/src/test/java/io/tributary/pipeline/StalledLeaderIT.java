package io.tributary.pipeline;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.Position;
import io.tributary.status.PipelineStatus.State;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leader in a JVM of its own is stopped with SIGSTOP while a workload keeps changing the same few
 * rows. It keeps its connections, and with them the leader lock, but its lease lapses: the standby
 * ends its sessions, takes over and applies newer images of those rows. Continued with SIGCONT, the
 * old leader still has older images buffered, and must write none of them, nor a checkpoint.
 *
 * <p>Triggers on the target table and the checkpoint table record the session of every write that
 * commits; after the takeover, every recorded write must come from a session the new leader wrote
 * with, as its leader row lists them. The old leader must notice and stand by, not fail.
 */
@ExtendWith(DatabaseExtension.class)
class StalledLeaderIT {

	private static final Duration WAIT = Duration.ofMinutes(2);

	@Test
	void aLeaderContinuedAfterATakeoverWritesNothingAndStandsBy(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "stall").replicating("hot")
			.withSettings((s) -> s.withHa(LeaderFailoverIT.HA).withFlushInterval(Duration.ofMillis(50))
				.withCheckpointInterval(Duration.ofMillis(100)));
		Workload.createOrdersTable(replication.pool(), replication.sourceTable("hot"), 20);
		Workload hot = replication.workload("hot").threads(2).ratePerSecond(300).mix(0, 1, 0)
			.transactionSize(4).seed(21).build();
		try (ChildPipeline stalled = ChildPipeline.start(db, replication.settings())) {
			ChildStatus leading = stalled.awaitStatus("leading and streaming",
					(s) -> s.leading() && s.allStreaming(), WAIT);
			long epoch = leading.epoch();
			auditWrites(replication);
			try (ChildPipeline standby = ChildPipeline.start(db, replication.settings())) {
				standby.awaitStatus("standby", (s) -> s.state() == State.STANDBY && s.epoch() == epoch, WAIT);
				hot.start();
				long flushes = stalled.status().table("hot").flushesOk() + 5;
				// Stopped in the middle of applying, with changes read but not yet written.
				stalled.awaitStatus("a flush under way", (s) -> s.flushing() && s.table("hot").flushesOk() >= flushes,
						WAIT);
				stalled.stopProcess();
				long stoppedAt = System.nanoTime();

				ChildStatus took = standby.awaitStatus("leading", ChildStatus::leading, WAIT);
				System.out.printf("Takeover from a stalled leader on %s (lease %d ms): %d ms%n", db.server().flavor(),
						LeaderFailoverIT.HA.lease().toMillis(), (System.nanoTime() - stoppedAt) / 1_000_000);
				assertThat(took.epoch()).isEqualTo(epoch + 1);
				long takenOverAt = Long.parseLong(replication.queryString("SELECT COALESCE(MAX(seq), 0) FROM "
						+ replication.targetTable("audit")));
				long applied = took.table("hot").changesApplied() + 200;
				standby.awaitStatus("newer images applied to the same rows",
						(s) -> s.table("hot").changesApplied() >= applied, WAIT);
				Position checkpoint = replication.checkpoint("hot");

				stalled.continueProcess();
				stalled.awaitStatus("standby again", (s) -> {
					assertThat(s.state()).as("the woken leader's state").isNotEqualTo(State.FAILED);
					return s.state() == State.STANDBY && s.epoch() == epoch + 1 && !s.leader();
				}, WAIT);
				long more = standby.status().table("hot").changesApplied() + 100;
				standby.awaitStatus("applying on", (s) -> s.table("hot").changesApplied() >= more, WAIT);
				hot.stop();
				replication.awaitEqual("hot", WAIT);
				replication.assertEqual("hot");

				List<String> writers = Arrays.asList(replication.queryString("SELECT writer_sessions FROM "
						+ replication.targetTable("tributary_checkpoint_leader") + " WHERE epoch = " + (epoch + 1))
					.split(","));
				assertThat(replication.queryStrings("SELECT CONCAT(seq, ' ', tbl, ' ', op, ' by session ', session) FROM "
						+ replication.targetTable("audit") + " WHERE seq > " + takenOverAt + " AND session NOT IN ("
						+ String.join(",", writers) + ") ORDER BY seq"))
					.as("writes after the takeover by sessions other than the new leader's %s", writers)
					.isEmpty();
				assertThat(replication.queryString("SELECT COUNT(*) FROM " + replication.targetTable("audit")
						+ " WHERE seq > " + takenOverAt + " AND tbl = 'checkpoint'"))
					.as("checkpoints written by the new leader")
					.isNotEqualTo("0");
				assertThat(replication.checkpoint("hot")).as("checkpoint never moved back").isGreaterThanOrEqualTo(
						checkpoint);
				assertThat(Files.readString(stalled.log())).contains("lost leadership at epoch " + epoch);
				assertThat(stalled.isAlive()).isTrue();
			}
		}
		finally {
			try {
				hot.stop();
			}
			catch (RuntimeException ex) {
				// Only on the way out of a run that failed already.
			}
		}
	}

	/**
	 * Records every row write to the target table and the checkpoint table, with its session, in
	 * {@code audit}; the trigger runs in the writer's transaction, so only committed writes stay.
	 */
	private static void auditWrites(Replication replication) {
		String hot = replication.targetTable("hot");
		String checkpoint = replication.targetTable("tributary_checkpoint");
		replication.onTarget("CREATE TABLE audit (seq BIGINT AUTO_INCREMENT PRIMARY KEY, tbl VARCHAR(20) NOT NULL, "
				+ "op VARCHAR(10) NOT NULL, session BIGINT NOT NULL) ENGINE = InnoDB");
		for (String op : new String[] { "INSERT", "UPDATE", "DELETE" }) {
			replication.onTarget(trigger("hot_" + op, hot, op, "hot"),
					trigger("checkpoint_" + op, checkpoint, op, "checkpoint"));
		}
	}

	private static String trigger(String name, String table, String op, String tag) {
		return "CREATE TRIGGER audit_" + name.toLowerCase(Locale.ROOT) + " AFTER " + op + " ON " + table + " FOR EACH ROW "
				+ "INSERT INTO audit (tbl, op, session) VALUES ('" + tag + "', '" + op + "', CONNECTION_ID())";
	}

}
