package io.tributary.kafka;

/**
 * Whether Tributary creates a table's topic when it is missing, and how.
 *
 * @param enabled whether a missing topic is created (with {@code cleanup.policy=compact}); when
 * not, a missing topic stops the table at its start
 * @param partitions partitions of a created topic, or {@code null} for the broker's default
 * @param replicationFactor replicas of a created topic, or {@code null} for the broker's default
 */
public record TopicCreation(boolean enabled, Integer partitions, Short replicationFactor) {

	/** Missing topics are not created. */
	public static final TopicCreation DISABLED = new TopicCreation(false, null, null);

	public TopicCreation {
		if (partitions != null && partitions < 1) {
			throw new IllegalArgumentException("Partitions of a created topic must be positive, was " + partitions);
		}
		if (replicationFactor != null && replicationFactor < 1) {
			throw new IllegalArgumentException("Replication factor of a created topic must be positive, was "
					+ replicationFactor);
		}
	}

}
