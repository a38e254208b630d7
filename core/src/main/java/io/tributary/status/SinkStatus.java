package io.tributary.status;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a table's sink reports beyond the apply counters, for tables whose changes go somewhere
 * other than a target table (a Kafka topic, for one).
 *
 * @param kind what kind of sink it is, for example {@code kafka}
 * @param destination where the records go, for example the topic's name
 * @param recordsSent records the destination acknowledged since start
 * @param sendErrors records the destination did not acknowledge (each fails its flush, whose
 * changes are sent again)
 * @param lastAcknowledged the last acknowledged place in each part of the destination, for
 * example the offset by partition number, in the parts' order; empty before the first
 * acknowledgement
 */
public record SinkStatus(String kind, String destination, long recordsSent, long sendErrors,
		Map<String, Long> lastAcknowledged) {

	public SinkStatus {
		// Kept in the order given, partition by partition.
		lastAcknowledged = Collections.unmodifiableMap(new LinkedHashMap<>(lastAcknowledged));
	}

}
