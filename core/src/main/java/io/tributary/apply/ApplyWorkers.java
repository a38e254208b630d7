package io.tributary.apply;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fixed pool of threads that run apply statements, shared by the {@link ParallelApplier}s of
 * one pipeline. Its size caps how many statements run at once across them; each applier's own
 * limit can only be lower.
 *
 * <p>Whoever creates it closes it, after the last apply call has returned. Threads are daemons
 * named {@code tributary-apply-<name>-<n>}.
 */
public final class ApplyWorkers implements AutoCloseable {

	private final ExecutorService executor;

	private final int threads;

	/**
	 * Starts the pool.
	 * @param name name for the threads, usually the pipeline's
	 * @param threads number of threads, at least 1
	 */
	public ApplyWorkers(String name, int threads) {
		if (threads < 1) {
			throw new IllegalArgumentException("Apply concurrency must be at least 1, was " + threads);
		}
		AtomicInteger count = new AtomicInteger();
		ThreadFactory factory = (task) -> {
			Thread thread = new Thread(task, "tributary-apply-" + name + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
		this.executor = Executors.newFixedThreadPool(threads, factory);
		this.threads = threads;
	}

	public int threads() {
		return this.threads;
	}

	ExecutorService executor() {
		return this.executor;
	}

	/**
	 * Stops taking statements and interrupts the threads without waiting, for a pipeline that must
	 * stop writing at once; a statement already sent to the server ends there on its own.
	 */
	public void closeNow() {
		this.executor.shutdownNow();
	}

	/**
	 * Stops the threads, letting running statements finish for up to 30 seconds before
	 * interrupting them.
	 */
	@Override
	public void close() {
		this.executor.shutdown();
		try {
			if (!this.executor.awaitTermination(30, TimeUnit.SECONDS)) {
				this.executor.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			this.executor.shutdownNow();
			Thread.currentThread().interrupt();
		}
	}

}
