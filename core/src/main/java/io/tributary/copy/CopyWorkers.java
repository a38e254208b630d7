package io.tributary.copy;

import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The threads that read and write a copy's chunks. At most {@code threads} chunks are in flight:
 * the dispatcher takes a slot before it bounds the next chunk, and a chunk gives its slot back when
 * it is done. The first failure of any chunk is kept, stops further dispatch, and is thrown by
 * {@link #throwFailure()} once the chunks in flight are done.
 */
final class CopyWorkers implements AutoCloseable {

	/** A chunk's work, run on a worker thread. */
	@FunctionalInterface
	interface ChunkTask {

		void run() throws Exception;

	}

	private final int threads;

	private final Semaphore slots;

	private final ExecutorService pool;

	private final AtomicReference<Exception> failure = new AtomicReference<>();

	/**
	 * Starts the workers.
	 * @param threads chunks in flight at most
	 * @param threadName the name of every worker thread
	 */
	CopyWorkers(int threads, String threadName) {
		this.threads = threads;
		this.slots = new Semaphore(threads);
		this.pool = Executors.newFixedThreadPool(threads, (task) -> {
			Thread thread = new Thread(task, threadName);
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Returns whether a chunk has failed. */
	boolean failed() {
		return this.failure.get() != null;
	}

	/**
	 * Waits for a free slot and holds it for the next chunk.
	 * @return whether the slot is held; {@code false}, holding none, when a chunk failed meanwhile
	 */
	boolean awaitSlot() {
		acquire(1);
		if (failed()) {
			this.slots.release();
			return false;
		}
		return true;
	}

	/** Runs a chunk on the slot taken by {@link #awaitSlot()}, and gives the slot back when it is done. */
	void run(ChunkTask task) {
		this.pool.execute(() -> {
			try {
				task.run();
			}
			catch (Exception ex) {
				this.failure.compareAndSet(null, ex);
			}
			finally {
				this.slots.release();
			}
		});
	}

	/** Waits until every chunk in flight is done. */
	void awaitIdle() {
		acquire(this.threads);
	}

	/**
	 * Throws the first failure of a chunk, if any.
	 * @throws SQLException when a chunk failed with one
	 */
	void throwFailure() throws SQLException {
		Exception failed = this.failure.get();
		if (failed instanceof SQLException sql) {
			throw sql;
		}
		if (failed instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (failed != null) {
			throw new IllegalStateException(failed);
		}
	}

	/** Stops the worker threads, interrupting any chunk still in flight. */
	@Override
	public void close() {
		this.pool.shutdownNow();
	}

	private void acquire(int permits) {
		try {
			this.slots.acquire(permits);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while copying", ex);
		}
	}

}
