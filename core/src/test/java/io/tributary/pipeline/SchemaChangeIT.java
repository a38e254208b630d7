package io.tributary.pipeline;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Statements that change a replicated table while it streams: additive ALTERs are followed,
 * TRUNCATE is applied, everything else stops the table with an actionable error.
 */
@ExtendWith(DatabaseExtension.class)
class SchemaChangeIT {

	@Test
	void columnAddedAtTheEndIsReplicatedWhenTheTargetHasIt(TestDatabase db) throws Exception {
		Replication replication = threeRows(db, "add");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.onTarget("ALTER TABLE t ADD COLUMN extra VARCHAR(10) NOT NULL DEFAULT 'd'");
			replication.onSource("ALTER TABLE t ADD COLUMN extra VARCHAR(10) NOT NULL DEFAULT 'd'",
					"INSERT INTO t VALUES (100, 'new', 'given')", "UPDATE t SET extra = 'changed' WHERE id = 2");
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
			replication.assertEqual("t");
		}
	}

	@Test
	void columnAddedAtTheEndIsIgnoredWhenTheTargetLacksIt(TestDatabase db) throws Exception {
		Replication replication = threeRows(db, "ignore");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.onSource("ALTER TABLE t ADD COLUMN extra INT NULL", "INSERT INTO t VALUES (100, 'after', 5)",
					"UPDATE t SET name = 'renamed', extra = 6 WHERE id = 1");
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
			assertThat(targetNames(replication)).contains("100=after", "1=renamed");
		}
	}

	@Test
	void incompatibleAlterStopsTheTable(TestDatabase db) throws Exception {
		assertThat(errorAfter(db, "modify", "ALTER TABLE t MODIFY name VARCHAR(50) NOT NULL",
				"INSERT INTO t VALUES (100, 'after')")).contains("cannot follow")
			.contains("varchar(20)")
			.contains("varchar(50)")
			.contains("resnapshot the table");
	}

	@Test
	void characterSetOrCollationChangeStopsTheTable(TestDatabase db) throws Exception {
		assertThat(errorAfter(db, "charset",
				"ALTER TABLE t MODIFY name VARCHAR(20) CHARACTER SET latin1 COLLATE latin1_swedish_ci NOT NULL",
				"INSERT INTO t VALUES (100, 'after')")).contains("cannot follow")
			.contains("character set or collation")
			.contains("latin1_swedish_ci")
			.contains("resnapshot the table");
	}

	@Test
	void renameStopsTheTableAsDropped(TestDatabase db) throws Exception {
		assertThat(droppedAfter(db, "rename", "RENAME TABLE t TO t_old")).contains("was renamed")
			.contains("RENAME TABLE t TO t_old").contains("target and checkpoint are kept");
	}

	@Test
	void dropStopsTheTableAsDroppedAndKeepsTheTarget(TestDatabase db) throws Exception {
		Replication replication = threeRows(db, "drop");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.onSource("UPDATE t SET name = 'last' WHERE id = 1", "DROP TABLE t");
			TableStatus dropped = pipeline.awaitPhase(Phase.DROPPED);
			assertThat(dropped.lastAction().detail()).contains("was dropped").contains("DROP TABLE");
			assertThat(dropped.lastError()).isNull();
			assertThat(dropped.bufferedKeys()).isZero();
			assertThat(targetNames(replication)).containsExactly("1=last", "2=two", "3=three");
		}
	}

	@Test
	void mariaDbsCreateOrReplaceStopsTheTable(TestDatabase db) throws Exception {
		assumeTrue(db.server().isMariaDb(), "CREATE OR REPLACE TABLE is MariaDB's");
		assertThat(errorAfter(db, "replace", "CREATE OR REPLACE TABLE t (id INT PRIMARY KEY, name VARCHAR(20))"))
			.contains("was replaced on the source");
	}

	@Test
	void truncateIsAppliedToTheTarget(TestDatabase db) throws Exception {
		Replication replication = threeRows(db, "truncate");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.onSource("UPDATE t SET name = 'before' WHERE id = 1", "TRUNCATE TABLE t",
					"INSERT INTO t VALUES (7, 'after')");
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
			assertThat(targetNames(replication)).containsExactly("7=after");
		}
	}

	/** A table {@code t(id, name)} with three rows. */
	private static Replication threeRows(TestDatabase db, String name) {
		Replication replication = Replication.of(db, name);
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL)",
				"INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
		return replication;
	}

	/** Streams the three rows, runs {@code sql} on the source, and returns the error the table then fails with. */
	private static String errorAfter(TestDatabase db, String name, String... sql) throws Exception {
		Replication replication = threeRows(db, name);
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.onSource(sql);
			return pipeline.awaitPhase(Phase.FAILED).lastError();
		}
	}

	/** Streams the three rows, runs {@code sql} on the source, and returns what the table's drop says. */
	private static String droppedAfter(TestDatabase db, String name, String... sql) throws Exception {
		Replication replication = threeRows(db, name);
		try (RunningPipeline pipeline = replication.startStreaming()) {
			replication.onSource(sql);
			return pipeline.awaitPhase(Phase.DROPPED).lastAction().detail();
		}
	}

	private static List<String> targetNames(Replication replication) throws Exception {
		return replication
			.queryStrings("SELECT CONCAT(id, '=', name) FROM " + replication.targetTable("t") + " ORDER BY id");
	}

}
