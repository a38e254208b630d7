package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.source.TableId;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.table;
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
		ReplicationIT.server(db);
		String src = db.schema("flush_src");
		String dst = db.schema("flush_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1)");
		// No checksum pass: waiting for the stream to reach its re-check point wakes the catch-up loop,
		// which would apply the changes this test expects to stay buffered until flush().
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t")
			.withFlushInterval(Duration.ofHours(1))
			.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false));
		try (Pipeline pipeline = new Pipeline(settings, pool, pool)) {
			pipeline.start();
			long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
			while (pipeline.status().tables().get(0).phase() != Phase.STREAMING) {
				assertThat(System.nanoTime()).isLessThan(deadline);
				Thread.sleep(20);
				if (pipeline.status().state() == io.tributary.status.PipelineStatus.State.RUNNING) {
					pipeline.flush(Duration.ofMinutes(1));
				}
			}
			long added = table(pipeline).keysAdded();
			db.server().execute(src, "INSERT INTO t VALUES (2, 2), (3, 3)", "UPDATE t SET v = 10 WHERE id = 1");
			while (table(pipeline).keysAdded() < added + 3) {
				assertThat(System.nanoTime()).isLessThan(deadline);
				Thread.sleep(10);
			}
			assertThat(count(pool, dst + ".t")).as("nothing applied before the flush").isEqualTo(1);
			assertThat(pipeline.allChangesFlushed()).isFalse();
			pipeline.flush(Duration.ofMinutes(1));
			assertThat(count(pool, dst + ".t")).isEqualTo(3);
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	@Test
	void flushUnderLockKeepsWritersOffWhileTargetEqualsSource(TestDatabase db) throws Exception {
		ReplicationIT.server(db);
		String src = db.schema("lock_src");
		String dst = db.schema("lock_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1), (2, 2)");
		try (Pipeline pipeline = new Pipeline(ReplicationIT.settings(src, dst, "t"), pool, pool)) {
			pipeline.start();
			ReplicationIT.awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			db.server().execute(src, "UPDATE t SET v = 20 WHERE id = 2");
			CompletableFuture<Void>[] writer = new CompletableFuture[1];
			String result = pipeline.flushUnderLock(new TableId(src, "t"), Duration.ofMinutes(1), () -> {
				TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
				writer[0] = CompletableFuture.runAsync(() -> db.server().execute(src, "UPDATE t SET v = 30 WHERE id = 1"));
				// The writer waits for the READ lock; it cannot finish while the callback runs.
				long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
				while (lockWaiters(pool) == 0) {
					assertThat(System.nanoTime()).as("writer waiting for the table lock").isLessThan(deadline);
					Thread.sleep(10);
				}
				assertThat(writer[0]).isNotDone();
				TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
				return "cut over";
			});
			assertThat(result).isEqualTo("cut over");
			writer[0].get(1, TimeUnit.MINUTES);
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	private static long lockWaiters(DataSource pool) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(
						"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE LIKE '%table metadata lock%'")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	private static long count(DataSource pool, String table) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
			rs.next();
			return rs.getLong(1);
		}
	}

}
