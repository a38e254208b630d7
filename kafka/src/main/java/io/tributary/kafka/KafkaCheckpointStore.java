package io.tributary.kafka;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.tributary.checkpoint.CheckpointStore;
import io.tributary.checkpoint.KeyText;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.source.Position;

/**
 * Keeps a pipeline's checkpoints in a compacted Kafka topic instead of a table of the target, for
 * applications without a target database: one record per table, keyed by pipeline and source
 * table, so that compaction keeps each table's latest checkpoint. Made by
 * {@link KafkaSinks#checkpointStore(String, String)}; several pipelines may share the topic.
 *
 * <p>A save returns once the brokers acknowledged every record of it ({@code acks=all}); it is not
 * atomic across tables, which is safe, since each table resumes from its own checkpoint and an
 * older one only replays more. A load reads the topic from its beginning to its end.
 *
 * <p>No fencing: {@link #fencedBy} returns this store, so it cannot keep an instance that lost its
 * leadership from writing. The Spring Boot auto-configuration refuses it together with HA.
 */
public final class KafkaCheckpointStore implements CheckpointStore {

	private static final int FORMAT = 1;

	private final KafkaSinks sinks;

	private final String topic;

	private final String pipeline;

	KafkaCheckpointStore(KafkaSinks sinks, String topic, String pipeline) {
		this.sinks = sinks;
		this.topic = topic;
		this.pipeline = pipeline;
	}

	/** Makes sure the topic exists, creating it compacted when topics may be created. */
	@Override
	public void initialize() {
		this.sinks.topics().require(this.topic, "the checkpoints of pipeline " + this.pipeline);
	}

	@Override
	public Map<TableId, TableCheckpoint> load() {
		Map<String, Object> properties = new HashMap<>(this.sinks.clientProperties());
		properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
		Map<TableId, TableCheckpoint> loaded = new LinkedHashMap<>();
		Duration timeout = Duration.ofSeconds(30);
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties)) {
			List<TopicPartition> partitions = consumer.partitionsFor(this.topic, timeout).stream()
				.map((info) -> new TopicPartition(this.topic, info.partition()))
				.toList();
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
			long deadline = System.nanoTime() + timeout.toNanos();
			while (partitions.stream().anyMatch((p) -> consumer.position(p, timeout) < end.get(p))) {
				if (System.nanoTime() - deadline > 0) {
					throw new IllegalStateException("Reading the checkpoints of pipeline " + this.pipeline + " from Kafka "
							+ "topic '" + this.topic + "' took over " + timeout.toSeconds() + " s");
				}
				for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
					TableCheckpoint checkpoint = (record.value() != null) ? parse(record.value()) : null;
					if (checkpoint != null) {
						loaded.put(checkpoint.source(), checkpoint);
					}
				}
			}
		}
		return loaded;
	}

	@Override
	public void save(Collection<TableCheckpoint> checkpoints) {
		List<Future<RecordMetadata>> acks = new ArrayList<>();
		for (TableCheckpoint checkpoint : checkpoints) {
			byte[] key = ("[" + quoted(this.pipeline) + "," + quoted(checkpoint.source().toString()) + "]")
				.getBytes(StandardCharsets.UTF_8);
			acks.add(this.sinks.producer().send(new ProducerRecord<>(this.topic, key, format(checkpoint))));
		}
		long deadline = System.nanoTime() + this.sinks.ackTimeout().toNanos();
		for (Future<RecordMetadata> ack : acks) {
			try {
				ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				throw new IllegalStateException("Kafka did not acknowledge a checkpoint of pipeline " + this.pipeline
						+ " to topic '" + this.topic + "': " + ex.getCause() + ". " + KafkaErrors.advice(ex.getCause()),
						ex.getCause());
			}
			catch (TimeoutException ex) {
				throw new IllegalStateException("Kafka did not acknowledge a checkpoint of pipeline " + this.pipeline
						+ " to topic '" + this.topic + "' in time", ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while saving checkpoints to Kafka", ex);
			}
		}
	}

	byte[] format(TableCheckpoint checkpoint) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("v", String.valueOf(FORMAT));
		fields.put("pipeline", this.pipeline);
		fields.put("sourceSchema", checkpoint.source().schema());
		fields.put("sourceTable", checkpoint.source().table());
		targetFields(checkpoint.target(), fields);
		fields.put("snapshotDone", String.valueOf(checkpoint.snapshotDone()));
		fields.put("position", (checkpoint.position() != null) ? checkpoint.position().toString() : "");
		fields.put("copiedUpTo", (checkpoint.copiedUpTo() != null) ? KeyText.format(checkpoint.copiedUpTo()) : "");
		fields.put("updatedAt", String.valueOf(checkpoint.updatedAt()));
		if (checkpoint.ended()) {
			fields.put("ended", "true");
		}
		StringBuilder text = new StringBuilder();
		fields.forEach((name, value) -> text.append(name).append('=')
			.append(URLEncoder.encode(value, StandardCharsets.UTF_8)).append('\n'));
		return text.toString().getBytes(StandardCharsets.UTF_8);
	}

	/** Reads a record of this pipeline, or returns {@code null} for another pipeline's. */
	TableCheckpoint parse(byte[] value) {
		Map<String, String> fields = new HashMap<>();
		for (String line : new String(value, StandardCharsets.UTF_8).split("\n")) {
			int equals = line.indexOf('=');
			if (equals > 0) {
				fields.put(line.substring(0, equals), URLDecoder.decode(line.substring(equals + 1), StandardCharsets.UTF_8));
			}
		}
		if (!this.pipeline.equals(fields.get("pipeline"))) {
			return null;
		}
		String position = fields.getOrDefault("position", "");
		String copiedUpTo = fields.getOrDefault("copiedUpTo", "");
		return new TableCheckpoint(new TableId(fields.get("sourceSchema"), fields.get("sourceTable")),
				target(fields.get("targetSchema"), fields.get("targetTable")),
				Boolean.parseBoolean(fields.get("snapshotDone")), position.isEmpty() ? null : Position.parse(position),
				copiedUpTo.isEmpty() ? null : KeyText.parse(copiedUpTo), Instant.parse(fields.get("updatedAt")),
				Boolean.parseBoolean(fields.get("ended")));
	}

	/**
	 * Writes a destination as the record's two target fields: a table's schema and name, or
	 * {@code (<kind>)} and the name for another kind, as in {@code (kafka)} and {@code eu.shop.orders}.
	 */
	private static void targetFields(Destination target, Map<String, String> fields) {
		if (target instanceof Destination.Table table) {
			fields.put("targetSchema", table.id().schema());
			fields.put("targetTable", table.id().table());
		}
		else {
			fields.put("targetSchema", "(" + target.kind() + ")");
			fields.put("targetTable", target.name());
		}
	}

	/** Reads a destination from the record's two target fields, as {@link #targetFields} wrote them. */
	private static Destination target(String schema, String table) {
		if (schema.startsWith("(") && schema.endsWith(")")) {
			Destination other = Destination.parse(schema + "." + table);
			if (!(other instanceof Destination.Table)) {
				return other;
			}
		}
		return new Destination.Table(new TableId(schema, table));
	}

	private static String quoted(String text) {
		return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
	}

}
