package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.copy.Copier;
import io.tributary.source.TableId;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshots at the edges: an empty table, a one-row table, a table emptied while it is copied, and
 * a table added to the configuration of a pipeline that already streams another one.
 */
@ExtendWith(DatabaseExtension.class)
class SnapshotEdgeCasesIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
		ReplicationIT.server(database);
	}

	@Test
	void emptyTableCompletesThenStreamsInserts() throws Exception {
		String src = db.schema("empty_src");
		String dst = db.schema("empty_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		try (Pipeline pipeline = new Pipeline(ReplicationIT.settings(src, dst, "t"), pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			assertThat(table(pipeline).rowsCopied()).isZero();
			assertThat(table(pipeline).chunksCopied()).isEqualTo(1);
			db.server().execute(src, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
					"UPDATE t SET v = 'changed' WHERE id = 2", "DELETE FROM t WHERE id = 3");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(count(pool, dst + ".t")).isEqualTo(2);
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	@Test
	void oneRowTableIsCopiedThenFollowed() throws Exception {
		String src = db.schema("one_src");
		String dst = db.schema("one_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)",
				"INSERT INTO t VALUES (42, 'only')");
		try (Pipeline pipeline = new Pipeline(ReplicationIT.settings(src, dst, "t"), pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			assertThat(table(pipeline).rowsCopied()).isEqualTo(1);
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
			db.server().execute(src, "UPDATE t SET v = 'changed' WHERE id = 42", "INSERT INTO t VALUES (7, 'below')");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(count(pool, dst + ".t")).isEqualTo(2);
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	@Test
	void tableEmptiedDuringItsCopyEndsEmpty() throws Exception {
		String src = db.schema("emptied_src");
		String dst = db.schema("emptied_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		for (int from = 1; from <= 5000; from += 1000) {
			StringBuilder sql = new StringBuilder("INSERT INTO t VALUES ");
			for (int i = from; i < from + 1000; i++) {
				sql.append((i > from) ? ", " : "").append('(').append(i).append(", 'r").append(i).append("')");
			}
			db.server().execute(src, sql.toString());
		}
		HoldAfterFirstChunk hold = new HoldAfterFirstChunk();
		try (Pipeline pipeline = new Pipeline(ReplicationIT.settings(src, dst, "t").withChunkRows(1000), pool, pool)) {
			pipeline.observeChunks(hold);
			pipeline.start();
			assertThat(hold.held.await(1, TimeUnit.MINUTES)).as("copier held after the first chunk").isTrue();
			try {
				awaitTable(pipeline, (t) -> t.chunksCopied() == 1, Duration.ofMinutes(1));
				assertThat(count(pool, dst + ".t")).isPositive();
				TableStatus copying = table(pipeline);
				assertThat(copying.copyRowsPerSecond()).as("rate of the chunk that just landed").isPositive();
				assertThat(copying.copyEtaSeconds()).isNotNull();
				db.server().execute(src, "DELETE FROM t");
			}
			finally {
				hold.release.countDown();
			}
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(count(pool, dst + ".t")).isZero();
			assertThat(table(pipeline).copyRowsPerSecond()).isZero();
			assertThat(table(pipeline).copyEtaSeconds()).isNull();
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

	@Test
	void tableAddedLaterIsSnapshottedAloneWhileTheOtherKeepsStreaming() throws Exception {
		String src = db.schema("added_src");
		String dst = db.schema("added_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)",
				"CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)");
		for (String name : List.of("a", "b")) {
			for (int from = 1; from <= 4000; from += 1000) {
				StringBuilder sql = new StringBuilder("INSERT INTO " + name + " VALUES ");
				for (int i = from; i < from + 1000; i++) {
					sql.append((i > from) ? ", " : "").append('(').append(i).append(", 'r").append(i).append("')");
				}
				db.server().execute(src, sql.toString());
			}
		}
		PipelineSettings onlyA = ReplicationIT.settings(src, dst, "a").withChunkRows(1000);
		try (Pipeline pipeline = new Pipeline(onlyA, pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			db.server().execute(src, "UPDATE a SET v = 'first run' WHERE id = 1");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
		}
		// While stopped, and then while b is copied, a changes; a must resume from its checkpoint.
		db.server().execute(src, "UPDATE a SET v = 'while stopped' WHERE id = 2");
		PipelineSettings both = onlyA.withTables(List.of(new TableMapping(new TableId(src, "a"), new TableId(dst, "a")),
				new TableMapping(new TableId(src, "b"), new TableId(dst, "b"))));
		HoldAfterFirstChunk hold = new HoldAfterFirstChunk();
		try (Pipeline pipeline = new Pipeline(both, pool, pool)) {
			pipeline.observeChunks(hold);
			pipeline.start();
			assertThat(hold.held.await(1, TimeUnit.MINUTES)).as("copier of b held after its first chunk").isTrue();
			try {
				awaitNamed(pipeline, "a", (t) -> t.phase() == Phase.STREAMING);
				assertThat(named(pipeline, "b").phase()).isEqualTo(Phase.SNAPSHOTTING);
				db.server().execute(src, "UPDATE a SET v = 'during b' WHERE id = 3", "INSERT INTO a VALUES (5000, 'new')",
						"UPDATE b SET v = 'during b' WHERE id IN (10, 3000)");
				long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
				while (!"during b".equals(value(pool, dst + ".a", 3)) || value(pool, dst + ".a", 5000) == null) {
					assertThat(System.nanoTime()).as("a's change applied while b is copied").isLessThan(deadline);
					Thread.sleep(20);
				}
				assertThat(named(pipeline, "b").phase()).isEqualTo(Phase.SNAPSHOTTING);
			}
			finally {
				hold.release.countDown();
			}
			awaitNamed(pipeline, "b", (t) -> t.phase() == Phase.STREAMING);
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(named(pipeline, "a").rowsCopied()).as("a resumed from its checkpoint").isZero();
			assertThat(named(pipeline, "b").rowsCopied()).isEqualTo(4000);
			TableComparison.assertEqual(pool, src + ".a", pool, dst + ".a");
			TableComparison.assertEqual(pool, src + ".b", pool, dst + ".b");
		}
	}

	private static TableStatus named(Pipeline pipeline, String table) {
		return pipeline.status().tables().stream().filter((t) -> t.name().endsWith("." + table)).findFirst()
			.orElseThrow();
	}

	private static void awaitNamed(Pipeline pipeline, String table, Predicate<TableStatus> condition)
			throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
		while (!condition.test(named(pipeline, table))) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("Condition not reached for " + table + "; status: " + pipeline.status());
			}
			Thread.sleep(50);
		}
	}

	private static long count(DataSource pool, String table) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
			rs.next();
			return rs.getLong(1);
		}
	}

	private static String value(DataSource pool, String table, int id) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT v FROM " + table + " WHERE id = " + id)) {
			return rs.next() ? rs.getString(1) : null;
		}
	}

	/** Holds a copier before its second chunk until released. */
	static final class HoldAfterFirstChunk implements Copier.ChunkObserver {

		final CountDownLatch held = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		public void beforeDispatch(Object[] lowerExclusive) {
			if (lowerExclusive != null && this.held.getCount() > 0) {
				this.held.countDown();
				try {
					this.release.await(2, TimeUnit.MINUTES);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

}
