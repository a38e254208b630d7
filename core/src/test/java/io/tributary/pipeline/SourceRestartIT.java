package io.tributary.pipeline;

import java.sql.SQLException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.TestDatabaseServer;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source server goes away under a workload while a pipeline streams from it, shut down cleanly
 * or killed, and comes back on the same port with the same data: the pipeline reconnects by itself,
 * reads on from where it was (into the binlog file the restarted server opened) and the target
 * equals the source row by row, with writes from before the stop, around it and after it.
 */
@ExtendWith(DatabaseExtension.class)
class SourceRestartIT {

	/** The server goes away while this many changes have been applied and the workload still writes. */
	private static final long APPLIED_BEFORE_THE_STOP = 300;

	private static TestDatabaseServer source;

	@BeforeAll
	static void startSource() {
		source = TestDatabaseServer.startDedicated();
	}

	@AfterAll
	static void closeSource() {
		if (source != null) {
			source.close();
		}
	}

	@Test
	void sourceShutDownCleanlyMidStreamIsFollowedAfterItsRestart(TestDatabase db) throws Exception {
		restartMidStream(db, "stopped", false);
	}

	@Test
	void sourceKilledMidStreamIsFollowedAfterItsRestart(TestDatabase db) throws Exception {
		restartMidStream(db, "killed", true);
	}

	private static void restartMidStream(TestDatabase db, String name, boolean kill) throws Exception {
		Replication replication = Replication.of(db, name, source)
			.replicating("orders")
			// A checksum reading the source while it is down would only add noise.
			.withSettings((s) -> s.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false)));
		replication.createOrdersTable(1_000);
		try (RunningPipeline pipeline = replication.startStreaming()) {
			Workload before = replication.workload("orders").threads(2).ratePerSecond(400).seed(7).build();
			before.start();
			pipeline.awaitTable((t) -> t.changesApplied() >= APPLIED_BEFORE_THE_STOP);
			if (kill) {
				source.killServer();
			}
			else {
				source.stopServer();
			}
			try {
				before.stop();
			}
			catch (IllegalStateException ex) {
				// The workload's connections broke with the server; what it committed is what counts.
				assertThat(ex).hasCauseInstanceOf(SQLException.class);
			}
			pipeline.awaitStatus("the binlog connection lost", (status) -> !status.source().connected(),
					Replication.WAIT);
			source.startServer();

			Workload after = replication.workload("orders").threads(2).ratePerSecond(400).seed(8).maxOperations(500)
				.build();
			after.runToCompletion(Replication.WAIT);
			PipelineStatus status = pipeline.awaitStatus("the binlog connection back",
					(s) -> s.source().connected() && s.source().reconnects() > 0, Replication.WAIT);
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
			assertThat(status.source().reconnects()).as("reconnects").isPositive();
			replication.assertEqual("orders");
		}
	}

}
