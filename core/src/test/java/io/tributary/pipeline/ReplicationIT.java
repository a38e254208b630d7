package io.tributary.pipeline;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.SourceSettings;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.InsertStatements;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: snapshot while a workload writes, stream, stop, restart from the checkpoint.
 */
@ExtendWith(DatabaseExtension.class)
class ReplicationIT {

	@Test
	void snapshotsWhileTheWorkloadWritesThenStreamsAndConverges(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "conv").replicating("orders")
			.withSettings((s) -> s.withChunkRows(2_000));
		replication.createOrdersTable(50_000);
		Workload workload = replication.workload("orders").threads(2).ratePerSecond(400).seed(7).build();
		workload.start();
		try (RunningPipeline pipeline = replication.startStreaming(Duration.ofMinutes(3))) {
			long appliedAtStreaming = pipeline.table().changesApplied();
			pipeline.awaitTable((t) -> t.changesApplied() > appliedAtStreaming + 200, Duration.ofMinutes(2));
			workload.stop();
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			assertThat(pipeline.table().rowsCopied()).isGreaterThan(0);
			assertThat(workload.counts().transactions()).isGreaterThan(0);
			// Idle and caught up: heartbeats, not events, arrive, and the lag reads zero.
			PipelineStatus idle = pipeline.awaitStatus("lag zero when idle",
					(status) -> status.lagBytes() != null && status.lagBytes() == 0 && status.lagMillis() == 0,
					Duration.ofSeconds(30));
			assertThat(idle.position().sourceHead()).isNotNull();
			replication.assertEqual("orders");
		}
		finally {
			workload.stop();
		}
	}

	@Test
	void restartResumesFromTheCheckpointWithoutASnapshot(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "restart").replicating("orders");
		replication.createOrdersTable(5_000);
		replication.runUntilCaughtUp(Duration.ofMinutes(2));
		replication.workload("orders").threads(2).maxOperations(2_000).seed(11).build()
			.runToCompletion(Duration.ofMinutes(2));
		try (RunningPipeline second = replication.start()) {
			second.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = second.table();
			assertThat(status.rowsCopied()).as("rows copied after a restart").isZero();
			assertThat(status.changesApplied()).isGreaterThan(0);
			replication.assertEqual("orders");
		}
	}

	@Test
	void replicatesACompositeKeyTableIncludingKeyMoves(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "composite").replicating("items")
			.withSettings((s) -> s.withChunkRows(700));
		replication.onSource("CREATE TABLE items (order_id BIGINT NOT NULL, line INT NOT NULL, "
				+ "sku VARCHAR(32) NOT NULL, qty INT NOT NULL, price DECIMAL(10,2) NULL, PRIMARY KEY (order_id, line))",
				InsertStatements.single("items", 0, 2_999, (i) -> (i / 5) + "," + (i % 5) + ",'sku-" + i + "',"
						+ (i % 7) + "," + ((i % 11 == 0) ? "NULL" : i + ".25")));
		try (RunningPipeline pipeline = replication.startStreaming(Duration.ofMinutes(2))) {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			for (int i = 0; i < 200; i++) {
				long order = random.nextLong(600);
				replication.onSource("UPDATE items SET qty = qty + 1 WHERE order_id = " + order,
						"UPDATE items SET line = line + 10 WHERE order_id = " + order + " AND line = 0",
						"DELETE FROM items WHERE order_id = " + random.nextLong(600) + " AND line = 3",
						"INSERT INTO items VALUES (" + (10_000 + i) + ", 1, 'new', 1, NULL)");
			}
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			replication.assertEqual("items");
		}
	}

	@Test
	void refusesATargetWhoseColumnsDiffer(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "mismatch");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, amount DECIMAL(10,2))");
		replication.onTarget("CREATE TABLE t (id INT PRIMARY KEY, amount DECIMAL(12,2))");
		try (RunningPipeline pipeline = replication.start()) {
			assertThat(pipeline.awaitPhase(Phase.FAILED).lastError()).contains("does not match")
				.contains("amount")
				.contains("decimal(10,2)")
				.contains("decimal(12,2)");
		}
	}

	@Test
	void waitsWithTheProblemsNamedWhilePreflightFails(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "preflight");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY)");
		SourceSettings source = replication.settings().source();
		Replication sameServerId = replication.withSettings((s) -> s.withSource(new SourceSettings(source.host(),
				source.port(), source.username(), source.password(), 1, source.connectTimeout(),
				source.heartbeatInterval())));
		try (RunningPipeline pipeline = sameServerId.start()) {
			PipelineStatus status = pipeline.awaitStatus("a preflight error", (s) -> s.lastError() != null,
					Replication.WAIT);
			assertThat(status.state()).isEqualTo(PipelineStatus.State.STARTING);
			assertThat(status.lastError()).contains("server_id of the source").contains("SourceSettings.serverId");
			assertThat(status.source().flavor()).isEqualTo(db.server().isMariaDb() ? "MARIADB" : "MYSQL");
		}
	}

}
