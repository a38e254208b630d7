package io.tributary.subscription;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The heap the buffers of one pipeline take together, against the pipeline's budget, and the waits
 * of adds that find it spent. Every buffer sharing the budget counts its changes here as it counts
 * them against its own soft limit: buffered plus drained and not yet settled. The count is one
 * {@link AtomicLong}, so an add under the budget takes no lock; only a wait, and a release while
 * someone waits, take the budget's monitor.
 *
 * <p>No lost wake-up: a waiter announces itself ({@code waiting}) before it reads the count, and a
 * release lowers the count before it reads {@code waiting}; both are volatile, so either the
 * waiter sees the lowered count, or the release sees the waiter and notifies the monitor, which it
 * can only take once the waiter is in {@code wait}. A wait also looks again every 100 ms, asking
 * for a flush each time, as a buffer's own park does.
 *
 * <p>Lock order: a buffer may call in holding its own lock (to count, release or wake), never the
 * other way round: a waiter holds no buffer's lock, and the monitor is held only to wait and notify.
 */
public final class BufferBudget {

	private static final long RECHECK_MILLIS = 100;

	private final long limitBytes;

	private final long recheckMillis;

	private final AtomicLong held = new AtomicLong();

	private final Object monitor = new Object();

	/** Adds waiting for room; read by releases without the monitor. */
	private final AtomicInteger waiting = new AtomicInteger();

	private final AtomicLong parks = new AtomicLong();

	private final AtomicLong parkedNanos = new AtomicLong();

	/**
	 * Creates a budget.
	 * @param limitBytes bytes held by all its buffers at or above which an add that takes more room
	 * waits; negative for no budget (the bytes are still counted)
	 */
	public BufferBudget(long limitBytes) {
		this(limitBytes, RECHECK_MILLIS);
	}

	/** Creates a budget whose waits look again every {@code recheckMillis} without being woken. */
	BufferBudget(long limitBytes, long recheckMillis) {
		if (limitBytes == 0) {
			throw new IllegalArgumentException("A buffer budget of 0 bytes would stop the reader before every change; "
					+ "use a positive size, or a negative one for no budget");
		}
		this.limitBytes = limitBytes;
		this.recheckMillis = recheckMillis;
	}

	/** Returns a budget that never makes an add wait. */
	public static BufferBudget unlimited() {
		return new BufferBudget(-1);
	}

	/** The budget, negative when there is none. */
	public long limitBytes() {
		return this.limitBytes;
	}

	/** Bytes held now by every buffer sharing the budget: buffered plus in flight. */
	public long heldBytes() {
		return this.held.get();
	}

	/** Times an add waited for room under the budget, over every buffer sharing it. */
	public long parks() {
		return this.parks.get();
	}

	/** Total time adds waited for room under the budget. */
	public long parkedMillis() {
		return this.parkedNanos.get() / 1_000_000;
	}

	/** Returns whether an add that takes more room has to wait now. */
	boolean spent() {
		return this.limitBytes >= 0 && this.held.get() >= this.limitBytes;
	}

	/** Counts bytes taken in by a buffer. */
	void take(long bytes) {
		if (bytes != 0) {
			this.held.addAndGet(bytes);
		}
	}

	/** Gives back bytes a buffer let go, and wakes the waiting adds when that makes room. */
	void give(long bytes) {
		if (bytes == 0) {
			return;
		}
		long now = this.held.addAndGet(-bytes);
		if (this.waiting.get() != 0 && now < this.limitBytes) {
			wake();
		}
	}

	/** Wakes every waiting add, to look again at the budget and at whether it still has to wait. */
	void wake() {
		synchronized (this.monitor) {
			this.monitor.notifyAll();
		}
	}

	/**
	 * Waits while the budget is spent and {@code released} is false, asking for a flush before each
	 * wait, and counts the park. Returns early, with the interrupt flag set, when the thread is
	 * interrupted. The caller holds no buffer's lock.
	 * @param flushRequest asks the catch-up loop to flush soon
	 * @param released whether the waiting buffer stopped waiting for room (it was closed or retired);
	 * whoever sets it calls {@link #wake}
	 */
	void await(Runnable flushRequest, BooleanSupplier released) {
		this.parks.incrementAndGet();
		long started = System.nanoTime();
		synchronized (this.monitor) {
			this.waiting.incrementAndGet();
			try {
				while (spent() && !released.getAsBoolean()) {
					flushRequest.run();
					this.monitor.wait(this.recheckMillis);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				this.waiting.decrementAndGet();
				this.parkedNanos.addAndGet(System.nanoTime() - started);
			}
		}
	}

}
