package io.tributary.autoconfigure.metrics;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * Prints what a Prometheus scrape of the meters costs at 10, 100 and 1,000 tables, one in fifty
 * failed, with each choice of {@code cdc.metrics.tables}: the {@code cdc_} lines, the bytes, and the
 * scrape time (median of 15 after a warm-up). A measurement, not a test: it asserts nothing, and its name keeps it out of
 * the build's test runs; run it with {@code -Dtest=MetricsFigures}.
 */
class MetricsFigures {

	private static final int RUNS = 15;

	@Test
	void print() {
		StringBuilder figures = new StringBuilder(String.format(Locale.ROOT, "%n%-7s %-9s %10s %12s %10s%n", "tables",
				"mode", "cdc lines", "bytes", "median ms"));
		for (int tables : List.of(10, 100, 1_000)) {
			PipelineStatus status = status(tables);
			for (MeteredTables mode : MeteredTables.values()) {
				PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
				new TributaryMetrics(List.of("default"), (name) -> status, mode, RecentStatus.MAX_AGE_NANOS)
					.bindTo(registry);
				figures.append(scrape(registry, tables, mode.name().toLowerCase(Locale.ROOT)));
			}
		}
		System.out.println(figures);
	}

	/** A pipeline whose tables stream but one in fifty, which failed. */
	private static PipelineStatus status(int tables) {
		List<TableStatus> statuses = IntStream.range(0, tables)
			.mapToObj((i) -> TableStatus.builder(String.format(Locale.ROOT, "shop.t_%04d", i), "replica.t",
					(i % 50 == 7) ? TableStatus.Phase.FAILED : TableStatus.Phase.STREAMING)
				.flushes(new TableStatus.Flushes(1, 0, 1, 0, 1_000, 0))
				.build())
			.toList();
		PipelineStatus.Source source = new PipelineStatus.Source("db", 3306, 1, "MYSQL", "8.0.31", "ON", true, null, 0,
				0, null);
		return new PipelineStatus("default", PipelineStatus.State.RUNNING, source,
				new PipelineStatus.Positions(null, null, null), 0, null, statuses, null, null, true,
				new PipelineStatus.Counters(0, 0, 0, 0, 0));
	}

	static String scrape(PrometheusMeterRegistry registry, int tables, String mode) {
		for (int i = 0; i < 5; i++) {
			registry.scrape();
		}
		long[] nanos = new long[RUNS];
		String text = "";
		for (int i = 0; i < RUNS; i++) {
			long start = System.nanoTime();
			text = registry.scrape();
			nanos[i] = System.nanoTime() - start;
		}
		Arrays.sort(nanos);
		long lines = text.lines().filter((line) -> line.startsWith("cdc_")).count();
		return String.format(Locale.ROOT, "%-7d %-9s %,10d %,12d %10.1f%n", tables, mode, lines,
				text.getBytes(StandardCharsets.UTF_8).length, nanos[RUNS / 2] / 1e6);
	}

}
