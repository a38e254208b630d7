package io.tributary.pipeline;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With a flush interval of ten minutes, changes still reach the target as soon as the reader has
 * read everything, except a row changed again after such an early write: it waits for a full
 * flush. ({@code FlushApiIT} shows that without {@code cdc.flush.when-idle} changes wait.)
 */
@ExtendWith(DatabaseExtension.class)
class FlushWhenIdleIT {

	private static final Duration LONG_INTERVAL = Duration.ofMinutes(10);

	/** Well under the interval: a change that arrives within it was applied early. */
	private static final Duration SOON = Duration.ofSeconds(30);

	@Test
	void changesArriveBeforeTheIntervalAndARowChangedAgainWaitsForAFullFlush(TestDatabase db) throws Exception {
		// No checksum pass: its waits for the stream ask for full flushes.
		Replication replication = Replication.of(db, "whenidle").replicating("t")
			.withSettings((s) -> s.withFlushInterval(LONG_INTERVAL).withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false)));
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO t VALUES (0, 0)");
		String target = replication.targetTable("t");
		try (RunningPipeline running = replication.startStreaming()) {
			replication.onSource("INSERT INTO t VALUES (1, 0)");
			Await.until("row 1 in the target", SOON,
					() -> replication.queryString("SELECT v FROM " + target + " WHERE id = 1") != null);

			long appliedBefore = running.table().changesApplied();
			for (int i = 1; i <= 50; i++) {
				replication.onSource("UPDATE t SET v = " + i + " WHERE id = 1");
			}
			replication.onSource("INSERT INTO t VALUES (2, 0)");
			Await.until("row 2, inserted after the updates of row 1, in the target", SOON,
					() -> replication.queryString("SELECT v FROM " + target + " WHERE id = 2") != null);
			assertThat(replication.queryString("SELECT v FROM " + target + " WHERE id = 1"))
				.as("row 1, written early a moment ago, waits for the interval").isEqualTo("0");

			running.pipeline().flush(SOON);
			assertThat(replication.queryString("SELECT v FROM " + target + " WHERE id = 1")).isEqualTo("50");
			assertThat(running.table().changesApplied() - appliedBefore)
				.as("writes for 50 updates of one row and one insert").isLessThanOrEqualTo(3);
			replication.assertEqual("t");
		}
	}

}
