package io.tributary.pipeline;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target that refuses every write the same way, with an error no code marks as permanent (a
 * trigger's SIGNAL): the table first reads as failing its flushes, then stops with the reason
 * instead of streaming for ever while nothing is applied, and the other table goes on.
 */
@ExtendWith(DatabaseExtension.class)
class RepeatedFlushFailureIT {

	@Test
	void aFlushFailingTheSameWayForGoodStopsItsTable(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "refusing").replicating("t", "u");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "CREATE TABLE u (id INT PRIMARY KEY, v INT)");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			pipeline.awaitTable("u", (u) -> u.phase() == Phase.STREAMING);
			replication.onTarget("CREATE TRIGGER refuse BEFORE INSERT ON t FOR EACH ROW "
					+ "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no rows here'");
			replication.onSource("INSERT INTO t VALUES (1, 1)");
			TableStatus failing = pipeline.awaitTable("t",
					(t) -> t.lastFlush() != null && t.lastFlush().outcome().contains("no rows here"));
			assertThat(failing.phase()).isEqualTo(Phase.STREAMING);

			TableStatus stopped = pipeline.awaitTable("t", (t) -> t.phase() == Phase.FAILED);
			assertThat(stopped.lastError()).contains("same error").contains("no rows here")
				.contains("restart the table");
			assertThat(replication.countInTarget("t")).isZero();

			replication.onSource("INSERT INTO u VALUES (1, 1)");
			pipeline.awaitCaughtUp();
			replication.assertEqual("u");
			assertThat(pipeline.table("u").phase()).isEqualTo(Phase.STREAMING);
		}
	}

}
