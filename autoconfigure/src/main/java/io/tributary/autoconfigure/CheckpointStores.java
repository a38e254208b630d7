package io.tributary.autoconfigure;

import io.tributary.checkpoint.CheckpointStore;

/**
 * Gives each pipeline the store of its checkpoints when they are not kept in the target database
 * ({@code cdc.checkpoint.store=kafka}). A bean of this type exists only then; it keeps the
 * pipeline's auto-configuration free of Kafka types.
 */
@FunctionalInterface
public interface CheckpointStores {

	/**
	 * Returns the store of one pipeline's checkpoints.
	 * @param pipeline the pipeline's name
	 * @return the store
	 */
	CheckpointStore forPipeline(String pipeline);

}
