package io.tributary.autoconfigure;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.apply.ChangeListener;
import io.tributary.pipeline.Pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Each configuration mistake ends startup with a failure analysis that names the property, its
 * value, what is wrong and what to do.
 */
class PropertyValidationTest {

	private static final String[] VALID = { "cdc.source.host=127.0.0.1", "cdc.source.port=1",
			"cdc.source.username=repl", "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica",
			"cdc.tables[0].source=shop.orders" };

	private static final String[] TWO_SOURCES = { "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica",
			"cdc.sources.east.host=127.0.0.1", "cdc.sources.east.port=1", "cdc.sources.east.username=repl",
			"cdc.sources.east.tables[0].source=shop.orders", "cdc.sources.west.host=127.0.0.1",
			"cdc.sources.west.port=1", "cdc.sources.west.username=repl",
			"cdc.sources.west.tables[0].source=shop.items" };

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class));

	static Stream<Arguments> mistakes() {
		return Stream.of(
				arguments(new String[] { "cdc.source.host=" }, "cdc.source.host", "\"\"", "cdc.source.host is empty"),
				arguments(new String[] { "cdc.source.username=" }, "cdc.source.username", "\"\"",
						"cdc.source.username is empty"),
				arguments(new String[] { "cdc.source.port=70000" }, "cdc.source.port", "\"70000\"", "not a TCP port"),
				arguments(new String[] { "cdc.source.server-id=0" }, "cdc.source.server-id", "\"0\"",
						"not a server id"),
				arguments(new String[] { "cdc.source.connect-timeout=0s" }, "cdc.source.connect-timeout", "\"0ms\"",
						"must be longer than zero"),
				arguments(new String[] { "cdc.source.heartbeat-interval=0s" }, "cdc.source.heartbeat-interval",
						"\"0ms\"", "below 1ms"),
				arguments(new String[] { "cdc.tables[1].target=replica.items" }, "cdc.tables[1].source", "(not set)",
						"cdc.tables[1].source is not set"),
				arguments(new String[] { "cdc.tables[1].source=orders" }, "cdc.tables[1].source", "\"orders\"",
						"is not schema.table"),
				arguments(new String[] { "cdc.tables[1].source=regex:shop\\.(orders" }, "cdc.tables[1].source",
						"\"regex:shop\\.(orders\"", "is not a regular expression"),
				arguments(new String[] { "cdc.tables[1].source=shop.items", "cdc.tables[1].exclude[0]=shop.x" },
						"cdc.tables[1].exclude", "\"shop.x\"", "names one table, which leaves nothing to exclude"),
				arguments(new String[] { "cdc.tables[1].source=shop.*", "cdc.tables[1].exclude[0]=x" },
						"cdc.tables[1].exclude[0]", "\"x\"", "names no schema"),
				arguments(new String[] { "cdc.tables[1].source=shop.*", "cdc.tables[1].target=replica.{name}" },
						"cdc.tables[1].target", "\"replica.{name}\"", "has {name}, which stands for nothing"),
				arguments(new String[] { "cdc.tables[1].source=shop.`orders" }, "cdc.tables[1].source",
						"\"shop.`orders\"", "has a quote that is never closed at position 6"),
				arguments(new String[] { "cdc.tables[1].source=`shop`x.orders" }, "cdc.tables[1].source",
						"\"`shop`x.orders\"", "has text after a closing quote at position 7"),
				arguments(new String[] { "cdc.tables[1].source=`a.b`.`c``d`", "cdc.tables[2].source=`A.B` . `C``D`" },
						"cdc.tables[2].source", "\"`A.B` . `C``D`\"",
						"cdc.tables[2].source names `A.B`.`C``D`, which cdc.tables[1].source names already"),
				arguments(new String[] { "cdc.tables[1].source=`odd.schema`.orders", "cdc.tables[1].target=`a.b`.`c" },
						"cdc.tables[1].target", "\"`a.b`.`c\"", "has a quote that is never closed at position 7"),
				arguments(new String[] { "cdc.tables[1].source=`odd.schema`.`orders`" }, "cdc.tables[1].target",
						"(not set)", "(`odd.schema`.orders) would be copied into replica.orders, its default target,"),
				arguments(new String[] { "cdc.tables[1].source=shop.orders", "cdc.tables[1].target=copy" },
						"cdc.tables[1].source", "\"shop.orders\"", "which cdc.tables[0].source names already"),
				arguments(new String[] { "cdc.tables[1].source=shop.items", "cdc.tables[1].target=replica.orders" },
						"cdc.tables[1].target", "\"replica.orders\"",
						"would be copied into replica.orders which is taken (by cdc.tables[0].target)"),
				arguments(new String[] { "cdc.tables[1].source=archive.orders" }, "cdc.tables[1].target", "(not set)",
						"(archive.orders) would be copied into replica.orders, its default target,"),
				arguments(new String[] { "cdc.tables[1].source=shop.tributary_checkpoint" }, "cdc.tables[1].target",
						"(not set)", "taken (by cdc.checkpoint.table)"),
				arguments(new String[] { "cdc.tables[0].merge.column=shard" }, "cdc.tables[0].merge.column", "\"shard\"",
						"names one table, which leaves nothing to merge"),
				arguments(new String[] { "cdc.tables[1].source=shop.orders_*", "cdc.tables[1].target=replica.all_orders",
						"cdc.tables[1].merge.column= " }, "cdc.tables[1].merge.column", "\"\"",
						"cdc.tables[1].merge.column is empty"),
				arguments(new String[] { "cdc.tables[0].start=yesterday" }, "cdc.tables[0].start", "\"yesterday\"",
						"'yesterday' is not a start point"),
				arguments(new String[] { "cdc.tables[0].start=timestamp:2026-12-08T09:30" }, "cdc.tables[0].start",
						"\"timestamp:2026-12-08T09:30\"", "is not an instant with its zone"),
				arguments(new String[] { "cdc.tables[0].start=now", "cdc.tables[0].snapshot=only" },
						"cdc.tables[0].start", "\"now\"", "cdc.tables[0].snapshot is only, which copies it"),
				arguments(new String[] { "cdc.tables[0].target=" }, "cdc.tables[0].target", "\"\"",
						"cdc.tables[0].target is empty"),
				arguments(new String[] { "cdc.target.url=jdbc:mysql://127.0.0.1:1/", "cdc.checkpoint.table=meta.cp",
						"cdc.tables[0].target=orders" },
						"cdc.tables[0].target", "\"orders\"", "the target JDBC URL names no default schema"),
				arguments(new String[] { "cdc.flush.interval=0s" }, "cdc.flush.interval", "\"0ms\"",
						"cdc.flush.interval must be longer than zero"),
				arguments(new String[] { "cdc.flush.concurrency=0" }, "cdc.flush.concurrency", "\"0\"",
						"must be at least 1"),
				arguments(new String[] { "cdc.flush.max-changes=-5" }, "cdc.flush.max-changes", "\"-5\"",
						"must be at least 1"),
				arguments(new String[] { "cdc.flush.batch-rows=0" }, "cdc.flush.batch-rows", "\"0\"",
						"must be at least 1"),
				arguments(new String[] { "cdc.flush.batch-bytes=0" }, "cdc.flush.batch-bytes", "\"0B\"",
						"must be larger than zero"),
				arguments(new String[] { "cdc.copy.threads=0" }, "cdc.copy.threads", "\"0\"", "must be at least 1"),
				arguments(new String[] { "cdc.copy.chunk-rows=0" }, "cdc.copy.chunk-rows", "\"0\"",
						"must be at least 1"),
				arguments(new String[] { "cdc.copy.min-chunk-rows=-1" }, "cdc.copy.min-chunk-rows", "\"-1\"",
						"must be at least 1"),
				arguments(new String[] { "cdc.copy.max-chunk-rows=500" }, "cdc.copy.max-chunk-rows", "\"500\"",
						"below cdc.copy.min-chunk-rows (1000)"),
				arguments(new String[] { "cdc.copy.chunk-time=-1s" }, "cdc.copy.chunk-time", "\"-1s\"",
						"must be longer than zero"),
				arguments(new String[] { "cdc.buffer.soft-limit=0" }, "cdc.buffer.soft-limit", "\"0B\"",
						"would stop the binlog reader"),
				arguments(new String[] { "cdc.buffer.budget=0" }, "cdc.buffer.budget", "\"0B\"",
						"would stop the binlog reader"),
				arguments(new String[] { "cdc.checkpoint.interval=0ms" }, "cdc.checkpoint.interval", "\"0ms\"",
						"must be longer than zero"),
				arguments(new String[] { "cdc.checkpoint.table=" }, "cdc.checkpoint.table", "\"\"",
						"cdc.checkpoint.table is empty"),
				arguments(new String[] { "cdc.checkpoint.pipeline=" }, "cdc.checkpoint.pipeline", "\"\"",
						"cdc.checkpoint.pipeline is empty"),
				arguments(new String[] { "cdc.checksum.chunk-rows=0" }, "cdc.checksum.chunk-rows", "\"0\"",
						"must be at least 1"),
				arguments(new String[] { "cdc.health.max-lag=0s" }, "cdc.health.max-lag", "\"0ms\"",
						"must be longer than zero"),
				arguments(new String[] { "cdc.health.source-down-after=-1s" }, "cdc.health.source-down-after",
						"\"-1s\"", "must be longer than zero"),
				arguments(new String[] { "cdc.health.snapshotting-status=SNAPSHOTTING" },
						"cdc.health.snapshotting-status", "\"SNAPSHOTTING\"", "is not a health status"),
				arguments(new String[] { "cdc.target.max-connections=9" }, "cdc.target.max-connections", "\"9\"",
						"cdc.copy.threads (4) + cdc.flush.concurrency (4) + 2 = 10"),
				arguments(new String[] { "cdc.target.max-connections=6", "cdc.copy.threads=2",
						"cdc.flush.concurrency=3" }, "cdc.target.max-connections", "\"6\"",
						"cdc.copy.threads (2) + cdc.flush.concurrency (3) + 2 = 7"),
				arguments(new String[] { "cdc.target.max-connections=10", "cdc.ha.enabled=true" },
						"cdc.target.max-connections", "\"10\"",
						"+ 2, and 1 for the leader lock (cdc.ha.enabled): 11"),
				arguments(new String[] { "cdc.ha.lease=500ms" }, "cdc.ha.lease", "\"500ms\"", "shorter than 1s"),
				arguments(new String[] { "cdc.ha.lease=0s" }, "cdc.ha.lease", "\"0ms\"", "must be longer than zero"),
				arguments(new String[] { "cdc.ha.poll-interval=0s" }, "cdc.ha.poll-interval", "\"0ms\"",
						"must be longer than zero"),
				arguments(new String[] { "cdc.ha.lease=5s", "cdc.ha.poll-interval=6s" }, "cdc.ha.poll-interval",
						"\"6s\"", "longer than cdc.ha.lease (5s)"),
				arguments(new String[] { "cdc.target.url=" }, "cdc.target.url", "(not set)", "No target database"),
				arguments(new String[] { "cdc.sources.east.username=repl" }, "cdc.sources", "\"[east]\"",
						"cdc.sources and cdc.tables are both set"));
	}

	@ParameterizedTest(name = "{1} {2}")
	@MethodSource("mistakes")
	void refusesTheMistakeNamingThePropertyAndItsValue(String[] properties, String property, String value,
			String reason) {
		assertRefused(this.runner.withPropertyValues(VALID).withPropertyValues(properties), property, value, reason);
	}

	@Test
	void refusesAMissingSourceUser() {
		assertRefused(this.runner.withPropertyValues("cdc.tables[0].source=shop.orders"), "cdc.source.username",
				"(not set)", "cdc.source.username is not set");
	}

	@Test
	void refusesAnEmptyTableList() {
		assertRefused(this.runner.withPropertyValues("cdc.source.username=repl",
				"cdc.target.url=jdbc:mysql://127.0.0.1:1/replica"), "cdc.tables", "(not set)", "cdc.tables is empty");
	}

	@Test
	void aChangeListenerNeedsOnlyTwoTargetConnectionsButNoFewer() {
		this.runner.withPropertyValues(VALID)
			.withPropertyValues("cdc.target.max-connections=2")
			.withUserConfiguration(Listener.class)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(Pipeline.class));
		assertRefused(this.runner.withPropertyValues(VALID)
			.withPropertyValues("cdc.target.max-connections=1")
			.withUserConfiguration(Listener.class), "cdc.target.max-connections", "\"1\"", "at least 2");
	}

	@Test
	void refusesAMissingUserOfOneOfSeveralSources() {
		assertRefused(this.runner.withPropertyValues(TWO_SOURCES).withPropertyValues("cdc.sources.west.username="),
				"cdc.sources.west.username", "\"\"", "cdc.sources.west.username is empty");
	}

	@Test
	void refusesASourceWithoutTablesAmongSeveral() {
		assertRefused(this.runner.withPropertyValues(TWO_SOURCES).withPropertyValues("cdc.sources.north.username=repl"),
				"cdc.sources.north.tables", "(not set)", "cdc.sources.north.tables is empty");
	}

	@Test
	void refusesOneSourceTableOfTwoSourcesCopiedIntoOneTarget() {
		assertRefused(this.runner.withPropertyValues(TWO_SOURCES)
			.withPropertyValues("cdc.sources.west.tables[0].source=shop.orders"), "cdc.sources.west.tables[0].target",
				"(not set)", "cdc.sources.west.tables[0] (shop.orders) would be copied into replica.orders, its default "
						+ "target, which is taken (by cdc.sources.east.tables[0].target)");
	}

	@Test
	void refusesOneSourceTableOfTwoSourcesDeliveredToOneListener() {
		assertRefused(this.runner.withPropertyValues(TWO_SOURCES)
			.withPropertyValues("cdc.sources.west.tables[0].source=shop.orders")
			.withUserConfiguration(Listener.class), "cdc.sources.west.tables[0].source", "\"shop.orders\"",
				"shop.orders is read from two sources into the one ChangeListener");
	}

	@Test
	void refusesTwoSourcesWithOnePipelineName() {
		assertRefused(this.runner.withPropertyValues(TWO_SOURCES).withPropertyValues("cdc.sources.west.pipeline=east"),
				"cdc.sources.west.pipeline", "\"east\"",
				"cdc.sources.west and cdc.sources.east both name their pipeline 'east'");
	}

	@Test
	void refusesACheckpointStoreBeanBesideSeveralSources() {
		assertRefused(this.runner.withPropertyValues(TWO_SOURCES).withUserConfiguration(Store.class), "cdc.sources",
				"\"[east, west]\"", "The application's CheckpointStore bean [checkpoints] replaces part of the one "
						+ "pipeline of cdc.source");
	}

	@Test
	void refusesTwoChangeListenersWithoutNamingAProperty() {
		this.runner.withPropertyValues(VALID).withUserConfiguration(Listener.class, AnotherListener.class)
			.run((context) -> {
				FailureAnalysis analysis = new TributaryConfigurationFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription())
					.startsWith("Tributary cannot start: Found 2 ChangeListener beans [listener, anotherListener]")
					.doesNotContain("Property:");
				assertThat(analysis.getAction()).contains("Combine them into one bean");
			});
	}

	private static void assertRefused(ApplicationContextRunner runner, String property, String value, String reason) {
		runner.run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new TributaryConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).as("failure analysis of %s", context.getStartupFailure()).isNotNull();
			assertThat(analysis.getDescription()).contains(reason)
				.contains("Property: " + property + System.lineSeparator())
				.endsWith("Value: " + value);
			assertThat(analysis.getAction()).isNotBlank();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Listener {

		@Bean
		ChangeListener listener() {
			return (batch) -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AnotherListener {

		@Bean
		ChangeListener anotherListener() {
			return (batch) -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Store {

		@Bean
		InMemoryCheckpointStore checkpoints() {
			return new InMemoryCheckpointStore();
		}

	}

}
