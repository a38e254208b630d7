package io.tributary.autoconfigure;

import io.tributary.apply.TableSink;

/**
 * Gives the sink of a Kafka topic to each table with {@code cdc.tables[].kafka.topic}. A bean of
 * this type exists when Kafka support is on the classpath (tributary-kafka and spring-boot-kafka);
 * it keeps the pipeline's auto-configuration free of Kafka types.
 */
@FunctionalInterface
public interface TopicSinks {

	/**
	 * Returns the sink publishing to a topic.
	 * @param topic the topic
	 * @return the sink
	 */
	TableSink sink(String topic);

}
