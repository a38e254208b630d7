/**
 * Auto-configuration of the Kafka sink, active when tributary-kafka and spring-boot-kafka are on
 * the classpath: one shared producer built from {@code spring.kafka.*} (always idempotent, with
 * {@code acks=all}), and the {@code TopicSinks} the pipelines give tables with
 * {@code cdc.tables[].kafka.topic}.
 */
package io.tributary.autoconfigure.kafka;
