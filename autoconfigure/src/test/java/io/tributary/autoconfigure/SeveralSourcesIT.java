package io.tributary.autoconfigure;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two entries of {@code cdc.sources}, here two schemas of one server, replicate side by side: each
 * its own tables, each pipeline streaming under its own name, with its own checkpoints.
 */
@ExtendWith(DatabaseExtension.class)
class SeveralSourcesIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
	}

	@Test
	void twoSourcesReplicateTheirTablesEachInItsOwnPipeline() throws Exception {
		String east = db.schema("east");
		String west = db.schema("west");
		String dst = db.schema("dst");
		db.server().execute(east, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO t VALUES (1, 'e1'), (2, 'e2')");
		db.server().execute(west, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO t VALUES (1, 'w1'), (2, 'w2'), (3, 'w3')");
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues(source("east", east))
			.withPropertyValues(source("west", west))
			.withPropertyValues("cdc.sources.east.tables[0].target=east_t", "cdc.sources.west.pipeline=westward",
					"cdc.sources.west.tables[0].target=west_t", "cdc.target.url=" + db.jdbcUrl(dst),
					"cdc.target.username=" + db.server().username(), "cdc.target.password=" + db.server().password())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				TributaryPipelines pipelines = context.getBean(TributaryPipelines.class);
				Await.value("both pipelines streaming", Duration.ofMinutes(1), pipelines::status,
						(statuses) -> statuses.size() == 2 && statuses.stream()
							.allMatch((s) -> s.tables().get(0).phase() == Phase.STREAMING));
				db.server().execute(east, "INSERT INTO t VALUES (3, 'e3')", "UPDATE t SET v = 'e1!' WHERE id = 1");
				db.server().execute(west, "DELETE FROM t WHERE id = 2", "INSERT INTO t VALUES (4, 'w4')");
				DataSource pool = db.dataSource(null);
				Await.until("both targets equal their sources", Duration.ofMinutes(1),
						() -> TableComparison.compare(pool, east + ".t", pool, dst + ".east_t").equal()
								&& TableComparison.compare(pool, west + ".t", pool, dst + ".west_t").equal());
				assertThat(pipelines.status()).extracting(PipelineStatus::name).containsExactly("east", "westward");
				Await.until("checkpoints of both pipelines", Duration.ofSeconds(30),
						() -> checkpoints(pool, dst).equals(Set.of("east " + east + ".t", "westward " + west + ".t")));
			});
	}

	private static String[] source(String name, String schema) {
		String prefix = "cdc.sources." + name + ".";
		return new String[] { prefix + "host=" + db.server().host(), prefix + "port=" + db.server().port(),
				prefix + "username=" + db.server().username(), prefix + "password=" + db.server().password(),
				prefix + "tables[0].source=" + schema + ".t" };
	}

	private static Set<String> checkpoints(DataSource pool, String schema) throws Exception {
		Set<String> rows = new HashSet<>();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT pipeline, source_table FROM " + schema
						+ ".tributary_checkpoint WHERE snapshot_done")) {
			while (rs.next()) {
				rows.add(rs.getString(1) + " " + rs.getString(2));
			}
		}
		return rows;
	}

}
