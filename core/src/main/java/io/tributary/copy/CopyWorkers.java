package io.tributary.copy;

import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The threads that read and write a copy's chunks, the write of one chunk overlapping the read of
 * the next. At most {@code threads} chunks are read or waiting to be written, and at most
 * {@code threads} are being written: the dispatcher takes a read slot before it bounds the next
 * chunk; a chunk that has been read keeps it until it gets a write slot, so a target slower than
 * the source holds the reads back, and gives the write slot back when it is written. A copy
 * therefore holds at most twice {@code threads} chunks in memory, and with one thread its chunks
 * are still written one at a time in key order. The first failure of any chunk is kept, stops
 * further dispatch, and is thrown by {@link #throwFailure()} once the chunks in flight are done.
 */
final class CopyWorkers implements AutoCloseable {

	/** A chunk's read, run on a worker thread; returns its write. */
	@FunctionalInterface
	interface ChunkTask {

		ChunkWrite read() throws Exception;

	}

	/** A chunk's write, run on a worker thread once a write slot is free. */
	@FunctionalInterface
	interface ChunkWrite {

		void run() throws Exception;

	}

	private final int threads;

	private final Semaphore readSlots;

	private final Semaphore writeSlots;

	private final ExecutorService pool;

	private final AtomicReference<Exception> failure = new AtomicReference<>();

	/**
	 * Starts the workers.
	 * @param threads chunks read at once at most, and chunks written at once at most
	 * @param threadName the name of every worker thread
	 */
	CopyWorkers(int threads, String threadName) {
		this.threads = threads;
		this.readSlots = new Semaphore(threads);
		this.writeSlots = new Semaphore(threads);
		this.pool = Executors.newFixedThreadPool(2 * threads, (task) -> {
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
	 * Waits for a free read slot and holds it for the next chunk.
	 * @return whether the slot is held; {@code false}, holding none, when a chunk failed meanwhile
	 */
	boolean awaitSlot() {
		acquire(this.readSlots, 1);
		if (failed()) {
			this.readSlots.release();
			return false;
		}
		return true;
	}

	/**
	 * Reads a chunk on the read slot taken by {@link #awaitSlot()}, then writes it on a write slot.
	 */
	void run(ChunkTask task) {
		this.pool.execute(() -> {
			Semaphore held = this.readSlots;
			try {
				ChunkWrite write = task.read();
				acquire(this.writeSlots, 1);
				this.readSlots.release();
				held = this.writeSlots;
				write.run();
			}
			catch (Exception ex) {
				this.failure.compareAndSet(null, ex);
			}
			finally {
				// After a failure is kept, so that a caller done waiting for idle sees it.
				held.release();
			}
		});
	}

	/** Waits until every chunk in flight is done. */
	void awaitIdle() {
		// A chunk holds its read slot until it has a write slot: once every read slot is free, no
		// chunk is left but those being written.
		acquire(this.readSlots, this.threads);
		acquire(this.writeSlots, this.threads);
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

	private static void acquire(Semaphore slots, int permits) {
		try {
			slots.acquire(permits);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while copying", ex);
		}
	}

}
