package io.tributary.checkpoint;

import java.util.Collection;
import java.util.Map;

import io.tributary.ha.TargetFence;
import io.tributary.name.TableId;

/**
 * Durable storage of per-table checkpoints. A checkpoint is written only after the data it
 * covers has been applied, so a crash can at worst replay changes, never skip them.
 */
public interface CheckpointStore {

	/** Creates the storage if needed. */
	void initialize();

	/** Loads every checkpoint of this pipeline, by source table. */
	Map<TableId, TableCheckpoint> load();

	/** Writes checkpoints, replacing earlier ones for the same tables, atomically. */
	void save(Collection<TableCheckpoint> checkpoints);

	/**
	 * Returns a store whose writes commit only while {@code fence} proves leadership, for a pipeline
	 * that runs as one of several instances. The default returns this store unchanged: a store
	 * outside the target database cannot join a target transaction, and must keep an instance that
	 * lost its leadership from moving the checkpoints back by other means.
	 * @param fence the fence of the current term of leadership
	 * @return the fenced store
	 */
	default CheckpointStore fencedBy(TargetFence fence) {
		return this;
	}

}
