/**
 * Publishes replicated tables to Kafka topics, one record per flushed change: the row's key as
 * the record key, the row image as JSON (format version 1) as the value, a tombstone for a delete,
 * so that a compacted topic converges to the table. {@code KafkaSinks} holds the one idempotent
 * producer ({@code acks=all}) the tables share and gives each table a {@code KafkaSink}, which the
 * pipeline opens into a {@code KafkaApplier} once the topic is known to exist.
 *
 * <p>Invariants: a flush returns only after every one of its records was acknowledged, so a
 * position is confirmed, and checkpointed, only when every change before it is in the topic; a
 * record that is not acknowledged fails the whole flush, whose changes are sent again; a key's
 * records reach its partition in the order of the source's changes. Delivery is at least once.
 */
package io.tributary.kafka;
