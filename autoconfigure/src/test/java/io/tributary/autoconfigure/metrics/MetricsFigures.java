package io.tributary.autoconfigure.metrics;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import io.tributary.autoconfigure.TributaryPipelines;

/**
 * Prints what a Prometheus scrape of the meters costs at 10, 100 and 1,000 tables of a pipeline
 * that was never started: the {@code cdc_} lines, the bytes, and the scrape time (median of 15
 * after a warm-up). A measurement, not a test: it asserts nothing, and its name keeps it out of
 * the build's test runs; run it with {@code -Dtest=MetricsFigures}.
 */
class MetricsFigures {

	private static final int RUNS = 15;

	@Test
	void print() {
		StringBuilder figures = new StringBuilder(String.format(Locale.ROOT, "%n%-7s %-9s %10s %12s %10s%n", "tables",
				"mode", "cdc lines", "bytes", "median ms"));
		for (int tables : List.of(10, 100, 1_000)) {
			String[] names = IntStream.range(0, tables)
				.mapToObj((i) -> String.format(Locale.ROOT, "shop.t_%04d", i))
				.toArray(String[]::new);
			TributaryPipelines pipelines = new TributaryPipelines(
					List.of(TributaryMetricsAutoConfigurationTest.TwoPipelines.pipeline("default", null, names)));
			PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
			new TributaryMetrics(pipelines).bindTo(registry);
			figures.append(scrape(registry, tables, "all"));
		}
		System.out.println(figures);
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
