package io.tributary.kafka;

import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;

/**
 * Tells the Kafka errors that retrying cannot cure from those it may, with what to change.
 */
final class KafkaErrors {

	private KafkaErrors() {
	}

	/** Returns whether sending the same record again can only fail the same way. */
	static boolean permanent(Throwable error) {
		return error instanceof RecordTooLargeException || error instanceof RecordBatchTooLargeException
				|| error instanceof InvalidTopicException || error instanceof TopicAuthorizationException
				|| error instanceof ClusterAuthorizationException;
	}

	/** Returns what to do about an error, or an empty string when there is nothing specific. */
	static String advice(Throwable error) {
		if (error instanceof RecordTooLargeException || error instanceof RecordBatchTooLargeException) {
			return "A row's record is larger than the producer or the topic accepts: raise "
					+ "spring.kafka.producer.properties.max.request.size and the topic's max.message.bytes (or the "
					+ "broker's message.max.bytes), or enable compression (spring.kafka.producer.compression-type), "
					+ "then restart the table";
		}
		if (error instanceof TopicAuthorizationException) {
			return "Grant the application's Kafka principal WRITE and DESCRIBE on the topic (and CREATE on the "
					+ "cluster if Tributary creates topics), then restart the table";
		}
		if (error instanceof ClusterAuthorizationException) {
			return "Grant the application's Kafka principal IDEMPOTENT_WRITE on the cluster (brokers before 2.8 "
					+ "need it for an idempotent producer), then restart the application";
		}
		if (error instanceof AuthorizationException) {
			return "Grant the application's Kafka principal the permission named, then restart the table";
		}
		if (error instanceof AuthenticationException) {
			return "Check spring.kafka.security.protocol, spring.kafka.properties.sasl.* and the credentials";
		}
		if (error instanceof InvalidTopicException) {
			return "Name a valid topic in cdc.tables[].kafka.topic (letters, digits, '.', '_' and '-', at most "
					+ "249 characters)";
		}
		return "";
	}

}
