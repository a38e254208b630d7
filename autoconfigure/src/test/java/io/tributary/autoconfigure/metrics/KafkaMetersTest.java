package io.tributary.autoconfigure.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.kafka.KafkaSinks;
import io.tributary.kafka.TopicCreation;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.SnapshotMode;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;
import io.tributary.status.SinkStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table published to Kafka has meters of what the brokers acknowledged, tagged with its topic;
 * a table copied into a target table has none.
 */
class KafkaMetersTest {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	/** Never connects: a sink opens its producer only when its pipeline starts. */
	private final KafkaSinks sinks = new KafkaSinks(Map.of("bootstrap.servers", "127.0.0.1:1"),
			TopicCreation.DISABLED);

	@AfterEach
	void close() {
		this.sinks.close();
	}

	/**
	 * Returns a pipeline named {@code eu}, never started, that publishes {@code shop.orders} to the
	 * topic {@code eu.shop.orders} and copies {@code shop.customers} into a target table.
	 */
	static Pipeline kafkaPipeline(KafkaSinks sinks) {
		SourceSettings source = new SourceSettings("127.0.0.1", 1, "repl", "", 4242, null, null);
		List<TableMapping> tables = List.of(
				TableMapping.toSink(TableId.parse("shop.orders", null), List.of(), SnapshotMode.AUTO,
						sinks.sink("eu.shop.orders")),
				new TableMapping(TableId.parse("shop.customers", null), TableId.parse("replica.customers", null)));
		return new Pipeline(PipelineSettings.of(source, tables, TableId.parse("replica.cp", null))
			.withName("eu")
			.withFlushInterval(Duration.ofSeconds(1)), null, null);
	}

	@Test
	void onlyATablePublishedToKafkaHasKafkaMetersTaggedWithItsTopic() {
		new TributaryMetrics(new TributaryPipelines(List.of(kafkaPipeline(this.sinks)))).bindTo(this.registry);

		assertThat(this.registry.get("cdc.kafka.records.sent")
			.tags("pipeline", "eu", "table", "shop.orders", "topic", "eu.shop.orders")
			.functionCounter()
			.count()).as("records sent before the pipeline started").isZero();
		assertThat(this.registry.get("cdc.kafka.send.errors").tags("table", "shop.orders").functionCounter().count())
			.isZero();
		assertThat(this.registry.find("cdc.kafka.records.sent").tags("table", "shop.customers").meters()).isEmpty();
		assertThat(this.registry.find("cdc.kafka.send.errors").tags("table", "shop.customers").meters()).isEmpty();
	}

	@Test
	void theCountersReadWhatTheSinkReports() {
		AtomicReference<TableStatus> status = new AtomicReference<>(kafkaTable(null));
		TableMeters.register(this.registry, status::get, "eu", "shop.orders", new Destination.Topic("eu.shop.orders"));
		assertThat(this.registry.get("cdc.kafka.records.sent").functionCounter().count()).isZero();

		status.set(kafkaTable(new SinkStatus("kafka", "eu.shop.orders", 1_204, 3, Map.of("0", 100L))));
		assertThat(this.registry.get("cdc.kafka.records.sent").functionCounter().count()).isEqualTo(1_204);
		assertThat(this.registry.get("cdc.kafka.send.errors").functionCounter().count()).isEqualTo(3);
	}

	private static TableStatus kafkaTable(SinkStatus sink) {
		return TableStatus.builder("shop.orders", "(kafka).eu.shop.orders", Phase.STREAMING)
			.snapshotDone(true)
			.allChangesFlushed(true)
			.sink(sink)
			.build();
	}

}
