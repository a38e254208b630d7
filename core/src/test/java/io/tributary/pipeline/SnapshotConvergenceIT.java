package io.tributary.pipeline;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Checksum.State;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 200,000-row table copied in small chunks while inserts, updates, deletes and primary-key moves
 * run against it converges: once the workload stops and the stream catches up, the target equals
 * the source row by row, the checksum that ran after the copy (with the workload still running)
 * found nothing it had to repair, and a checksum of the quiet table finds no differing chunk.
 */
@ExtendWith(DatabaseExtension.class)
class SnapshotConvergenceIT {

	private static final Logger logger = LoggerFactory.getLogger(SnapshotConvergenceIT.class);

	private static final int ROWS = 200_000;

	private static final int CHUNK_ROWS = 2_000;

	@Test
	void copyUnderWritesAndKeyMovesConvergesWithoutRepairs(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "conv").replicating("orders")
			.withSettings((s) -> s
				.withCopy(new CopySizing(2, CHUNK_ROWS, CHUNK_ROWS, CHUNK_ROWS, Duration.ofMillis(500)))
				.withChecksum(ChecksumSettings.DEFAULTS.withChunkRows(CHUNK_ROWS)));
		replication.createOrdersTable(ROWS);
		Workload workload = replication.workload("orders")
			.threads(2)
			.ratePerSecond(500)
			.mix(25, 45, 10, 20)
			.transactionSize(2)
			.seed(System.nanoTime())
			.build();
		workload.start();
		try (RunningPipeline pipeline = replication.start()) {
			TableStatus afterCopy = pipeline.awaitTable((t) -> t.phase() != Phase.SNAPSHOTTING
					&& t.checksum().state() != State.RUNNING && t.checksum().state() != State.IDLE,
					Duration.ofMinutes(4));
			workload.stop();
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			replication.assertEqual("orders");
			TableStatus.Checksum quiet = pipeline.checksum("orders", Duration.ofMinutes(3));
			TableStatus.Checksum during = afterCopy.checksum();
			Workload.Counts counts = workload.counts();
			logger.info("Convergence figures on {}: copied {} rows in {} chunks, dropped above the high watermark {}, "
					+ "deferred {}; workload {}; checksum during the workload {}; checksum after it {}",
					db.server().flavor(), afterCopy.rowsCopied(), afterCopy.chunksCopied(),
					afterCopy.droppedAboveHighWatermark(), afterCopy.deferredInFlight(), counts, during, quiet);
			assertThat(counts.keyMoves()).isPositive();
			assertThat(counts.inserts()).isPositive();
			assertThat(counts.deletes()).isPositive();
			assertThat(afterCopy.chunksCopied()).isGreaterThanOrEqualTo(ROWS / CHUNK_ROWS);
			assertThat(during.state()).isEqualTo(State.DONE);
			assertThat(during.chunksChecked()).isGreaterThanOrEqualTo(ROWS / CHUNK_ROWS);
			assertThat(during.chunksRecheckedStillDiffering()).as("checksum during the workload: %s", during).isZero();
			assertThat(during.chunksRepaired()).isZero();
			assertThat(quiet.state()).isEqualTo(State.DONE);
			assertThat(quiet.chunksDiffering()).as("checksum after the workload: %s", quiet).isZero();
			assertThat(quiet.chunksRepaired()).isZero();
		}
		finally {
			workload.stop();
		}
	}

}
