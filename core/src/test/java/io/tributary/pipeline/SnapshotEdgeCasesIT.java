package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.copy.Copier;
import io.tributary.copy.CopySizing;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.InsertStatements;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshots at the edges: an empty table, a one-row table, a table emptied while it is copied, and
 * a table added to the configuration of a pipeline that already streams another one.
 */
@ExtendWith(DatabaseExtension.class)
class SnapshotEdgeCasesIT {

	private static final String TABLE = " (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)";

	@Test
	void emptyTableCompletesThenStreamsInserts(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "empty");
		replication.onSource("CREATE TABLE t" + TABLE);
		try (RunningPipeline pipeline = replication.startStreaming()) {
			assertThat(pipeline.table().rowsCopied()).isZero();
			assertThat(pipeline.table().chunksCopied()).isEqualTo(1);
			replication.onSource("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
					"UPDATE t SET v = 'changed' WHERE id = 2", "DELETE FROM t WHERE id = 3");
			pipeline.awaitCaughtUp();
			assertThat(replication.countInTarget("t")).isEqualTo(2);
			replication.assertEqual("t");
		}
	}

	/**
	 * A source table made under a lenient SQL mode, with zero-date defaults that a server's default
	 * mode (MySQL's NO_ZERO_DATE) refuses: its target is still created, and the table replicates.
	 */
	@Test
	void targetIsCreatedFromADefinitionWithZeroDateDefaults(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "zero_defaults");
		replication.onSource("SET SESSION sql_mode = ''",
				"CREATE TABLE t (id INT PRIMARY KEY, d DATE NOT NULL DEFAULT '0000-00-00', "
						+ "dt DATETIME NOT NULL DEFAULT '0000-00-00 00:00:00', "
						+ "ts TIMESTAMP NOT NULL DEFAULT '0000-00-00 00:00:00')",
				"INSERT INTO t (id) VALUES (1), (2)", "SET SESSION sql_mode = DEFAULT");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.onSource("SET SESSION sql_mode = ''", "INSERT INTO t (id) VALUES (3)",
					"UPDATE t SET d = '2024-02-29' WHERE id = 1", "SET SESSION sql_mode = DEFAULT");
			pipeline.awaitCaughtUp();
			replication.assertEqual("t");
		}
	}

	@Test
	void oneRowTableIsCopiedThenFollowed(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "one");
		replication.onSource("CREATE TABLE t" + TABLE, "INSERT INTO t VALUES (42, 'only')");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			assertThat(pipeline.table().rowsCopied()).isEqualTo(1);
			replication.assertEqual("t");
			replication.onSource("UPDATE t SET v = 'changed' WHERE id = 42", "INSERT INTO t VALUES (7, 'below')");
			pipeline.awaitCaughtUp();
			assertThat(replication.countInTarget("t")).isEqualTo(2);
			replication.assertEqual("t");
		}
	}

	@Test
	void tableEmptiedDuringItsCopyEndsEmpty(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "emptied").withSettings((s) -> s.withChunkRows(1000));
		replication.onSource("CREATE TABLE t" + TABLE);
		replication.onSource(InsertStatements.batches("t", 1, 5000, (i) -> i + ", 'r" + i + "'"));
		CopyHold hold = CopyHold.afterFirstChunk();
		try (RunningPipeline pipeline = replication.start((p) -> p.observeChunks(hold))) {
			hold.whileHeld(() -> {
				TableStatus copying = pipeline.awaitTable((t) -> t.chunksCopied() == 1);
				assertThat(replication.countInTarget("t")).isPositive();
				assertThat(copying.copyRowsPerSecond()).as("rate of the chunk that just landed").isPositive();
				assertThat(copying.copyEtaSeconds()).isNotNull();
				replication.onSource("DELETE FROM t");
			});
			pipeline.awaitPhase(Phase.STREAMING);
			pipeline.awaitCaughtUp();
			assertThat(replication.countInTarget("t")).isZero();
			assertThat(pipeline.table().copyRowsPerSecond()).isZero();
			assertThat(pipeline.table().copyEtaSeconds()).isNull();
			replication.assertEqual("t");
		}
	}

	/**
	 * With one copy thread the source gives the next chunk while the target still writes one: the
	 * target table is locked by another session from before the first chunk, so no chunk can land,
	 * and the second chunk is dispatched all the same. Once unlocked, the copy ends equal.
	 */
	@Test
	void oneCopyThreadReadsTheNextChunkWhileTheTargetWritesOne(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "overlap")
			.withSettings((s) -> s.withCopy(new CopySizing(1, 1000, 1000, 1000, Duration.ofMillis(500))));
		replication.onSource("CREATE TABLE t" + TABLE);
		replication.onSource(InsertStatements.batches("t", 1, 4500, (i) -> i + ", 'r" + i + "'"));
		CountDownLatch secondDispatched = new CountDownLatch(1);
		try (Connection locker = replication.pool().getConnection(); Statement lock = locker.createStatement()) {
			Copier.ChunkObserver observer = new Copier.ChunkObserver() {

				@Override
				public void beforeDispatch(Object[] lowerExclusive) {
					if (lowerExclusive == null) {
						try {
							lock.execute("LOCK TABLES " + replication.targetTable("t") + " WRITE");
						}
						catch (SQLException ex) {
							throw new IllegalStateException(ex);
						}
					}
				}

				@Override
				public void dispatched(Object[] lowerExclusive, Object[] upperInclusive, boolean stepped) {
					if (lowerExclusive != null) {
						secondDispatched.countDown();
					}
				}

			};
			try (RunningPipeline pipeline = replication.start((p) -> p.observeChunks(observer))) {
				try {
					assertThat(secondDispatched.await(Replication.WAIT.toSeconds(), TimeUnit.SECONDS))
						.as("second chunk dispatched while the first one's write waits for the target").isTrue();
					assertThat(pipeline.table().chunksCopied()).isZero();
				}
				finally {
					lock.execute("UNLOCK TABLES");
				}
				pipeline.awaitPhase(Phase.STREAMING);
				assertThat(pipeline.table().rowsCopied()).isEqualTo(4500);
				replication.assertEqual("t");
			}
		}
	}

	@Test
	void tableAddedLaterIsSnapshottedAloneWhileTheOtherKeepsStreaming(TestDatabase db) throws Exception {
		Replication onlyA = Replication.of(db, "added").replicating("a").withSettings((s) -> s.withChunkRows(1000));
		onlyA.onSource("CREATE TABLE a" + TABLE, "CREATE TABLE b" + TABLE);
		onlyA.onSource(InsertStatements.batches("a", 1, 4000, (i) -> i + ", 'r" + i + "'"));
		onlyA.onSource(InsertStatements.batches("b", 1, 4000, (i) -> i + ", 'r" + i + "'"));
		try (RunningPipeline pipeline = onlyA.startStreaming()) {
			onlyA.onSource("UPDATE a SET v = 'first run' WHERE id = 1");
			pipeline.awaitCaughtUp();
		}
		// While stopped, and then while b is copied, a changes; a must resume from its checkpoint.
		onlyA.onSource("UPDATE a SET v = 'while stopped' WHERE id = 2");
		Replication both = onlyA.replicating("a", "b");
		CopyHold hold = CopyHold.afterFirstChunk();
		try (RunningPipeline pipeline = both.start((p) -> p.observeChunks(hold))) {
			hold.whileHeld(() -> {
				pipeline.awaitTable("a", (t) -> t.phase() == Phase.STREAMING);
				assertThat(pipeline.table("b").phase()).isEqualTo(Phase.SNAPSHOTTING);
				both.onSource("UPDATE a SET v = 'during b' WHERE id = 3", "INSERT INTO a VALUES (5000, 'new')",
						"UPDATE b SET v = 'during b' WHERE id IN (10, 3000)");
				Await.until("a's change applied while b is copied", Replication.WAIT,
						() -> "during b".equals(targetValue(both, "a", 3)) && targetValue(both, "a", 5000) != null);
				assertThat(pipeline.table("b").phase()).isEqualTo(Phase.SNAPSHOTTING);
			});
			pipeline.awaitTable("b", (t) -> t.phase() == Phase.STREAMING);
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table("a").rowsCopied()).as("a resumed from its checkpoint").isZero();
			assertThat(pipeline.table("b").rowsCopied()).isEqualTo(4000);
			both.assertEqual("a");
			both.assertEqual("b");
		}
	}

	private static String targetValue(Replication replication, String table, int id) throws Exception {
		return replication.queryString("SELECT v FROM " + replication.targetTable(table) + " WHERE id = " + id);
	}

}
