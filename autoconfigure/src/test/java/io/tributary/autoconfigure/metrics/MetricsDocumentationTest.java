package io.tributary.autoconfigure.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.kafka.KafkaSinks;
import io.tributary.kafka.TopicCreation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/metrics.md lists every meter the binder registers, with the tags it carries and the names
 * Prometheus gives it, and nothing else.
 */
class MetricsDocumentationTest {

	private static final Path DOCUMENT = Path.of("..", "docs", "metrics.md");

	private static final Pattern CODE = Pattern.compile("`([^`]+)`");

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	/** Never connects: the pipeline publishing to it is not started. */
	private final KafkaSinks sinks = new KafkaSinks(Map.of("bootstrap.servers", "127.0.0.1:1"),
			TopicCreation.DISABLED);

	@BeforeEach
	void bind() {
		new TributaryMetrics(new TributaryPipelines(List.of(TributaryMetricsAutoConfigurationTest.TwoPipelines
			.pipeline("default", null, "shop.orders"), KafkaMetersTest.kafkaPipeline(this.sinks))))
			.bindTo(this.registry);
	}

	@AfterEach
	void close() {
		this.sinks.close();
	}

	@Test
	void everyMeterIsDocumentedAndEveryDocumentedMeterExists() throws IOException {
		Set<String> registered = this.registry.getMeters().stream().map((meter) -> meter.getId().getName())
			.collect(Collectors.toCollection(TreeSet::new));
		Set<String> documented = rows().stream().map(Row::name).collect(Collectors.toCollection(TreeSet::new));
		assertThat(documented).isEqualTo(registered);
	}

	@Test
	void documentedTagsAreTheMetersTags() throws IOException {
		for (Row row : rows()) {
			for (Meter meter : this.registry.find(row.name()).meters()) {
				assertThat(meter.getId().getTags().stream().map(Tag::getKey).collect(Collectors.toSet()))
					.as("tags of %s", row.name())
					.isEqualTo(Set.copyOf(row.tags()));
			}
		}
	}

	@Test
	void documentedPrometheusNamesAreWhatTheRegistryWrites() throws IOException {
		Set<String> written = Arrays.stream(this.registry.scrape().split("\n"))
			.filter((line) -> !line.startsWith("#") && !line.isBlank())
			.map((line) -> line.substring(0, line.indexOf('{')))
			.collect(Collectors.toSet());
		List<String> documented = rows().stream().flatMap((row) -> row.prometheus().stream()).toList();
		assertThat(written).containsAll(documented);
		assertThat(documented).as("every series family is documented").containsAll(written);
	}

	private static List<Row> rows() throws IOException {
		List<Row> rows = new ArrayList<>();
		for (String line : Files.readAllLines(DOCUMENT)) {
			if (!line.startsWith("| `cdc.")) {
				continue;
			}
			String[] cells = line.split("\\|");
			rows.add(new Row(codes(cells[1]).get(0), codes(cells[2]), codes(cells[4])));
		}
		assertThat(rows).as("meter rows in %s", DOCUMENT).isNotEmpty();
		return rows;
	}

	private static List<String> codes(String cell) {
		List<String> codes = new ArrayList<>();
		Matcher matcher = CODE.matcher(cell);
		while (matcher.find()) {
			codes.add(matcher.group(1));
		}
		return codes;
	}

	private record Row(String name, List<String> prometheus, List<String> tags) {

	}

}
