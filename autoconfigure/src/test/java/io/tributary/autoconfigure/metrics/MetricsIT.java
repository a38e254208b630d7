package io.tributary.autoconfigure.metrics;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.pipeline.Pipeline;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pipeline set up by the auto-configuration, with a meter registry in the application: its
 * meters follow the snapshot, then the changes written while it streams, a truncation and a schema
 * change that stops one table.
 */
@ExtendWith(DatabaseExtension.class)
class MetricsIT {

	private static final Duration WAIT = Duration.ofMinutes(1);

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
	}

	@Test
	void metersFollowTheSnapshotAndTheChangesStreamedAfterIt() {
		String src = db.schema("src");
		String dst = db.schema("dst");
		StringBuilder rows = new StringBuilder();
		for (int id = 1; id <= 100; id++) {
			rows.append((id > 1) ? ", " : "").append("(").append(id).append(", 'v").append(id).append("')");
		}
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO t VALUES " + rows,
				"CREATE TABLE u (id INT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO u VALUES (1, 'a')");
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, MetricsAutoConfiguration.class,
					TributaryMetricsAutoConfiguration.class))
			.withUserConfiguration(Registry.class)
			.withPropertyValues("cdc.source.host=" + db.server().host(), "cdc.source.port=" + db.server().port(),
					"cdc.source.username=" + db.server().username(), "cdc.source.password=" + db.server().password(),
					"cdc.target.url=" + db.jdbcUrl(dst), "cdc.target.username=" + db.server().username(),
					"cdc.target.password=" + db.server().password(), "cdc.tables[0].source=" + src + ".t",
					"cdc.tables[1].source=" + src + ".u", "cdc.flush.interval=100ms", "cdc.checkpoint.interval=200ms")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				Pipeline pipeline = context.getBean(Pipeline.class);
				Meters t = new Meters(registry, pipeline.name(), src + ".t");
				Meters u = new Meters(registry, pipeline.name(), src + ".u");

				Await.until("both tables streaming", WAIT,
						() -> t.gauge("cdc.table.phase", "phase", "streaming") == 1
								&& u.gauge("cdc.table.phase", "phase", "streaming") == 1);
				assertThat(t.gauge("cdc.copy.complete")).as("cdc.copy.complete").isEqualTo(1);
				assertThat(t.counter("cdc.copy.rows")).as("cdc.copy.rows").isEqualTo(100);
				assertThat(t.counter("cdc.copy.chunks")).as("cdc.copy.chunks").isPositive();
				assertThat(t.pipelineGauge("cdc.pipeline.state", "state", "running")).as("cdc.pipeline.state{running}")
					.isEqualTo(1);
				assertThat(t.pipelineGauge("cdc.source.connected")).as("cdc.source.connected").isEqualTo(1);
				assertThat(t.pipelineGauge("cdc.source.gtid")).as("cdc.source.gtid")
					.isEqualTo(1);
				double transactionsBefore = t.pipelineCounter("cdc.transactions");

				db.server().execute(src, "INSERT INTO t VALUES (101, 'a'), (102, 'b'), (103, 'c')",
						"UPDATE t SET v = 'changed' WHERE id IN (1, 2)", "DELETE FROM t WHERE id = 3");
				pipeline.awaitCaughtUp(WAIT);
				Await.until("the six changes applied and counted", WAIT, () -> t.counter("cdc.changes.applied") == 6);
				assertThat(t.counter("cdc.events", "type", "insert")).as("cdc.events{insert}").isEqualTo(3);
				assertThat(t.counter("cdc.events", "type", "update")).as("cdc.events{update}").isEqualTo(2);
				assertThat(t.counter("cdc.events", "type", "delete")).as("cdc.events{delete}").isEqualTo(1);
				assertThat(t.counter("cdc.events", "type", "truncate")).as("cdc.events{truncate}").isZero();
				assertThat(t.pipelineCounter("cdc.transactions")).as("cdc.transactions")
					.isGreaterThanOrEqualTo(transactionsBefore + 3);
				assertThat(t.pipelineCounter("cdc.binlog.events")).as("cdc.binlog.events").isPositive();
				assertThat(t.counter("cdc.buffer.added")).as("cdc.buffer.added").isEqualTo(6);
				assertThat(t.counter("cdc.apply.rows.upserted")).as("cdc.apply.rows.upserted").isEqualTo(5);
				assertThat(t.counter("cdc.apply.keys.deleted")).as("cdc.apply.keys.deleted").isEqualTo(1);
				assertThat(t.counter("cdc.apply.statements", "outcome", "ok")).as("cdc.apply.statements{ok}")
					.isPositive();
				assertThat(t.gauge("cdc.apply.concurrency")).as("cdc.apply.concurrency").isPositive();
				assertThat(t.timerCount("cdc.flush", "outcome", "ok")).as("cdc.flush{ok} count").isPositive();
				assertThat(t.timerTotal("cdc.flush", "outcome", "ok")).as("cdc.flush{ok} total time").isPositive();
				assertThat(t.timerCount("cdc.flush", "outcome", "failed")).as("cdc.flush{failed} count").isZero();
				assertThat(t.counter("cdc.flush.rows", "outcome", "ok")).as("cdc.flush.rows{ok}").isEqualTo(6);
				assertThat(t.gauge("cdc.buffer.keys")).as("cdc.buffer.keys").isZero();
				assertThat(t.gauge("cdc.buffer.soft.limit")).as("cdc.buffer.soft.limit").isPositive();
				assertThat(t.timeGaugeMillis("cdc.lag")).as("cdc.lag").isNotNaN().isGreaterThanOrEqualTo(0);
				assertThat(t.pipelineGauge("cdc.lag.bytes")).as("cdc.lag.bytes present").isNotNull();
				assertThat(t.pipelineGauge("cdc.binlog.offset", "position", "head")).as("cdc.binlog.offset{head}")
					.isPositive();
				assertThat(t.pipelineGauge("cdc.binlog.file", "position", "confirmed")).as("cdc.binlog.file{confirmed}")
					.isNotNaN();
				Await.until("a checkpoint written", WAIT, () -> t.pipelineCounter("cdc.checkpoint.writes") > 0);
				assertThat(t.pipelineCounter("cdc.checkpoint.failures")).as("cdc.checkpoint.failures").isZero();

				db.server().execute(src, "TRUNCATE TABLE u");
				Await.until("the truncation counted", WAIT, () -> u.counter("cdc.events", "type", "truncate") == 1);
				db.server().execute(src, "ALTER TABLE u DROP COLUMN v");
				Await.until("table u failed", WAIT, () -> u.gauge("cdc.table.phase", "phase", "failed") == 1);
				assertThat(t.pipelineCounter("cdc.schema.mismatches")).as("cdc.schema.mismatches").isEqualTo(1);
				assertThat(t.gauge("cdc.table.phase", "phase", "streaming")).as("cdc.table.phase{t, streaming}")
					.isEqualTo(1);
				assertThat(t.pipelineCounter("cdc.decode.errors")).as("cdc.decode.errors").isZero();
			});
	}

	/** Reads one pipeline's and one table's meters by name, failing with the name of a missing one. */
	private record Meters(MeterRegistry registry, String pipeline, String table) {

		double pipelineGauge(String name, String... tags) {
			return this.registry.get(name).tag("pipeline", this.pipeline).tags(tags).gauge().value();
		}

		double pipelineCounter(String name) {
			return this.registry.get(name).tag("pipeline", this.pipeline).functionCounter().count();
		}

		double gauge(String name, String... tags) {
			return this.registry.get(name).tags("pipeline", this.pipeline, "table", this.table).tags(tags).gauge()
				.value();
		}

		double timeGaugeMillis(String name) {
			return this.registry.get(name).tag("pipeline", this.pipeline).timeGauge().value(TimeUnit.MILLISECONDS);
		}

		double counter(String name, String... tags) {
			return this.registry.get(name).tags("pipeline", this.pipeline, "table", this.table).tags(tags)
				.functionCounter().count();
		}

		double timerCount(String name, String... tags) {
			return this.registry.get(name).tags("pipeline", this.pipeline, "table", this.table).tags(tags)
				.functionTimer().count();
		}

		double timerTotal(String name, String... tags) {
			return this.registry.get(name).tags("pipeline", this.pipeline, "table", this.table).tags(tags)
				.functionTimer().totalTime(TimeUnit.NANOSECONDS);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Registry {

		@Bean
		SimpleMeterRegistry registry() {
			return new SimpleMeterRegistry();
		}

	}

}
