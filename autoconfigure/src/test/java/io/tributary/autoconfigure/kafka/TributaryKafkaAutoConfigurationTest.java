package io.tributary.autoconfigure.kafka;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.autoconfigure.CheckpointStores;
import io.tributary.autoconfigure.TopicSinks;
import io.tributary.autoconfigure.TributaryConnections;
import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.checkpoint.CheckpointStore;
import io.tributary.kafka.KafkaCheckpointStore;
import io.tributary.kafka.KafkaSink;
import io.tributary.kafka.KafkaSinks;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.TableStatus;

import static org.assertj.core.api.Assertions.assertThat;

class TributaryKafkaAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(TributaryKafkaAutoConfiguration.class, TributaryAutoConfiguration.class))
		.withPropertyValues("cdc.source.host=127.0.0.1", "cdc.source.port=1", "cdc.source.username=repl",
				"cdc.source.server-id=4242", "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica",
				"cdc.tables[0].source=shop.orders", "cdc.tables[0].kafka.topic=shop.orders",
				"cdc.tables[1].source=shop.order_items", "spring.kafka.bootstrap-servers=127.0.0.1:1",
				"spring.kafka.producer.acks=1", "spring.kafka.producer.properties.linger.ms=20");

	@Test
	void publishesATableWithATopicAndCopiesTheOthers() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(KafkaSinks.class).hasSingleBean(TopicSinks.class);
			assertThat(context.getBean(Pipeline.class).status().tables()).extracting(TableStatus::target)
				.containsExactly("(kafka).shop.orders", "replica.order_items");
			assertThat(context.getBean(TopicSinks.class).sink("t")).isInstanceOf(KafkaSink.class);
		});
	}

	@Test
	void theProducerTakesSpringKafkaSettingsButAlwaysWaitsForEveryReplica() {
		this.runner.run((context) -> assertThat(context.getBean(KafkaSinks.class).producerProperties())
			.containsEntry("acks", "all")
			.containsEntry("enable.idempotence", true)
			.containsEntry("linger.ms", "20")
			.containsKey("bootstrap.servers"));
	}

	@Test
	void aTopicWithoutKafkaOnTheClasspathEndsStartupWithWhatToAdd() {
		this.runner.withClassLoader(new FilteredClassLoader(KafkaSinks.class))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("cdc.tables[0].kafka.topic is set, but Kafka support is not on the classpath"));
	}

	@Test
	void refusesATargetBesideATopic() {
		this.runner.withPropertyValues("cdc.tables[0].target=replica.orders")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("cdc.tables[0] has both a target table and a Kafka topic"));
	}

	@Test
	void refusesTwoTablesOnOneTopic() {
		this.runner.withPropertyValues("cdc.tables[1].kafka.topic=shop.orders")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("which another table publishes to"));
	}

	@Test
	void checkpointsInKafkaNeedNoTargetDatabaseWhenEveryTableIsPublished() {
		kafkaOnly().withPropertyValues("cdc.checkpoint.store=kafka").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(CheckpointStores.class);
			assertThat(context.getBean(CheckpointStore.class)).isInstanceOf(KafkaCheckpointStore.class);
			assertThat(context.getBean(TributaryConnections.class).target()).isNull();
		});
	}

	@Test
	void withoutKafkaCheckpointsEveryTablePublishedStillNeedsADatabaseForCheckpoints() {
		kafkaOnly().run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.rootCause()
			.hasMessageContaining("No database for checkpoints")
			.hasMessageContaining("cdc.checkpoint.store=kafka"));
	}

	@Test
	void refusesCheckpointsInKafkaWithHa() {
		kafkaOnly().withPropertyValues("cdc.checkpoint.store=kafka", "cdc.ha.enabled=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("cdc.checkpoint.store=kafka cannot be combined with cdc.ha.enabled=true"));
	}

	@Test
	void refusesCheckpointsInKafkaWithoutKafkaSupport() {
		this.runner.withPropertyValues("cdc.checkpoint.store=kafka")
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.kafka"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("needs Kafka support, which is not on the classpath"));
	}

	/** Every table published to Kafka, and no target database. */
	private static ApplicationContextRunner kafkaOnly() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(TributaryKafkaAutoConfiguration.class, TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.port=1", "cdc.source.username=repl", "cdc.tables[0].source=shop.orders",
					"cdc.tables[0].kafka.topic=orders", "spring.kafka.bootstrap-servers=127.0.0.1:1");
	}

	@Test
	void noKafkaBeansWithoutSpringBootKafka() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(TributaryKafkaAutoConfiguration.class, TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.port=1", "cdc.source.username=repl",
					"cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "cdc.tables[0].source=shop.orders")
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.kafka"))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(KafkaSinks.class)
				.doesNotHaveBean(TopicSinks.class)
				.hasSingleBean(Pipeline.class));
	}

}
