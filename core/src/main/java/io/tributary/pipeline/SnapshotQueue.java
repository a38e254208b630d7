package io.tributary.pipeline;

import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

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

	private final ExecutorService executor;

	SnapshotQueue(PipelineRuntime runtime) {
		this.runtime = runtime;
		this.executor = Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, "tributary-copy-" + runtime.settings.name());
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Queues the copy of a table whose copier is set and whose phase is snapshotting. */
	void submit(TableRuntime table) {
		Copier copier = table.copier;
		try {
			this.executor.execute(() -> copy(table, copier));
		}
		catch (RejectedExecutionException ex) {
			// Stopping: the copy continues from its checkpoint on the next start.
			logger.debug("Copy of {} not queued: the pipeline is stopping", table.mapping.source());
		}
	}

	private void copy(TableRuntime table, Copier copier) {
		if (this.runtime.stopRequested || table.copier != copier) {
			return;
		}
		try {
			copier.run(() -> this.runtime.stopRequested || table.copier != copier || table.phase != Phase.SNAPSHOTTING);
		}
		catch (SQLException | ApplyException ex) {
			if (table.copier == copier) {
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
		this.executor.shutdown();
		try {
			if (!this.executor.awaitTermination(this.runtime.stopWaitMillis(), TimeUnit.MILLISECONDS)) {
				logger.warn("The snapshot chunk in progress did not end in time; it is copied again on the next start");
				this.executor.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			this.executor.shutdownNow();
			Thread.currentThread().interrupt();
		}
	}

	/** Stops without waiting, after a failure. */
	void stopNow() {
		this.executor.shutdownNow();
	}

}
