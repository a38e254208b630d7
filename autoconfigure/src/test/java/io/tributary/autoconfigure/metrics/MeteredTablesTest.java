package io.tributary.autoconfigure.metrics;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cdc.metrics.tables}: every table has meters with {@code all}, only those that need
 * attention with {@code trouble}, none with {@code none}; the pipeline's meters and its tables'
 * totals are there in every mode; a table that joins, falls into trouble or recovers gets or loses
 * its meters at the next reading of its pipeline's status, which a scrape makes.
 */
class MeteredTablesTest {

	private final Map<String, PipelineStatus> statuses = new ConcurrentHashMap<>();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void allMetersEveryTableAndATableThatJoinsLater() {
		TributaryMetrics metrics = bind(MeteredTables.ALL, streaming("shop.a"), failed("shop.b"));
		assertThat(metered(metrics)).containsExactlyInAnyOrder("shop.a", "shop.b");
		assertThat(this.registry.get("cdc.table.phase").tags("table", "shop.a", "phase", "streaming").gauge().value())
			.isEqualTo(1);

		set(streaming("shop.a"), streaming("shop.b"), streaming("shop.c"));
		scrape();
		assertThat(metered(metrics)).as("a table a pattern took later").containsExactlyInAnyOrder("shop.a", "shop.b",
				"shop.c");
		assertThat(this.registry.find("cdc.changes.applied").tags("table", "shop.c").functionCounter()).isNotNull();
		assertTotals(3, 0);
	}

	@Test
	void troubleMetersOnlyTheTablesThatNeedAttentionAndRemovesThoseThatRecover() {
		TributaryMetrics metrics = bind(MeteredTables.TROUBLE, streaming("shop.a"), failed("shop.b"),
				streaming("shop.c"));
		assertThat(metered(metrics)).containsExactly("shop.b");
		assertThat(this.registry.find("cdc.table.phase").tags("table", "shop.a").meters()).isEmpty();
		assertThat(this.registry.get("cdc.table.phase").tags("table", "shop.b", "phase", "failed").gauge().value())
			.isEqualTo(1);
		assertTotals(3, 1);

		TableStatus flushFailing = streaming("shop.c").toBuilder()
			.lastFlush(new TableStatus.Flush(Instant.EPOCH, 10, 30_000, "Lock wait timeout exceeded"))
			.build();
		set(streaming("shop.a"), streaming("shop.b"), flushFailing, paused("shop.d"));
		scrape();
		assertThat(metered(metrics)).as("b recovered, c's flush fails, d joined paused")
			.containsExactlyInAnyOrder("shop.c", "shop.d");
		assertThat(this.registry.find("cdc.table.phase").tags("table", "shop.b").meters())
			.as("meters of a table that recovered are gone from the registry").isEmpty();
		assertThat(this.registry.find("cdc.flush").tags("table", "shop.c").functionTimers()).hasSize(2);
		assertTotals(4, 2);

		set(streaming("shop.a"), streaming("shop.b"), streaming("shop.c"));
		scrape();
		assertThat(metered(metrics)).as("d left the pipeline, c recovered").isEmpty();
		assertThat(this.registry.getMeters()).allMatch((meter) -> meter.getId().getTag("table") == null);
	}

	@Test
	void noneMetersNoTableButKeepsThePipelinesMetersAndTotals() {
		TributaryMetrics metrics = bind(MeteredTables.NONE, streaming("shop.a"), failed("shop.b"));
		set(streaming("shop.a"), failed("shop.b"), failed("shop.c"));
		scrape();
		assertThat(metered(metrics)).isEmpty();
		assertThat(this.registry.getMeters()).isNotEmpty()
			.allMatch((meter) -> meter.getId().getTag("table") == null);
		assertThat(this.registry.get("cdc.lag").tag("pipeline", "main").timeGauge()).isNotNull();
		assertTotals(3, 2);
		assertThat(this.registry.get("cdc.pipeline.tables").tags("pipeline", "main", "phase", "failed").gauge().value())
			.isEqualTo(2);
	}

	@Test
	void theDefaultIsEveryTable() {
		assertThat(MeteredTables.DEFAULT).isEqualTo(MeteredTables.ALL);
	}

	private TributaryMetrics bind(MeteredTables mode, TableStatus... tables) {
		set(tables);
		// Every read is fresh: no reading serves a second time.
		TributaryMetrics metrics = new TributaryMetrics(List.of("main"), this.statuses::get, mode, 0);
		metrics.bindTo(this.registry);
		return metrics;
	}

	private void set(TableStatus... tables) {
		PipelineStatus.Source source = new PipelineStatus.Source("db", 3306, 1, "MYSQL", "8.0.31", "ON", true, null, 0,
				0, null);
		this.statuses.put("main", new PipelineStatus("main", PipelineStatus.State.RUNNING, source,
				new PipelineStatus.Positions(null, null, null), 0, null, List.of(tables), null, null, true,
				new PipelineStatus.Counters(0, 0, 0, 0, 0)));
	}

	/** Reads the meters, as a scrape does; the pipeline's meters read its status anew. */
	private void scrape() {
		this.registry.getMeters().forEach((meter) -> meter.measure().forEach((measurement) -> measurement.getValue()));
	}

	private Set<String> metered(TributaryMetrics metrics) {
		return metrics.metered(this.registry).stream().map((key) -> key.get(1)).collect(Collectors.toSet());
	}

	private void assertTotals(int tables, int trouble) {
		MeterRegistry registry = this.registry;
		double counted = registry.get("cdc.pipeline.tables").tag("pipeline", "main").gauges().stream()
			.mapToDouble((gauge) -> gauge.value())
			.sum();
		assertThat(counted).as("tables counted by phase").isEqualTo(tables);
		assertThat(registry.get("cdc.pipeline.tables.trouble").tag("pipeline", "main").gauge().value()).isEqualTo(trouble);
		assertThat(registry.get("cdc.pipeline.changes.applied").tag("pipeline", "main").functionCounter().count())
			.isEqualTo(100.0 * tables);
		assertThat(registry.get("cdc.pipeline.buffer.bytes").tag("pipeline", "main").gauge().value()).isEqualTo(10.0 * tables);
	}

	private static TableStatus streaming(String name) {
		return TableStatus.builder(name, "replica." + name.substring(5), Phase.STREAMING)
			.changesApplied(100)
			.buffer(new TableStatus.Buffer(1, 10, -1, 0, 0, 0, 0, 0))
			.lastFlush(new TableStatus.Flush(Instant.EPOCH, 1, 1, "ok"))
			.flushes(new TableStatus.Flushes(1, 0, 1, 0, 1_000, 0))
			.build();
	}

	private static TableStatus failed(String name) {
		return streaming(name).toBuilder().phase(Phase.FAILED).lastError("broken").build();
	}

	private static TableStatus paused(String name) {
		return streaming(name).toBuilder().phase(Phase.PAUSED).build();
	}

}
