package io.tributary.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka side of an application's tables that go to topics: one idempotent producer and one
 * admin client shared by all of them, and a {@link KafkaSink} per topic. Use it from plain Java
 * as well as through the Spring Boot auto-configuration:
 *
 * <pre>{@code
 * try (KafkaSinks kafka = new KafkaSinks(Map.of("bootstrap.servers", "broker:9092"), TopicCreation.DISABLED)) {
 *     TableMapping orders = TableMapping.toSink(TableId.parse("shop.orders", null), List.of(),
 *             SnapshotMode.AUTO, kafka.sink("shop.orders"));
 *     ...
 * }
 * }</pre>
 *
 * <p>Whatever the given properties say, the producer is idempotent, waits for every in-sync
 * replica ({@code acks=all}) and sends keys and values as bytes: the delivery guarantees of
 * {@code docs/kafka.md} rest on these. Close it after the pipelines that use it have stopped.
 */
public final class KafkaSinks implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(KafkaSinks.class);

	private final Map<String, Object> producerProperties;

	private final Map<String, Object> adminProperties;

	private final TopicCreation creation;

	private final Duration ackTimeout;

	private Producer<byte[], byte[]> producer;

	private Admin admin;

	private Topics topics;

	/**
	 * Creates the sinks with one set of client properties for the producer and the admin client.
	 * @param properties Kafka client properties ({@code bootstrap.servers}, security, ...)
	 * @param creation whether and how missing topics are created
	 */
	public KafkaSinks(Map<String, Object> properties, TopicCreation creation) {
		this(properties, properties, creation);
	}

	/**
	 * Creates the sinks.
	 * @param producerProperties properties of the producer
	 * @param adminProperties properties of the admin client that checks and creates topics
	 * @param creation whether and how missing topics are created
	 */
	public KafkaSinks(Map<String, Object> producerProperties, Map<String, Object> adminProperties,
			TopicCreation creation) {
		this.producerProperties = deliveryGuarantees(producerProperties);
		this.adminProperties = new HashMap<>(adminProperties);
		this.creation = Objects.requireNonNull(creation, "creation");
		this.ackTimeout = ackTimeout(this.producerProperties);
	}

	/**
	 * Returns the sink of a topic. Tables must not share a topic: their keys could collide and
	 * each table's checkpoint would cover the other's records.
	 * @param topic the topic
	 * @return the sink
	 */
	public KafkaSink sink(String topic) {
		return new KafkaSink(this, topic);
	}

	/**
	 * Returns a store of one pipeline's checkpoints in a compacted topic, written through the shared
	 * producer. The topic is checked (or created, when topics may be created) when the pipeline
	 * starts; several pipelines may share it.
	 * @param topic the topic
	 * @param pipeline the pipeline's name
	 * @return the store
	 */
	public KafkaCheckpointStore checkpointStore(String topic, String pipeline) {
		return new KafkaCheckpointStore(this, Objects.requireNonNull(topic, "topic"),
				Objects.requireNonNull(pipeline, "pipeline"));
	}

	/** Returns the producer properties in force, after the delivery guarantees were applied. */
	public Map<String, Object> producerProperties() {
		return Map.copyOf(this.producerProperties);
	}

	synchronized Producer<byte[], byte[]> producer() {
		if (this.producer == null) {
			this.producer = new KafkaProducer<>(this.producerProperties);
		}
		return this.producer;
	}

	synchronized Topics topics() {
		if (this.topics == null) {
			this.admin = Admin.create(this.adminProperties);
			this.topics = new Topics(this.admin, this.creation, Duration.ofSeconds(30));
		}
		return this.topics;
	}

	/** Returns the properties of the admin client, which a consumer of the same cluster starts from. */
	Map<String, Object> clientProperties() {
		return this.adminProperties;
	}

	Duration ackTimeout() {
		return this.ackTimeout;
	}

	/** Closes the producer (sending what it still holds, for up to 30 s) and the admin client. */
	@Override
	public synchronized void close() {
		if (this.producer != null) {
			this.producer.close(Duration.ofSeconds(30));
			this.producer = null;
		}
		if (this.admin != null) {
			this.admin.close(Duration.ofSeconds(5));
			this.admin = null;
			this.topics = null;
		}
	}

	private static Map<String, Object> deliveryGuarantees(Map<String, Object> given) {
		Map<String, Object> properties = new HashMap<>(given);
		Object acks = properties.get(ProducerConfig.ACKS_CONFIG);
		Object idempotence = properties.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
		if ((acks != null && !"all".equals(String.valueOf(acks)) && !"-1".equals(String.valueOf(acks)))
				|| (idempotence != null && !Boolean.parseBoolean(String.valueOf(idempotence)))) {
			logger.info("Tributary's Kafka producer uses acks=all and enable.idempotence=true, not acks={} and "
					+ "enable.idempotence={}: a position is confirmed only once its records are on every in-sync "
					+ "replica", acks, idempotence);
		}
		properties.put(ProducerConfig.ACKS_CONFIG, "all");
		properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
		properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
		// A transactional producer would need its own fencing; Tributary's records are not transactional.
		properties.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
		return properties;
	}

	/**
	 * Returns how long a flush waits for its acknowledgements: the producer's own delivery timeout,
	 * after which it reports every record as failed anyway, and a margin.
	 */
	private static Duration ackTimeout(Map<String, Object> properties) {
		Object configured = properties.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
		long deliveryMillis = (configured != null) ? Long.parseLong(String.valueOf(configured)) : 120_000;
		return Duration.ofMillis(deliveryMillis + 5_000);
	}

}
