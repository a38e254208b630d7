package io.tributary.subscription;

/**
 * The heap a subscription's changes take, against its soft limit and its pipeline's
 * {@link BufferBudget}, and the waits of adds that find either full. Two amounts count: the changes
 * buffered, and those drained whose apply is not over yet (in flight), which stay in memory until
 * it ends. Every change of their sum is counted in the budget too, so the budget holds the sum over
 * its buffers; a retired account gives its bytes back and counts apart from then on. A waiting add
 * asks for a flush every 100 ms until an apply ends and frees room, or the subscription closes;
 * each wait is counted with its duration, and which limit held it. Not thread-safe, but for
 * {@link #released()}: the subscription calls it holding its lock, which is also the monitor an add
 * waits on for the soft limit and the end of an apply notifies; an add waits for the budget
 * without that lock ({@link #awaitBudget}).
 */
final class BufferMemory {

	private static final long RECHECK_MILLIS = 100;

	private final long softLimitBytes;

	private long bytes;

	private long inFlight;

	private long parks;

	private long parkedNanos;

	private long budgetParks;

	/** Read by an add waiting for the budget, which holds no lock. */
	private volatile boolean closed;

	/** The pipeline's budget, or after {@link #retire} one of this account's own; read by a waiting add. */
	private volatile BufferBudget budget;

	/**
	 * Creates an account.
	 * @param softLimitBytes buffered and in-flight bytes at or above which an add that takes more
	 * room waits; negative for no limit
	 * @param budget the budget shared by the pipeline's buffers
	 */
	BufferMemory(long softLimitBytes, BufferBudget budget) {
		this.softLimitBytes = softLimitBytes;
		this.budget = budget;
	}

	/** Counts the bytes of a change taken in. */
	void add(long size) {
		this.bytes += size;
		this.budget.take(size);
	}

	/** Counts the bytes of a change let go. */
	void release(long size) {
		this.bytes -= size;
		this.budget.give(size);
	}

	/** Counts a buffered change that replaces another: one update of the budget instead of two. */
	void replace(long released, long added) {
		this.bytes += added - released;
		long grown = added - released;
		if (grown >= 0) {
			this.budget.take(grown);
		}
		else {
			this.budget.give(-grown);
		}
	}

	/** Forgets every buffered byte (the subscription dropped all its changes); in flight stays. */
	void clear() {
		this.budget.give(this.bytes);
		this.bytes = 0;
	}

	/**
	 * Moves the bytes of a drained change from buffered to in flight, until its apply ends; the
	 * budget holds them all along.
	 */
	void drained(long size) {
		this.bytes -= size;
		this.inFlight += size;
	}

	/** Counts every buffered byte as drained, and returns how many that is. */
	long drainAll() {
		long all = this.bytes;
		this.bytes = 0;
		this.inFlight += all;
		return all;
	}

	/** Releases the bytes of a drain whose apply ended; the caller notifies the lock. */
	void settled(long size) {
		this.inFlight -= size;
		this.budget.give(size);
	}

	/** Returns whether an add that takes more room has to wait now for the soft limit. */
	boolean full() {
		return this.softLimitBytes >= 0 && held() >= this.softLimitBytes && !this.closed;
	}

	/** Returns whether an add that takes more room has to wait now for the pipeline's budget. */
	boolean budgetSpent() {
		return this.budget.spent() && !this.closed;
	}

	/**
	 * Counts a park at the pipeline's budget, before the add leaves the subscription's lock to
	 * {@link #awaitBudget}.
	 */
	void budgetParkStarts() {
		this.parks++;
		this.budgetParks++;
	}

	/** Counts the time a park at the budget took, once the add holds the subscription's lock again. */
	void budgetParkEnded(long nanos) {
		this.parkedNanos += nanos;
	}

	/**
	 * Waits, without the subscription's lock, while the budget is spent and the account is open.
	 * @param flushRequest asks the catch-up loop to flush soon
	 */
	void awaitBudget(Runnable flushRequest) {
		this.budget.await(flushRequest, this::released);
	}

	/** Whether adds no longer wait: the account is closed or retired. */
	boolean released() {
		return this.closed;
	}

	/** Buffered and in-flight bytes: what the soft limit bounds. */
	private long held() {
		return this.bytes + this.inFlight;
	}

	/**
	 * Waits while the buffer is full, asking for a flush before each wait, and counts the park.
	 * Returns early, with the interrupt flag set, when the thread is interrupted.
	 * @param lock the subscription's lock, held by the caller
	 * @param flushRequest asks the catch-up loop to flush soon
	 */
	void park(Object lock, Runnable flushRequest) {
		this.parks++;
		long started = System.nanoTime();
		try {
			while (held() >= this.softLimitBytes && !this.closed) {
				flushRequest.run();
				lock.wait(RECHECK_MILLIS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.parkedNanos += System.nanoTime() - started;
		}
	}

	/** Stops every wait, now and later; the caller notifies the lock. */
	void close() {
		this.closed = true;
		this.budget.wake();
	}

	/**
	 * Gives every byte, buffered and in flight, back to the pipeline's budget and stops every wait:
	 * the subscription is let go, and whatever it still takes or settles no longer counts there.
	 */
	void retire() {
		BufferBudget shared = this.budget;
		this.budget = BufferBudget.unlimited();
		this.budget.take(held());
		this.closed = true;
		shared.give(held());
		shared.wake();
	}

	long bytes() {
		return this.bytes;
	}

	long inFlightBytes() {
		return this.inFlight;
	}

	long parks() {
		return this.parks;
	}

	long budgetParks() {
		return this.budgetParks;
	}

	long parkedMillis() {
		return this.parkedNanos / 1_000_000;
	}

	long softLimitBytes() {
		return this.softLimitBytes;
	}

}
