package io.tributary.subscription;

/**
 * The heap a subscription's changes take, against its soft limit, and the waits of adds that find
 * it full. Two amounts count: the changes buffered, and those drained whose apply is not over yet
 * (in flight), which stay in memory until it ends. A waiting add asks for a flush every 100 ms
 * until an apply ends and frees room, or the subscription closes; each wait is counted with its
 * duration. Not thread-safe: the subscription calls it holding its lock, which is also the monitor
 * an add waits on and the end of an apply notifies.
 */
final class BufferMemory {

	private static final long RECHECK_MILLIS = 100;

	private final long softLimitBytes;

	private long bytes;

	private long inFlight;

	private long parks;

	private long parkedNanos;

	private boolean closed;

	/**
	 * Creates an account.
	 * @param softLimitBytes buffered and in-flight bytes at or above which an add that takes more
	 * room waits; negative for no limit
	 */
	BufferMemory(long softLimitBytes) {
		this.softLimitBytes = softLimitBytes;
	}

	/** Counts the bytes of a change taken in. */
	void add(long size) {
		this.bytes += size;
	}

	/** Counts the bytes of a change let go. */
	void release(long size) {
		this.bytes -= size;
	}

	/** Forgets every buffered byte (the subscription dropped all its changes); in flight stays. */
	void clear() {
		this.bytes = 0;
	}

	/** Counts the bytes of drained changes, already released from the buffer, until their apply ends. */
	void drained(long size) {
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
	}

	/** Returns whether an add that takes more room has to wait now. */
	boolean full() {
		return this.softLimitBytes >= 0 && held() >= this.softLimitBytes && !this.closed;
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

	long parkedMillis() {
		return this.parkedNanos / 1_000_000;
	}

	long softLimitBytes() {
		return this.softLimitBytes;
	}

}
