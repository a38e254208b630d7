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

import io.tributary.pipeline.Replication;
import io.tributary.pipeline.RunningPipeline;
import io.tributary.test.DatabaseExtension;
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
		Replication replication = Replication.of(db, "kill").replicating("orders");
		replication.createOrdersTable(2_000);
		DataSource pool = replication.pool();
		Workload workload = replication.workload("orders").threads(2).ratePerSecond(300).transactionSize(3).seed(5)
			.build();
		try (RunningPipeline pipeline = replication.startStreaming(Duration.ofMinutes(2))) {
			workload.start();
			for (int kill = 1; kill <= 5; kill++) {
				long killed = killReplicationConnections(pool);
				assertThat(killed).as("replication connections killed").isEqualTo(1);
				int expected = kill;
				pipeline.awaitStatus("reconnect " + expected, (status) -> status.source().reconnects() == expected
						&& status.source().connected() && replicationConnections(pool) == 1, Duration.ofMinutes(2));
			}
			workload.stop();
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			assertThat(pipeline.status().source().reconnects()).isEqualTo(5);
			assertThat(pipeline.status().source().disconnectedSince()).as("cleared by the last reconnect").isNull();
			assertThat(workload.counts().transactions()).isPositive();
			replication.assertEqual("orders");
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

}
