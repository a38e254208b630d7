package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements that change a replicated table while it streams: additive ALTERs are followed,
 * TRUNCATE is applied, everything else stops the table with an actionable error.
 */
@ExtendWith(DatabaseExtension.class)
class SchemaChangeIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
		ReplicationIT.server(database);
	}

	@Test
	void columnAddedAtTheEndIsReplicatedWhenTheTargetHasIt() throws Exception {
		try (Streaming streaming = new Streaming("add_src", "add_dst")) {
			db.server().execute(streaming.dst, "ALTER TABLE t ADD COLUMN extra VARCHAR(10) NOT NULL DEFAULT 'd'");
			db.server().execute(streaming.src, "ALTER TABLE t ADD COLUMN extra VARCHAR(10) NOT NULL DEFAULT 'd'",
					"INSERT INTO t VALUES (100, 'new', 'given')", "UPDATE t SET extra = 'changed' WHERE id = 2");
			streaming.pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(streaming.pipeline).phase()).isEqualTo(Phase.STREAMING);
			TableComparison.assertEqual(streaming.pool, streaming.src + ".t", streaming.pool, streaming.dst + ".t");
		}
	}

	@Test
	void columnAddedAtTheEndIsIgnoredWhenTheTargetLacksIt() throws Exception {
		try (Streaming streaming = new Streaming("ignore_src", "ignore_dst")) {
			db.server().execute(streaming.src, "ALTER TABLE t ADD COLUMN extra INT NULL",
					"INSERT INTO t VALUES (100, 'after', 5)", "UPDATE t SET name = 'renamed', extra = 6 WHERE id = 1");
			streaming.pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(streaming.pipeline).phase()).isEqualTo(Phase.STREAMING);
			assertThat(streaming.targetNames()).contains("100=after", "1=renamed");
		}
	}

	@Test
	void incompatibleAlterStopsTheTable() throws Exception {
		try (Streaming streaming = new Streaming("modify_src", "modify_dst")) {
			db.server().execute(streaming.src, "ALTER TABLE t MODIFY name VARCHAR(50) NOT NULL",
					"INSERT INTO t VALUES (100, 'after')");
			awaitTable(streaming.pipeline, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			assertThat(table(streaming.pipeline).lastError()).contains("cannot follow")
				.contains("varchar(20)")
				.contains("varchar(50)")
				.contains("checkpoint table");
		}
	}

	@Test
	void characterSetOrCollationChangeStopsTheTable() throws Exception {
		try (Streaming streaming = new Streaming("charset_src", "charset_dst")) {
			db.server().execute(streaming.src,
					"ALTER TABLE t MODIFY name VARCHAR(20) CHARACTER SET latin1 COLLATE latin1_swedish_ci NOT NULL",
					"INSERT INTO t VALUES (100, 'after')");
			awaitTable(streaming.pipeline, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			assertThat(table(streaming.pipeline).lastError()).contains("cannot follow")
				.contains("character set or collation")
				.contains("latin1_swedish_ci")
				.contains("checkpoint table");
		}
	}

	@Test
	void renameStopsTheTable() throws Exception {
		try (Streaming streaming = new Streaming("rename_src", "rename_dst")) {
			db.server().execute(streaming.src, "RENAME TABLE t TO t_old");
			awaitTable(streaming.pipeline, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			assertThat(table(streaming.pipeline).lastError()).contains("was renamed").contains("cdc.tables");
		}
	}

	@Test
	void dropStopsTheTable() throws Exception {
		try (Streaming streaming = new Streaming("drop_src", "drop_dst")) {
			db.server().execute(streaming.src, "DROP TABLE t");
			awaitTable(streaming.pipeline, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			assertThat(table(streaming.pipeline).lastError()).contains("was dropped");
		}
	}

	@Test
	void truncateIsAppliedToTheTarget() throws Exception {
		try (Streaming streaming = new Streaming("truncate_src", "truncate_dst")) {
			db.server().execute(streaming.src, "UPDATE t SET name = 'before' WHERE id = 1", "TRUNCATE TABLE t",
					"INSERT INTO t VALUES (7, 'after')");
			streaming.pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(streaming.pipeline).phase()).isEqualTo(Phase.STREAMING);
			assertThat(streaming.targetNames()).containsExactly("7=after");
		}
	}

	/** A table {@code t(id, name)} with three rows, replicated and streaming. */
	private static final class Streaming implements AutoCloseable {

		final String src;

		final String dst;

		final DataSource pool = db.dataSource(null);

		final Pipeline pipeline;

		Streaming(String srcSuffix, String dstSuffix) throws Exception {
			this.src = db.schema(srcSuffix);
			this.dst = db.schema(dstSuffix);
			db.server().execute(this.src, "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL)",
					"INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
			this.pipeline = new Pipeline(ReplicationIT.settings(this.src, this.dst, "t"), this.pool, this.pool);
			this.pipeline.start();
			awaitTable(this.pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
		}

		java.util.List<String> targetNames() throws Exception {
			java.util.List<String> names = new java.util.ArrayList<>();
			try (Connection connection = this.pool.getConnection(); Statement statement = connection.createStatement();
					ResultSet rs = statement.executeQuery("SELECT id, name FROM " + this.dst + ".t ORDER BY id")) {
				while (rs.next()) {
					names.add(rs.getInt(1) + "=" + rs.getString(2));
				}
			}
			return names;
		}

		@Override
		public void close() {
			this.pipeline.close();
		}

	}

}
