package io.tributary.pipeline;

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

/**
 * End to end: snapshot while a workload writes, stream, stop, restart from the checkpoint.
 */
@ExtendWith(DatabaseExtension.class)
class ReplicationIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
	}

	@Test
	void snapshotsWhileTheWorkloadWritesThenStreamsAndConverges() throws Exception {
		String src = db.schema("conv_src");
		String dst = db.schema("conv_dst");
		DataSource sourcePool = db.dataSource(null);
		Workload.createOrdersTable(sourcePool, src + ".orders", 50_000);
		Workload workload = Workload.builder(sourcePool, src + ".orders").threads(2).ratePerSecond(400).seed(7).build();
		workload.start();
		try (Pipeline pipeline = new Pipeline(settings(src, dst, "orders").withChunkRows(2_000), sourcePool,
				db.dataSource(null))) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(3));
			long appliedAtStreaming = table(pipeline).changesApplied();
			awaitTable(pipeline, (t) -> t.changesApplied() > appliedAtStreaming + 200, Duration.ofMinutes(2));
			workload.stop();
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = table(pipeline);
			assertThat(status.rowsCopied()).isGreaterThan(0);
			assertThat(workload.counts().transactions()).isGreaterThan(0);
			// Idle and caught up: heartbeats, not events, arrive, and the lag reads zero.
			long idleDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			PipelineStatus idle = pipeline.status();
			while (idle.lagBytes() == null || idle.lagBytes() != 0 || idle.lagMillis() != 0) {
				assertThat(System.nanoTime()).as("lag zero when idle: " + idle).isLessThan(idleDeadline);
				Thread.sleep(50);
				idle = pipeline.status();
			}
			assertThat(idle.position().sourceHead()).isNotNull();
			TableComparison.assertEqual(sourcePool, src + ".orders", sourcePool, dst + ".orders");
		}
		finally {
			workload.stop();
		}
	}

	@Test
	void restartResumesFromTheCheckpointWithoutASnapshot() throws Exception {
		String src = db.schema("restart_src");
		String dst = db.schema("restart_dst");
		DataSource sourcePool = db.dataSource(null);
		Workload.createOrdersTable(sourcePool, src + ".orders", 5_000);
		PipelineSettings settings = settings(src, dst, "orders");
		try (Pipeline first = new Pipeline(settings, sourcePool, db.dataSource(null))) {
			first.start();
			awaitTable(first, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(2));
			first.awaitCaughtUp(Duration.ofMinutes(1));
		}
		Workload offline = Workload.builder(sourcePool, src + ".orders").threads(2).maxOperations(2_000).seed(11).build();
		offline.start();
		assertThat(offline.awaitCompletion(Duration.ofMinutes(2))).isTrue();
		offline.stop();
		try (Pipeline second = new Pipeline(settings, sourcePool, db.dataSource(null))) {
			second.start();
			second.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = table(second);
			assertThat(status.rowsCopied()).as("rows copied after a restart").isZero();
			assertThat(status.changesApplied()).isGreaterThan(0);
			TableComparison.assertEqual(sourcePool, src + ".orders", sourcePool, dst + ".orders");
		}
	}

	@Test
	void replicatesACompositeKeyTableIncludingKeyMoves() throws Exception {
		String src = db.schema("composite_src");
		String dst = db.schema("composite_dst");
		DataSource sourcePool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE items (order_id BIGINT NOT NULL, line INT NOT NULL, "
				+ "sku VARCHAR(32) NOT NULL, qty INT NOT NULL, price DECIMAL(10,2) NULL, PRIMARY KEY (order_id, line))");
		StringBuilder insert = new StringBuilder("INSERT INTO items VALUES ");
		for (int i = 0; i < 3_000; i++) {
			insert.append((i > 0) ? "," : "").append("(").append(i / 5).append(",").append(i % 5).append(",'sku-")
				.append(i).append("',").append(i % 7).append(",").append((i % 11 == 0) ? "NULL" : i + ".25").append(")");
		}
		db.server().execute(src, insert.toString());
		try (Pipeline pipeline = new Pipeline(settings(src, dst, "items").withChunkRows(700), sourcePool,
				db.dataSource(null))) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(2));
			ThreadLocalRandom random = ThreadLocalRandom.current();
			for (int i = 0; i < 200; i++) {
				long order = random.nextLong(600);
				db.server().execute(src,
						"UPDATE items SET qty = qty + 1 WHERE order_id = " + order,
						"UPDATE items SET line = line + 10 WHERE order_id = " + order + " AND line = 0",
						"DELETE FROM items WHERE order_id = " + random.nextLong(600) + " AND line = 3",
						"INSERT INTO items VALUES (" + (10_000 + i) + ", 1, 'new', 1, NULL)");
			}
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			TableComparison.assertEqual(sourcePool, src + ".items", sourcePool, dst + ".items");
		}
	}

	@Test
	void refusesATargetWhoseColumnsDiffer() throws Exception {
		String src = db.schema("mismatch_src");
		String dst = db.schema("mismatch_dst");
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, amount DECIMAL(10,2))");
		db.server().execute(dst, "CREATE TABLE t (id INT PRIMARY KEY, amount DECIMAL(12,2))");
		try (Pipeline pipeline = new Pipeline(settings(src, dst, "t"), db.dataSource(null), db.dataSource(null))) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			assertThat(table(pipeline).lastError()).contains("does not match")
				.contains("amount")
				.contains("decimal(10,2)")
				.contains("decimal(12,2)");
		}
	}

	@Test
	void waitsWithTheProblemsNamedWhilePreflightFails() throws Exception {
		String src = db.schema("preflight_src");
		String dst = db.schema("preflight_dst");
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY)");
		PipelineSettings clash = settings(src, dst, "t");
		io.tributary.source.SourceSettings source = clash.source();
		PipelineSettings sameServerId = clash.withSource(new io.tributary.source.SourceSettings(source.host(),
				source.port(), source.username(), source.password(), 1, source.connectTimeout(),
				source.heartbeatInterval()));
		try (Pipeline pipeline = new Pipeline(sameServerId, db.dataSource(null), db.dataSource(null))) {
			pipeline.start();
			long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
			while (pipeline.status().lastError() == null) {
				assertThat(System.nanoTime()).isLessThan(deadline);
				Thread.sleep(20);
			}
			PipelineStatus status = pipeline.status();
			assertThat(status.state()).isEqualTo(PipelineStatus.State.STARTING);
			assertThat(status.lastError()).contains("server_id of the source").contains("cdc.source.server-id");
			assertThat(status.source().flavor()).isEqualTo(db.server().isMariaDb() ? "MARIADB" : "MYSQL");
		}
	}

	static PipelineSettings settings(String src, String dst, String table) {
		SourceSettings source = new SourceSettings(db.server().host(), db.server().port(), db.server().username(),
				db.server().password(), 10_000 + ThreadLocalRandom.current().nextInt(1_000_000), Duration.ofSeconds(10),
				Duration.ofSeconds(1));
		// The checksum after each snapshot only reports: a repair must never hide a loss a test looks for.
		return PipelineSettings
			.of(source, List.of(new TableMapping(new TableId(src, table), new TableId(dst, table))),
					new TableId(dst, "tributary_checkpoint"))
			.withChecksum(ChecksumSettings.DEFAULTS.withFixDifferences(false));
	}

	static TableStatus table(Pipeline pipeline) {
		return pipeline.status().tables().get(0);
	}

	static void awaitTable(Pipeline pipeline, Predicate<TableStatus> condition, Duration timeout)
			throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			PipelineStatus status = pipeline.status();
			TableStatus table = status.tables().get(0);
			if (condition.test(table)) {
				return;
			}
			if (System.nanoTime() > deadline) {
				throw new AssertionError("Condition not reached within " + timeout + "; status: " + status);
			}
			Thread.sleep(50);
		}
	}

}
