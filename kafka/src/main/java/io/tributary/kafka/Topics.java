package io.tributary.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.SinkUnavailableException;

/**
 * Checks that a table's topic exists before the table starts, creating it compacted when allowed.
 * A topic that is not compacted is used, with a warning: a consumer rebuilding the table from it
 * needs every key's last record, which only compaction keeps for good.
 */
final class Topics {

	private static final Logger logger = LoggerFactory.getLogger(Topics.class);

	private final Admin admin;

	private final TopicCreation creation;

	private final Duration timeout;

	Topics(Admin admin, TopicCreation creation, Duration timeout) {
		this.admin = admin;
		this.creation = creation;
		this.timeout = timeout;
	}

	/**
	 * Makes sure the topic exists.
	 * @param topic the topic
	 * @param table the source table, for messages
	 * @throws SinkUnavailableException when the brokers cannot be reached
	 * @throws IllegalStateException when the topic is missing and may not be created, or cannot be
	 */
	void require(String topic, String table) {
		try {
			if (exists(topic)) {
				warnUnlessCompacted(topic);
				return;
			}
			if (!this.creation.enabled()) {
				throw new IllegalStateException("Kafka topic '" + topic + "' for " + table + " does not exist. Create "
						+ "it with cleanup.policy=compact (kafka-topics.sh --create --topic " + topic
						+ " --config cleanup.policy=compact), or set cdc.kafka.topics.create=true to have Tributary "
						+ "create it");
			}
			create(topic);
			logger.info("Created Kafka topic {} (cleanup.policy=compact) for {}", topic, table);
		}
		catch (TimeoutException ex) {
			throw new SinkUnavailableException("Kafka did not answer within " + this.timeout.toMillis() + " ms while "
					+ "checking topic '" + topic + "' for " + table + "; check spring.kafka.bootstrap-servers and that "
					+ "the brokers are up", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new SinkUnavailableException("Interrupted while checking Kafka topic '" + topic + "'", ex);
		}
	}

	private boolean exists(String topic) throws InterruptedException, TimeoutException {
		try {
			this.admin.describeTopics(List.of(topic)).allTopicNames().get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
				return false;
			}
			throw refused("describe", topic, ex.getCause());
		}
	}

	private void create(String topic) throws InterruptedException, TimeoutException {
		NewTopic created = new NewTopic(topic, Optional.ofNullable(this.creation.partitions()),
				Optional.ofNullable(this.creation.replicationFactor()))
			.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
		try {
			this.admin.createTopics(List.of(created)).all().get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			if (!(ex.getCause() instanceof TopicExistsException)) {
				throw refused("create", topic, ex.getCause());
			}
		}
	}

	private void warnUnlessCompacted(String topic) throws InterruptedException, TimeoutException {
		ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
		try {
			Config config = this.admin.describeConfigs(List.of(resource)).all()
				.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS).get(resource);
			String policy = (config != null && config.get(TopicConfig.CLEANUP_POLICY_CONFIG) != null)
					? config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value() : null;
			if (policy != null && !policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
				logger.warn("Kafka topic {} has cleanup.policy={}: records of rows that did not change within its "
						+ "retention are deleted, so a consumer cannot rebuild the table from it. Set "
						+ "cleanup.policy=compact on it", topic, policy);
			}
		}
		catch (ExecutionException ex) {
			// Reading configurations needs DESCRIBE_CONFIGS, which writing does not: only the warning is lost.
			logger.debug("Cannot read the configuration of Kafka topic {}: {}", topic, ex.getCause().toString());
		}
	}

	private static IllegalStateException refused(String action, String topic, Throwable cause) {
		return new IllegalStateException("Kafka refused to " + action + " topic '" + topic + "': " + cause
				+ ". " + KafkaErrors.advice(cause), cause);
	}

}
