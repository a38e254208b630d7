package io.tributary.kafka;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.tributary.checkpoint.CheckpointStore;
import io.tributary.checkpoint.JdbcCheckpointStore;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.SnapshotMode;
import io.tributary.pipeline.TableMapping;
import io.tributary.pipeline.TableRule;
import io.tributary.schema.Column;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;
import io.tributary.source.SourceSettings;
import io.tributary.test.Await;
import io.tributary.test.SchemaPair;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fixture of a Kafka test: a source schema on the shared test server, its checkpoint table in
 * the target schema, a broker, and pipelines that publish tables of the source to topics; the
 * compacted view of a topic (key to last value, a tombstone removing the key) and the source's rows
 * in the same form, to compare row by row.
 */
final class KafkaReplication extends SchemaPair {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final KraftBroker broker;

	private final long serverId = 10_000 + ThreadLocalRandom.current().nextInt(1_000_000);

	KafkaReplication(TestDatabase database, String name, KraftBroker broker) {
		super(database, name);
		this.broker = broker;
	}

	/**
	 * Returns the Kafka sinks of a test: its broker, short timeouts so that a stopped broker fails
	 * flushes within seconds, and topics created when missing.
	 */
	KafkaSinks sinks(TopicCreation creation) {
		return sinks(creation, Map.of());
	}

	/** Returns the Kafka sinks of a test with some producer properties of its own. */
	KafkaSinks sinks(TopicCreation creation, Map<String, Object> overrides) {
		Map<String, Object> properties = new HashMap<>();
		properties.put("bootstrap.servers", this.broker.bootstrapServers());
		properties.put("linger.ms", 5);
		properties.put("request.timeout.ms", 1_500);
		properties.put("delivery.timeout.ms", 4_000);
		properties.put("max.block.ms", 4_000);
		properties.put("retry.backoff.ms", 100);
		properties.put("reconnect.backoff.max.ms", 500);
		properties.put("default.api.timeout.ms", 10_000);
		properties.putAll(overrides);
		return new KafkaSinks(properties, creation);
	}

	/** Returns pipeline settings publishing each source table to its topic. */
	PipelineSettings settings(KafkaSinks sinks, Map<String, String> topicByTable) {
		return settings(sinks, topicByTable, checkpointTable());
	}

	/**
	 * Returns pipeline settings publishing each source table to its topic, with the checkpoints in
	 * {@code checkpointTable}, which pipelines of other sources may share.
	 */
	PipelineSettings settings(KafkaSinks sinks, Map<String, String> topicByTable, TableId checkpointTable) {
		List<TableMapping> tables = new ArrayList<>();
		topicByTable.forEach((table, topic) -> tables
			.add(TableMapping.toSink(new TableId(source(), table), List.of(), SnapshotMode.AUTO, sinks.sink(topic))));
		return settings(tables, List.of(), checkpointTable);
	}

	/** Returns pipeline settings publishing the tables rules take, each to the topic its rule names. */
	PipelineSettings settings(List<TableRule> rules) {
		return settings(List.of(), rules, checkpointTable());
	}

	private PipelineSettings settings(List<TableMapping> tables, List<TableRule> rules, TableId checkpointTable) {
		SourceSettings server = new SourceSettings(sourceServer().host(), sourceServer().port(),
				sourceServer().username(), sourceServer().password(), this.serverId, Duration.ofSeconds(10),
				Duration.ofSeconds(1));
		return PipelineSettings.builder(server, tables, checkpointTable)
			.rules(rules)
			.flushInterval(Duration.ofMillis(100))
			.checkpointInterval(Duration.ofMillis(200))
			.build()
			.withChunkRows(500);
	}

	/** Starts a pipeline with these settings. */
	Pipeline start(PipelineSettings settings) {
		Pipeline pipeline = new Pipeline(settings, pool(), pool());
		pipeline.start();
		return pipeline;
	}

	/** Starts a pipeline without a target database, its checkpoints kept by {@code checkpoints}. */
	Pipeline startWithoutTarget(PipelineSettings settings, CheckpointStore checkpoints) {
		Pipeline pipeline = new Pipeline(settings, pool(), null, checkpoints);
		pipeline.start();
		return pipeline;
	}

	TableId table(String table) {
		return new TableId(source(), table);
	}

	/** Returns the checkpoint saved for a source table, or {@code null}. */
	TableCheckpoint checkpoint(String table) {
		return new JdbcCheckpointStore(pool(), checkpointTable(), "default").load().get(table(table));
	}

	/**
	 * Reads a topic from its beginning to its end as a compacted topic reads to a consumer: the last
	 * value of each key, a tombstone removing the key.
	 */
	Map<String, String> compacted(String topic) throws Exception {
		Map<String, Object> properties = new HashMap<>();
		properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.broker.bootstrapServers());
		properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		Map<String, String> view = new LinkedHashMap<>();
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties)) {
			List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
				.map((PartitionInfo info) -> new TopicPartition(topic, info.partition()))
				.toList();
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
			// Each look that finds the end not reached yet reads the records on the way to it.
			Await.until("topic " + topic + " read to its end", Duration.ofSeconds(30), () -> {
				if (partitions.stream().allMatch((p) -> consumer.position(p) >= end.get(p))) {
					return true;
				}
				for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
					String key = new String(record.key(), StandardCharsets.UTF_8);
					if (record.value() == null) {
						view.remove(key);
					}
					else {
						view.put(key, new String(record.value(), StandardCharsets.UTF_8));
					}
				}
				return false;
			});
		}
		return view;
	}

	/**
	 * Asserts that the compacted topic holds exactly the source table's rows: the same keys, and for
	 * each the row image the source has now, encoded from a fresh read of the source.
	 */
	void assertTopicEqualsSource(String table, String topic) throws Exception {
		Map<String, JsonNode> expected = sourceRows(table);
		Map<String, String> actual = compacted(topic);
		assertThat(actual.keySet()).as("keys of topic %s against rows of %s", topic, table)
			.containsExactlyInAnyOrderElementsOf(expected.keySet());
		for (Map.Entry<String, String> record : actual.entrySet()) {
			JsonNode value = JSON.readTree(record.getValue());
			assertThat(value.get("v").asInt()).isEqualTo(ChangeRecords.VERSION);
			assertThat(value.get("table").asText()).isEqualTo(table(table).toString());
			assertThat(value.get("row")).as("row %s of %s", record.getKey(), table)
				.isEqualTo(expected.get(record.getKey()));
		}
	}

	/** Reads the source table's rows, by record key, each as the {@code row} object of a record. */
	Map<String, JsonNode> sourceRows(String table) throws Exception {
		Map<String, JsonNode> rows = new HashMap<>();
		try (Connection connection = pool().getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("SET time_zone = '+00:00'");
			TableLayout layout = LayoutReader.read(connection, table(table));
			ChangeRecords records = new ChangeRecords(layout);
			try (ResultSet rs = statement.executeQuery("SELECT " + layout.selectList() + " FROM "
					+ table(table).quoted())) {
				while (rs.next()) {
					Object[] image = new Object[layout.columns().size()];
					for (Column column : layout.columns()) {
						image[column.ordinal()] = Values.fromResultSet(rs, column.ordinal() + 1, column);
					}
					String key = new String(records.key(layout.keyOf(image)), StandardCharsets.UTF_8);
					rows.put(key, JSON.readTree(records.value(image, null)).get("row"));
				}
			}
		}
		return rows;
	}

	private TableId checkpointTable() {
		return new TableId(target(), "tributary_checkpoint");
	}

}
