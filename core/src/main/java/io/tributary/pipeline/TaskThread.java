package io.tributary.pipeline;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread of a pipeline that runs tasks one after another, and stops within a time:
 * the task in progress is asked to end by the pipeline's stop flag and interrupted only when it
 * overruns.
 */
final class TaskThread {

	private final ExecutorService executor;

	TaskThread(String name) {
		this.executor = Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, name);
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Queues a task.
	 * @return whether it was queued; {@code false} once the thread is stopping
	 */
	boolean submit(Runnable task) {
		try {
			this.executor.execute(task);
			return true;
		}
		catch (RejectedExecutionException ex) {
			return false;
		}
	}

	/**
	 * Lets the task in progress end and runs no other.
	 * @param waitMillis how long to wait for it before interrupting it
	 * @return whether it ended in time
	 */
	boolean stop(long waitMillis) {
		this.executor.shutdown();
		try {
			if (this.executor.awaitTermination(waitMillis, TimeUnit.MILLISECONDS)) {
				return true;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.executor.shutdownNow();
		return false;
	}

	/** Interrupts the task in progress and runs no other, without waiting. */
	void stopNow() {
		this.executor.shutdownNow();
	}

}
