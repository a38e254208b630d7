package io.tributary.autoconfigure;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.tributary.checkpoint.CheckpointStore;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.name.TableId;

/**
 * An application's own checkpoint store, kept in memory, that counts what the pipeline asks of it.
 */
class InMemoryCheckpointStore implements CheckpointStore {

	final Map<TableId, TableCheckpoint> checkpoints = new ConcurrentHashMap<>();

	volatile int initialized;

	volatile int saves;

	@Override
	public void initialize() {
		this.initialized++;
	}

	@Override
	public Map<TableId, TableCheckpoint> load() {
		return Map.copyOf(this.checkpoints);
	}

	@Override
	public void save(Collection<TableCheckpoint> saved) {
		saved.forEach((checkpoint) -> this.checkpoints.put(checkpoint.source(), checkpoint));
		this.saves++;
	}

}
