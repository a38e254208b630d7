package io.tributary.autoconfigure.metrics;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.copy.CopySizing;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;

import static org.assertj.core.api.Assertions.assertThat;

class TributaryMetricsAutoConfigurationTest {

	private static final AutoConfigurations METRICS = AutoConfigurations.of(MetricsAutoConfiguration.class,
			SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class,
				TributaryMetricsAutoConfiguration.class))
		.withPropertyValues("cdc.source.host=127.0.0.1", "cdc.source.port=1", "cdc.source.username=repl",
				"cdc.source.server-id=4242", "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica",
				"cdc.tables[0].source=shop.orders", "cdc.tables[1].source=shop.order_items");

	@Test
	void bindsThePipelineAndEveryTableToTheRegistry() {
		this.runner.withConfiguration(METRICS).run((context) -> {
			assertThat(context).hasSingleBean(TributaryMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("cdc.lag").tag("pipeline", "default").timeGauge()).isNotNull();
			assertThat(registry.get("cdc.pipeline.state").tag("pipeline", "default").gauges())
				.extracting((gauge) -> gauge.getId().getTag("state"))
				.containsExactlyInAnyOrder("starting", "running", "stopping", "stopped", "failed", "standby");
			assertThat(registry.get("cdc.pipeline.state").tag("pipeline", "default").gauges().stream()
				.mapToDouble((gauge) -> gauge.value()).sum()).as("one state at a time").isEqualTo(1);
			for (String table : List.of("shop.orders", "shop.order_items")) {
				assertThat(registry.get("cdc.buffer.keys").tags("pipeline", "default", "table", table).gauge().value())
					.isZero();
				assertThat(registry.get("cdc.events").tags("pipeline", "default", "table", table).functionCounters())
					.extracting((counter) -> counter.getId().getTag("type"))
					.containsExactlyInAnyOrder("insert", "update", "delete", "truncate");
				assertThat(registry.get("cdc.flush").tags("pipeline", "default", "table", table).functionTimers())
					.extracting((timer) -> timer.getId().getTag("outcome"))
					.containsExactlyInAnyOrder("ok", "failed");
			}
		});
	}

	@Test
	void cdcMetricsTablesChoosesWhichTablesHaveMeters() {
		this.runner.withConfiguration(METRICS).withPropertyValues("cdc.metrics.tables=none").run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.find("cdc.table.phase").meters()).isEmpty();
			assertThat(registry.get("cdc.pipeline.tables").tags("pipeline", "default", "phase", "starting").gauge()
				.value()).isEqualTo(2);
		});
		// Not started, both tables are starting: they need attention.
		this.runner.withConfiguration(METRICS).withPropertyValues("cdc.metrics.tables=trouble").run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("cdc.table.phase").tag("phase", "starting").gauges())
				.extracting((gauge) -> gauge.getId().getTag("table"))
				.containsExactlyInAnyOrder("shop.orders", "shop.order_items");
		});
	}

	@Test
	void backsOffWithoutMicrometer() {
		// The registry bean alone would satisfy the other condition; only the missing class keeps the binder out.
		this.runner.withUserConfiguration(Registry.class)
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(TributaryMetrics.class));
	}

	@Test
	void backsOffWithoutAMeterRegistry() {
		this.runner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(TributaryMetrics.class));
	}

	@Test
	void backsOffWhenReplicationIsDisabled() {
		this.runner.withConfiguration(METRICS)
			.withPropertyValues("cdc.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(TributaryMetrics.class));
	}

	@Test
	void usesTheApplicationsBinder() {
		this.runner.withConfiguration(METRICS).withUserConfiguration(OwnBinder.class).run((context) -> {
			assertThat(context).hasSingleBean(TributaryMetrics.class);
			assertThat(context.getBean(TributaryMetrics.class)).isSameAs(context.getBean(OwnBinder.class).binder);
		});
	}

	@Test
	void tagsTheMetersOfSeveralPipelinesByName() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					TributaryMetricsAutoConfiguration.class))
			.withUserConfiguration(TwoPipelines.class)
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("cdc.source.connected").gauges())
					.extracting((gauge) -> gauge.getId().getTag("pipeline"))
					.containsExactlyInAnyOrder("orders", "billing");
				assertThat(registry.get("cdc.table.phase").tag("phase", "starting").gauges())
					.extracting((gauge) -> gauge.getId().getTag("pipeline") + "/" + gauge.getId().getTag("table"))
					.containsExactlyInAnyOrder("orders/shop.orders", "orders/shop.order_items",
							"billing/billing.invoices");
				assertThat(registry.get("cdc.table.phase")
					.tags("pipeline", "billing", "table", "billing.invoices", "phase", "starting")
					.gauge()
					.value()).isEqualTo(1);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Registry {

		@Bean
		SimpleMeterRegistry registry() {
			return new SimpleMeterRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnBinder {

		final TributaryMetrics binder;

		OwnBinder(TributaryPipelines pipelines) {
			this.binder = new TributaryMetrics(pipelines);
		}

		@Bean
		TributaryMetrics ownMetrics() {
			return this.binder;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Import(Registry.class)
	static class TwoPipelines {

		@Bean(destroyMethod = "close")
		HikariDataSource unusedPool() {
			HikariDataSource pool = new HikariDataSource();
			pool.setJdbcUrl("jdbc:mysql://127.0.0.1:1/replica");
			return pool;
		}

		@Bean
		TributaryPipelines pipelines(HikariDataSource unusedPool) {
			return new TributaryPipelines(List.of(pipeline("orders", unusedPool, "shop.orders", "shop.order_items"),
					pipeline("billing", unusedPool, "billing.invoices")));
		}

		static Pipeline pipeline(String name, DataSource pool, String... tables) {
			SourceSettings source = new SourceSettings("127.0.0.1", 1, "repl", "", 4242, null, null);
			List<TableMapping> mappings = Arrays.stream(tables)
				.map((table) -> new TableMapping(TableId.parse(table, null), TableId.parse(table, null)))
				.toList();
			// Never started: the meters read the status of pipelines that have not begun.
			PipelineSettings settings = PipelineSettings
				.builder(source, mappings, TableId.parse("replica.tributary_checkpoint", null))
				.name(name)
				.flushInterval(Duration.ofSeconds(1))
				.copy(new CopySizing(1, 1_000, 100, 10_000, Duration.ofMillis(500)))
				.bufferSoftLimitBytes(-1)
				.applyConcurrency(1)
				.build();
			return new Pipeline(settings, pool, pool);
		}

	}

}
