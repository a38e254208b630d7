package io.tributary.autoconfigure;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.autoconfigure.metrics.TributaryMetricsAutoConfiguration;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's patterns in {@code cdc.tables}: a wildcard with an exclusion and a target template, a
 * regular expression with a Kafka-free template of its own, and a table listed on its own. Each
 * table taken is replicated, named after its entry in the status, and has its meters, although the
 * pattern took it after the meters were first bound.
 */
@ExtendWith(DatabaseExtension.class)
class PatternTablesIT {

	private static final Duration WAIT = Duration.ofMinutes(1);

	@Test
	void everyTableAPatternTakesIsReplicatedNamedAfterItsEntryAndMetered(TestDatabase db) {
		String src = db.schema("src");
		String dst = db.schema("dst");
		for (String table : new String[] { "orders_1", "orders_2", "orders_tmp", "log_2025", "log_2026", "items" }) {
			Workload.createOrdersTable(db.dataSource(null), src + "." + table, 200);
		}
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, MetricsAutoConfiguration.class,
					TributaryMetricsAutoConfiguration.class))
			.withUserConfiguration(Registry.class)
			.withPropertyValues("cdc.source.host=" + db.server().host(), "cdc.source.port=" + db.server().port(),
					"cdc.source.username=" + db.server().username(), "cdc.source.password=" + db.server().password(),
					"cdc.target.url=" + db.jdbcUrl(dst), "cdc.target.username=" + db.server().username(),
					"cdc.target.password=" + db.server().password(), "cdc.tables[0].source=" + src + ".orders_*",
					"cdc.tables[0].exclude[0]=" + src + ".orders_tmp", "cdc.tables[0].target={table}_copy",
					"cdc.tables[1].source=regex:" + src + "\\.log_[0-9]{4}", "cdc.tables[1].target=" + dst + ".{table}",
					"cdc.tables[2].source=" + src + ".items", "cdc.flush.interval=100ms")
			.run((context) -> {
				Pipeline pipeline = context.getBean(Pipeline.class);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				Await.until("five tables streaming", WAIT, () -> pipeline.status().tables().size() == 5
						&& pipeline.status().tables().stream().allMatch((t) -> t.phase() == Phase.STREAMING));
				assertThat(pipeline.status().tables()).extracting((t) -> t.name() + " -> " + t.target() + " by " + t.rule())
					.containsExactly(src + ".items -> " + dst + ".items by null",
							src + ".log_2025 -> " + dst + ".log_2025 by cdc.tables[1]",
							src + ".log_2026 -> " + dst + ".log_2026 by cdc.tables[1]",
							src + ".orders_1 -> " + dst + ".orders_1_copy by cdc.tables[0]",
							src + ".orders_2 -> " + dst + ".orders_2_copy by cdc.tables[0]");
				db.server().execute(src, "UPDATE orders_2 SET amount = amount * 2 WHERE id <= 50",
						"DELETE FROM log_2026 WHERE id > 150", "INSERT INTO orders_tmp (customer_id, status, amount, "
								+ "created_at) VALUES (1, 'new', 1, NOW())");
				pipeline.awaitCaughtUp(WAIT);
				TableComparison.assertEqual(db.dataSource(null), src + ".orders_2", db.dataSource(null),
						dst + ".orders_2_copy");
				TableComparison.assertEqual(db.dataSource(null), src + ".log_2026", db.dataSource(null),
						dst + ".log_2026");
				for (TableStatus table : pipeline.status().tables()) {
					Await.until("the meters of " + table.name(), WAIT, () -> {
						// A read of a pipeline meter reads the status anew, which registers new tables' meters.
						registry.get("cdc.pipeline.state").tag("pipeline", pipeline.name()).tag("state", "running")
							.gauge().value();
						return registry.find("cdc.table.phase").tags("pipeline", pipeline.name(), "table", table.name(),
								"phase", "streaming").gauge() != null;
					});
					assertThat(registry.get("cdc.table.phase").tags("pipeline", pipeline.name(), "table", table.name(),
							"phase", "streaming").gauge().value()).isEqualTo(1);
				}
			});
	}

	/**
	 * Shards merged by property, a table copied once, and a table that streams from the head
	 * without a copy, all from {@code application.yml}.
	 */
	@Test
	void mergeSnapshotOnlyAndStartAreReadFromTheProperties(TestDatabase db) {
		String src = db.schema("wsrc");
		String dst = db.schema("wdst");
		for (String table : new String[] { "shard_a", "shard_b", "once", "later" }) {
			Workload.createOrdersTable(db.dataSource(null), src + "." + table, 100);
		}
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.host=" + db.server().host(), "cdc.source.port=" + db.server().port(),
					"cdc.source.username=" + db.server().username(), "cdc.source.password=" + db.server().password(),
					"cdc.target.url=" + db.jdbcUrl(dst), "cdc.target.username=" + db.server().username(),
					"cdc.target.password=" + db.server().password(), "cdc.tables[0].source=" + src + ".shard_*",
					"cdc.tables[0].target=shards", "cdc.tables[0].merge.column=shard", "cdc.tables[0].merge.value=table",
					"cdc.tables[1].source=" + src + ".once", "cdc.tables[1].snapshot=only",
					"cdc.tables[2].source=" + src + ".later", "cdc.tables[2].start=now", "cdc.flush.interval=100ms")
			.run((context) -> {
				Pipeline pipeline = context.getBean(Pipeline.class);
				Await.until("shards and later streaming, once copied", WAIT, () -> pipeline.status().tables().size() == 4
						&& pipeline.status().tables().stream().allMatch((t) -> t.phase() == (t.name().endsWith(".once")
								? Phase.COPIED : Phase.STREAMING)));
				db.server().execute(src, "UPDATE later SET note = 'after start' WHERE id <= 3",
						"UPDATE shard_b SET amount = 7 WHERE id <= 10", "UPDATE once SET note = 'too late'");
				pipeline.awaitCaughtUp(WAIT);
				assertThat(rows(db, dst, "SELECT shard, COUNT(*), SUM(amount = 7) FROM shards GROUP BY shard "
						+ "ORDER BY shard")).containsExactly("shard_a 100 0", "shard_b 100 10");
				assertThat(rows(db, dst, "SELECT CONCAT(id, ' ', note) FROM later ORDER BY id"))
					.containsExactly("1 after start", "2 after start", "3 after start");
				assertThat(rows(db, dst, "SELECT COUNT(*), SUM(note = 'too late') FROM once"))
					.containsExactly("100 0");
			});
	}

	/** Each row of a query's result as its values joined by spaces. */
	private static List<String> rows(TestDatabase db, String schema, String sql) throws SQLException {
		List<String> rows = new ArrayList<>();
		try (Connection connection = db.dataSource(schema).getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			while (rs.next()) {
				StringBuilder row = new StringBuilder();
				for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
					row.append((i > 1) ? " " : "").append(rs.getString(i));
				}
				rows.add(row.toString());
			}
		}
		return rows;
	}

	@Configuration(proxyBeanMethods = false)
	static class Registry {

		@Bean
		SimpleMeterRegistry registry() {
			return new SimpleMeterRegistry();
		}

	}

}
