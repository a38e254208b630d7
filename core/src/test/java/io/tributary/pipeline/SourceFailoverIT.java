package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.TestDatabaseServer;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source fails over to its replica: the application is stopped while it streams under a
 * workload, the workload stops, the replica catches up and the primary is shut down, and the
 * application starts again pointed at the replica, the new primary, which takes more writes.
 *
 * <p>With GTIDs (MySQL GTID sets, MariaDB GTID lists) the pipeline resumes on the replica where it
 * stopped on the primary: no snapshot, nothing lost (the target equals the source row by row, the
 * changes the first pipeline never read included) and nothing applied twice (a trigger on the
 * target counts how often each row of an insert-only table was written: once). Without them
 * (MySQL with {@code gtid_mode=OFF}; MariaDB, which always writes GTIDs, with GTID positioning
 * turned off) a binlog file and offset of the primary mean nothing on the replica: the checkpoint
 * is refused with the invalid-checkpoint message, and {@code restart} snapshots the tables again.
 */
@ExtendWith(DatabaseExtension.class)
class SourceFailoverIT {

	private static final Duration WAIT = Replication.WAIT;

	private static final List<String> TABLES = List.of("orders", "ledger");

	@Test
	void promotedReplicaIsFollowedByGtidWithNothingLostNorAppliedTwice(TestDatabase db) throws Exception {
		try (TestDatabaseServer primary = TestDatabaseServer.startDedicated();
				TestDatabaseServer replica = primary.startReplica()) {
			Replication onPrimary = prepare(Replication.of(db, "gtid", primary));
			streamThenStopUnderWorkload(onPrimary);
			failOver(primary, replica);

			Replication onReplica = onPrimary.withSourceServer(replica);
			try (RunningPipeline resumed = onReplica.start()) {
				PipelineStatus status = awaitAllStreaming(resumed);
				assertThat(status.positionsByGtid()).as("resumed by GTID").isTrue();
				writeOnThePromotedReplica(onReplica, resumed);
				for (String table : TABLES) {
					TableStatus after = resumed.table(table);
					assertThat(after.snapshotDone()).isTrue();
					assertThat(after.rowsCopied()).as("rows of %s copied after the failover", table).isZero();
					assertThat(after.chunksCopied()).isZero();
					onReplica.assertEqual(table);
				}
				assertThat(onReplica.countInTarget("ledger")).isEqualTo(onReplica.countInSource("ledger"));
				assertThat(onReplica.queryStrings("SELECT CONCAT(id, ' written ', applies, ' times') FROM "
						+ onReplica.targetTable("applies") + " WHERE applies <> 1"))
					.as("ledger rows written to the target more than once")
					.isEmpty();
				assertThat(onReplica.queryString("SELECT COUNT(*) FROM " + onReplica.targetTable("applies")))
					.isEqualTo(Long.toString(onReplica.countInSource("ledger")));
			}
		}
	}

	@Test
	void withoutGtidsThePromotedReplicaRefusesTheCheckpointAndRestartSnapshotsAgain(TestDatabase db)
			throws Exception {
		boolean mariaDb = db.server().isMariaDb();
		try (TestDatabaseServer primary = TestDatabaseServer.startDedicated(mariaDb);
				TestDatabaseServer replica = primary.startReplica()) {
			Replication onPrimary = prepare(Replication.of(db, "file", primary))
				.withSettings((s) -> s.withSource(s.source().withGtidPositioning(false)));
			streamThenStopUnderWorkload(onPrimary);
			failOver(primary, replica);

			Replication onReplica = onPrimary.withSourceServer(replica);
			try (RunningPipeline refusing = onReplica.start()) {
				for (String table : TABLES) {
					assertThat(refusing.awaitTable(table, (t) -> t.phase() == Phase.FAILED).lastError())
						.contains("points into the binary log of the server with server_id")
						.contains("PipelineSettings.invalidCheckpointBehavior=restart")
						.contains("resnapshot the table");
				}
			}
			Replication restarting = onReplica
				.withSettings((s) -> s.withInvalidCheckpointBehavior(InvalidCheckpointBehavior.RESTART));
			try (RunningPipeline snapshotting = restarting.start()) {
				awaitAllStreaming(snapshotting);
				for (String table : TABLES) {
					// Nothing has written to the new primary since it was promoted.
					assertThat(snapshotting.table(table).rowsCopied()).as("rows of %s copied again", table)
						.isEqualTo(restarting.countInSource(table));
				}
				writeOnThePromotedReplica(restarting, snapshotting);
				for (String table : TABLES) {
					restarting.assertEqual(table);
				}
			}
		}
	}

	/**
	 * Replicates {@code orders} (1,000 rows, then a mixed workload) and {@code ledger}, empty and
	 * insert-only, whose target counts in {@code applies} how often each of its rows was written.
	 */
	private static Replication prepare(Replication replication) {
		replication.createOrdersTable(1_000);
		Workload.createOrdersTable(replication.sourcePool(), replication.sourceTable("ledger"), 0);
		Workload.createOrdersTable(replication.pool(), replication.targetTable("ledger"), 0);
		replication.onTarget("CREATE TABLE applies (id BIGINT PRIMARY KEY, applies INT NOT NULL)",
				"CREATE TRIGGER ledger_applied AFTER INSERT ON ledger FOR EACH ROW "
						+ "INSERT INTO applies VALUES (NEW.id, 1) ON DUPLICATE KEY UPDATE applies = applies + 1");
		return replication.replicating(TABLES.toArray(String[]::new));
	}

	/**
	 * Streams both tables under a workload and stops the pipeline, as the application is stopped to
	 * be pointed elsewhere, while the workload still writes; then stops the workload. What was
	 * written after the stop is in no checkpoint: only the replica can hand it over later.
	 */
	private static void streamThenStopUnderWorkload(Replication replication) throws Exception {
		Workload orders = replication.workload("orders").threads(2).ratePerSecond(300).seed(11).build();
		Workload ledger = replication.workload("ledger").threads(1).ratePerSecond(200).mix(1, 0, 0, 0).seed(12).build();
		try (RunningPipeline first = replication.start()) {
			awaitAllStreaming(first);
			orders.start();
			ledger.start();
			first.awaitTable("orders", (t) -> t.changesApplied() >= 200);
			first.awaitTable("ledger", (t) -> t.changesApplied() >= 100);
		}
		long written = replication.countInSource("ledger");
		Workload.Counts last = ledger.counts();
		// Let the workload outlive the pipeline by a few hundred rows.
		Await.until("more ledger rows after the pipeline stopped", WAIT,
				() -> ledger.counts().inserts() >= last.inserts() + 100);
		orders.stop();
		ledger.stop();
		assertThat(replication.countInSource("ledger")).isGreaterThan(written);
	}

	/** The replica applies everything the primary wrote, then the primary is shut down for good. */
	private static void failOver(TestDatabaseServer primary, TestDatabaseServer replica) throws Exception {
		replica.awaitReplicaCaughtUp(WAIT);
		primary.stopServer();
	}

	/** Writes to both tables of the promoted replica while the pipeline streams, and waits until it applied them. */
	private static void writeOnThePromotedReplica(Replication replication, RunningPipeline pipeline) throws Exception {
		replication.workload("orders").threads(2).ratePerSecond(400).seed(21).maxOperations(400).build()
			.runToCompletion(WAIT);
		replication.workload("ledger").threads(1).ratePerSecond(400).mix(1, 0, 0, 0).seed(22).maxOperations(200)
			.build()
			.runToCompletion(WAIT);
		pipeline.awaitCaughtUp();
	}

	private static PipelineStatus awaitAllStreaming(RunningPipeline pipeline) throws Exception {
		return pipeline.awaitStatus("every table streaming",
				(status) -> status.tables().stream().allMatch((t) -> t.phase() == Phase.STREAMING), WAIT);
	}

}
