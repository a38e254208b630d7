package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.TableId;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table without a primary key is refused unless a NOT NULL unique key is configured, and then
 * replicates by that key.
 */
@ExtendWith(DatabaseExtension.class)
class ConfiguredKeyIT {

	@Test
	void tableWithoutPrimaryKeyReplicatesByAConfiguredUniqueKey(TestDatabase db) throws Exception {
		ReplicationIT.server(db);
		String src = db.schema("key_src");
		String dst = db.schema("key_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (a INT NOT NULL, b VARCHAR(10) NOT NULL, v INT, UNIQUE KEY ab (a, b))",
				"INSERT INTO t VALUES (1, 'x', 1), (1, 'y', 2), (2, 'x', 3)");
		PipelineSettings plain = ReplicationIT.settings(src, dst, "t");
		try (Pipeline refused = new Pipeline(plain, pool, pool)) {
			refused.start();
			awaitTable(refused, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			assertThat(table(refused).lastError()).contains("has no primary key").contains("cdc.tables[n].key");
		}
		PipelineSettings keyed = plain
			.withTables(List.of(new TableMapping(new TableId(src, "t"), new TableId(dst, "t"), List.of("a", "b"))));
		try (Pipeline pipeline = new Pipeline(keyed, pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			db.server().execute(src, "UPDATE t SET v = 20 WHERE a = 1 AND b = 'y'", "DELETE FROM t WHERE a = 2",
					"INSERT INTO t VALUES (3, 'z', 4)", "UPDATE t SET b = 'w' WHERE a = 1 AND b = 'x'");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(rows(pool, dst)).isEqualTo(rows(pool, src)).containsExactly("1 w 1", "1 y 20", "3 z 4");
		}
	}

	private static List<String> rows(DataSource pool, String schema) throws Exception {
		List<String> rows = new ArrayList<>();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT a, b, v FROM " + schema + ".t ORDER BY a, b")) {
			while (rs.next()) {
				rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getInt(3));
			}
		}
		return rows;
	}

}
