package io.tributary.pipeline;

import java.sql.SQLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.ApplyException;
import io.tributary.copy.Copier;
import io.tributary.status.TableStatus.Phase;

/**
 * Copies tables one after another on a thread of its own: those that need a snapshot at start, and
 * those resnapshotted or restarted later. A copy ends early when the pipeline stops or the table
 * leaves its snapshot (it failed, or its copier was replaced); a copy cut short by a stop continues
 * from its checkpoint on the next start.
 */
final class SnapshotQueue {

	private static final Logger logger = LoggerFactory.getLogger(SnapshotQueue.class);

	private final PipelineRuntime runtime;

	private final TaskThread thread;

	SnapshotQueue(PipelineRuntime runtime) {
		this.runtime = runtime;
		this.thread = new TaskThread("tributary-copy-" + runtime.settings.name());
	}

	/** Queues the copy of a table whose copier is set and whose phase is snapshotting. */
	void submit(TableRuntime table) {
		Copier copier = table.wiring.copier();
		if (!this.thread.submit(() -> copy(table, copier))) {
			// Stopping: the copy continues from its checkpoint on the next start.
			logger.debug("Copy of {} not queued: the pipeline is stopping", table.mapping.source());
		}
	}

	private void copy(TableRuntime table, Copier copier) {
		if (this.runtime.stopRequested() || table.wiring.copier() != copier) {
			return;
		}
		try {
			copier.run(() -> this.runtime.stopRequested() || table.wiring.copier() != copier
					|| table.phase() != Phase.SNAPSHOTTING);
		}
		catch (SQLException | ApplyException ex) {
			if (table.wiring.copier() == copier) {
				table.fail("Snapshot failed: " + ex.getMessage());
				logger.error("Snapshot of {} failed", table.mapping.source(), ex);
			}
		}
		this.runtime.wake();
	}

	/**
	 * Waits for the copy in progress to notice the stop and end, at most until shortly before the
	 * stop deadline; a chunk cut short then is copied again on the next start.
	 */
	void stop() {
		if (!this.thread.stop(this.runtime.stopWaitMillis())) {
			logger.warn("The snapshot chunk in progress did not end in time; it is copied again on the next start");
		}
	}

	/** Stops without waiting, after a failure. */
	void stopNow() {
		this.thread.stopNow();
	}

}
