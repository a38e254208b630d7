package io.tributary.checkpoint;

import java.util.Collection;
import java.util.Map;

import io.tributary.source.TableId;

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

}
