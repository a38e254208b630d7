package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;
import io.tributary.source.TableId;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replication connection is killed on the server five times while a workload writes; every
 * time the reader reconnects from the last transaction boundary, and nothing is lost.
 */
@ExtendWith(DatabaseExtension.class)
class ReconnectIT {

	@Test
	void survivesTheReplicationConnectionBeingKilledFiveTimes(TestDatabase db) throws Exception {
		String src = db.schema("kill_src");
		String dst = db.schema("kill_dst");
		DataSource pool = db.dataSource(null);
		Workload.createOrdersTable(pool, src + ".orders", 2_000);
		SourceSettings source = new SourceSettings(db.server().host(), db.server().port(), db.server().username(),
				db.server().password(), 880_000 + (long) (Math.random() * 1000), Duration.ofSeconds(10),
				Duration.ofSeconds(1));
		PipelineSettings settings = PipelineSettings.of(source,
				List.of(new TableMapping(new TableId(src, "orders"), new TableId(dst, "orders"))),
				new TableId(dst, "tributary_checkpoint"))
			.withChecksum(ChecksumSettings.DEFAULTS.withFixDifferences(false));
		Workload workload = Workload.builder(pool, src + ".orders").threads(2).ratePerSecond(300).transactionSize(3)
			.seed(5).build();
		try (Pipeline pipeline = new Pipeline(settings, pool, pool)) {
			pipeline.start();
			await(pipeline, (status) -> status.tables().get(0).phase() == Phase.STREAMING);
			workload.start();
			for (int kill = 1; kill <= 5; kill++) {
				long killed = killReplicationConnections(pool);
				assertThat(killed).as("replication connections killed").isEqualTo(1);
				int expected = kill;
				await(pipeline, (status) -> status.source().reconnects() == expected && status.source().connected()
						&& replicationConnections(pool) == 1);
			}
			workload.stop();
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			PipelineStatus status = pipeline.status();
			assertThat(status.source().reconnects()).isEqualTo(5);
			assertThat(workload.counts().transactions()).isPositive();
			TableComparison.assertEqual(pool, src + ".orders", pool, dst + ".orders");
		}
		finally {
			workload.stop();
		}
	}

	private static List<Long> replicationThreads(DataSource pool) throws Exception {
		List<Long> ids = new ArrayList<>();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(
						"SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'")) {
			while (rs.next()) {
				ids.add(rs.getLong(1));
			}
		}
		return ids;
	}

	private static int replicationConnections(DataSource pool) {
		try {
			return replicationThreads(pool).size();
		}
		catch (Exception ex) {
			return -1;
		}
	}

	private static long killReplicationConnections(DataSource pool) throws Exception {
		List<Long> ids = replicationThreads(pool);
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			for (long id : ids) {
				statement.execute("KILL " + id);
			}
		}
		return ids.size();
	}

	private static void await(Pipeline pipeline, java.util.function.Predicate<PipelineStatus> condition)
			throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
		while (!condition.test(pipeline.status())) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("Condition not reached within 2 minutes: " + pipeline.status());
			}
			Thread.sleep(20);
		}
	}

}
