package io.tributary.pipeline;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flush API an application uses around a cutover: flush() applies what is buffered without
 * waiting for the interval, flushUnderLock holds the source table's writers off while target and
 * source are equal.
 */
@ExtendWith(DatabaseExtension.class)
class FlushApiIT {

	@Test
	void flushAppliesBufferedChangesWithoutWaitingForTheInterval(TestDatabase db) throws Exception {
		// No checksum pass: waiting for the stream to reach its re-check point wakes the catch-up loop,
		// which would apply the changes this test expects to stay buffered until flush(); nor early
		// flushes when the reader is idle, which would too.
		Replication replication = Replication.of(db, "flush")
			.withSettings((s) -> s.withFlushInterval(Duration.ofHours(1)).withFlushWhenIdle(false)
				.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false)));
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1)");
		try (RunningPipeline pipeline = replication.start()) {
			// With an hour's flush interval, the cycles that move the table on run when a flush asks for them.
			Await.until("table streaming", Replication.WAIT, () -> {
				if (pipeline.table().phase() == Phase.STREAMING) {
					return true;
				}
				if (pipeline.status().state() == PipelineStatus.State.RUNNING) {
					pipeline.pipeline().flush(Duration.ofMinutes(1));
				}
				return false;
			});
			long added = pipeline.table().keysAdded();
			replication.onSource("INSERT INTO t VALUES (2, 2), (3, 3)", "UPDATE t SET v = 10 WHERE id = 1");
			pipeline.awaitTable((t) -> t.keysAdded() >= added + 3);
			assertThat(replication.countInTarget("t")).as("nothing applied before the flush").isEqualTo(1);
			assertThat(pipeline.pipeline().allChangesFlushed()).isFalse();
			pipeline.pipeline().flush(Duration.ofMinutes(1));
			assertThat(replication.countInTarget("t")).isEqualTo(3);
			replication.assertEqual("t");
		}
	}

	@Test
	void flushUnderLockKeepsWritersOffWhileTargetEqualsSource(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "lock");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1), (2, 2)");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.onSource("UPDATE t SET v = 20 WHERE id = 2");
			CompletableFuture<Void>[] writer = new CompletableFuture[1];
			String result = pipeline.pipeline().flushUnderLock(replication.mapping("t").source(), Duration.ofMinutes(1),
					() -> {
						replication.assertEqual("t");
						writer[0] = CompletableFuture
							.runAsync(() -> replication.onSource("UPDATE t SET v = 30 WHERE id = 1"));
						// The writer waits for the READ lock; it cannot finish while the callback runs.
						Await.until("writer waiting for the table lock", Duration.ofSeconds(30),
								() -> !replication.queryString("SELECT COUNT(*) FROM information_schema.PROCESSLIST "
										+ "WHERE STATE LIKE '%table metadata lock%'").equals("0"));
						assertThat(writer[0]).isNotDone();
						replication.assertEqual("t");
						return "cut over";
					});
			assertThat(result).isEqualTo("cut over");
			writer[0].get(1, TimeUnit.MINUTES);
			pipeline.awaitCaughtUp();
			replication.assertEqual("t");
		}
	}

}
