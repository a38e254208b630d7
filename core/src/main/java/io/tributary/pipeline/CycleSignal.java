package io.tributary.pipeline;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What wakes a pipeline's catch-up loop before its interval: a request to flush everything, or,
 * with {@code cdc.flush.when-idle}, a reader that has read all the source sent. A signal that comes
 * while nobody waits is kept, so the next wait returns at once.
 */
final class CycleSignal {

	private final Object lock = new Object();

	private final boolean flushWhenIdle;

	/** Set by {@link #wake()}, cleared by the wait it ends; guarded by {@link #lock}. */
	private boolean woken;

	/**
	 * Set by {@link #readerIdle()}, cleared by the wait it ends; written under {@link #lock}, read
	 * without it by the reader to skip the lock while a flush is already due.
	 */
	private volatile boolean idle;

	CycleSignal(boolean flushWhenIdle) {
		this.flushWhenIdle = flushWhenIdle;
	}

	/**
	 * Waits for {@link #wake()}, {@link #readerIdle()}, {@code stopped} or the timeout.
	 * @param timeout the longest wait
	 * @param stopped whether the pipeline is asked to stop; read before and while waiting
	 * @param onInterrupt run when the waiting thread is interrupted, which ends the wait
	 * @return whether {@link #wake()} ended the wait: someone asked for a flush of everything
	 */
	boolean await(Duration timeout, BooleanSupplier stopped, Runnable onInterrupt) {
		synchronized (this.lock) {
			if (stopped.getAsBoolean()) {
				return false;
			}
			try {
				long deadline = System.nanoTime() + timeout.toNanos();
				while (!this.woken && !this.idle && !stopped.getAsBoolean()) {
					long left = deadline - System.nanoTime();
					if (left <= 0) {
						break;
					}
					TimeUnit.NANOSECONDS.timedWait(this.lock, left);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				onInterrupt.run();
			}
			boolean asked = this.woken;
			this.woken = false;
			this.idle = false;
			return asked;
		}
	}

	/** Starts the next catch-up cycle now rather than at the flush interval. */
	void wake() {
		synchronized (this.lock) {
			this.woken = true;
			this.lock.notifyAll();
		}
	}

	/**
	 * The reader has read everything the source sent: with {@code cdc.flush.when-idle}, an early
	 * cycle applies what is buffered now. Called by the reader after each transaction it has nothing
	 * to follow; cheap while a cycle is already due.
	 */
	void readerIdle() {
		if (this.idle || !this.flushWhenIdle) {
			return;
		}
		synchronized (this.lock) {
			this.idle = true;
			this.lock.notifyAll();
		}
	}

}
