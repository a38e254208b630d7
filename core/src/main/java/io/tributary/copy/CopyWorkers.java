package io.tributary.copy;

import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The threads that read and write a copy's chunks, the write of one chunk overlapping the read of
 * the next. At most {@code threads} + 1 chunks are in flight, at most {@code threads} of them being
 * read or waiting to be written and at most {@code threads} being written: the dispatcher takes a
 * slot in flight and a read slot before it bounds the next chunk; a chunk that has been read waits
 * for a write slot, then gives its read slot back, and gives the others back once it is written.
 * A copy therefore holds at most {@code threads} + 1 chunks in memory, a target slower than the
 * source holds the reads back, and with one thread chunks are still written one at a time in key
 * order. The first failure of any chunk is kept, stops further dispatch, and is thrown by
 * {@link #throwFailure()} once the chunks in flight are done.
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

	private final int inFlight;

	private final Semaphore flightSlots;

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
		this.inFlight = threads + 1;
		this.flightSlots = new Semaphore(this.inFlight);
		this.readSlots = new Semaphore(threads);
		this.writeSlots = new Semaphore(threads);
		this.pool = Executors.newFixedThreadPool(this.inFlight, (task) -> {
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
	 * Waits for a free slot in flight and a free read slot, and holds them for the next chunk.
	 * @return whether the slots are held; {@code false}, holding none, when a chunk failed meanwhile
	 */
	boolean awaitSlot() {
		acquire(this.flightSlots, 1);
		try {
			acquire(this.readSlots, 1);
		}
		catch (RuntimeException ex) {
			this.flightSlots.release();
			throw ex;
		}
		if (failed()) {
			this.readSlots.release();
			this.flightSlots.release();
			return false;
		}
		return true;
	}

	/**
	 * Reads a chunk on the slots taken by {@link #awaitSlot()}, then writes it on a write slot.
	 */
	void run(ChunkTask task) {
		this.pool.execute(() -> {
			boolean reading = true;
			boolean writing = false;
			try {
				ChunkWrite write = task.read();
				// The write slot first, so that no chunk read after this one is written before it
				// when there is one thread.
				acquire(this.writeSlots, 1);
				writing = true;
				this.readSlots.release();
				reading = false;
				write.run();
			}
			catch (Exception ex) {
				this.failure.compareAndSet(null, ex);
			}
			finally {
				if (reading) {
					this.readSlots.release();
				}
				if (writing) {
					this.writeSlots.release();
				}
				// Last, after a failure is kept, so that a caller done waiting for idle sees it.
				this.flightSlots.release();
			}
		});
	}

	/** Waits until every chunk in flight is done. */
	void awaitIdle() {
		acquire(this.flightSlots, this.inFlight);
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
