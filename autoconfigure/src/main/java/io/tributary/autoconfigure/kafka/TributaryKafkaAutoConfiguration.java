package io.tributary.autoconfigure.kafka;

import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;

import io.tributary.autoconfigure.CheckpointStores;
import io.tributary.autoconfigure.TopicSinks;
import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.kafka.KafkaSinks;
import io.tributary.kafka.TopicCreation;

/**
 * Auto-configuration of the Kafka sink: tables with {@code cdc.tables[].kafka.topic} publish their
 * changes through one {@link KafkaSinks}, whose producer and admin client take their settings from
 * Spring Boot's {@code spring.kafka.*} ({@code spring.kafka.producer.*} and
 * {@code spring.kafka.admin.*} over the common ones), and a {@link KafkaConnectionDetails} bean's
 * servers where there is one. Active when tributary-kafka and spring-boot-kafka are on the
 * classpath; the producer connects only when a table uses it.
 */
@AutoConfiguration(before = TributaryAutoConfiguration.class)
@ConditionalOnClass({ KafkaSinks.class, KafkaProperties.class })
@ConditionalOnBooleanProperty(name = "cdc.enabled", matchIfMissing = true)
@EnableConfigurationProperties({ KafkaProperties.class, TributaryProperties.class })
public final class TributaryKafkaAutoConfiguration {

	/** The producer and admin client of the tables published to Kafka, closed after the pipelines stop. */
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	KafkaSinks tributaryKafkaSinks(KafkaProperties kafka, ObjectProvider<KafkaConnectionDetails> connectionDetails,
			TributaryProperties properties) {
		Map<String, Object> producer = kafka.buildProducerProperties();
		Map<String, Object> admin = kafka.buildAdminProperties();
		KafkaConnectionDetails details = connectionDetails.getIfAvailable();
		if (details != null) {
			producer.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, details.getProducer().getBootstrapServers());
			admin.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, details.getAdmin().getBootstrapServers());
		}
		TributaryProperties.KafkaTopics topics = properties.getKafka().getTopics();
		return new KafkaSinks(producer, admin,
				new TopicCreation(topics.isCreate(), topics.getPartitions(), topics.getReplicationFactor()));
	}

	@Bean
	@ConditionalOnMissingBean
	TopicSinks tributaryTopicSinks(KafkaSinks sinks) {
		return sinks::sink;
	}

	/** Each pipeline's checkpoints in the compacted topic cdc.checkpoint.topic. */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(name = "cdc.checkpoint.store", havingValue = "kafka")
	CheckpointStores tributaryKafkaCheckpointStores(KafkaSinks sinks, TributaryProperties properties) {
		String topic = properties.getCheckpoint().getTopic();
		return (pipeline) -> sinks.checkpointStore(topic, pipeline);
	}

}
