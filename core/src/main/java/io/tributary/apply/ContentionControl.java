package io.tributary.apply;

/**
 * Additive-increase, multiplicative-decrease limit on how many statements of one table run at
 * once: contention halves the limit (never below 1), a run of successes raises it by one (never
 * above the configured maximum).
 *
 * <p>Statements that were in flight together tend to fail together; halving once for each of
 * them would collapse the limit to 1 on a single collision. So every change of the limit starts a
 * new epoch, and contention halves the limit only when the failed attempt started in the current
 * epoch, that is after the last change.
 *
 * <p>Thread-safe; every method is a few field updates under the instance lock.
 */
final class ContentionControl {

	private final int maximum;

	private final int growAfter;

	private int limit;

	private int successes;

	private long epoch;

	/**
	 * Creates a controller starting at its maximum.
	 * @param maximum most statements at once
	 * @param growAfter consecutive successful statements after which the limit grows by one
	 */
	ContentionControl(int maximum, int growAfter) {
		if (maximum < 1) {
			throw new IllegalArgumentException("Apply concurrency must be at least 1, was " + maximum);
		}
		this.maximum = maximum;
		this.growAfter = Math.max(1, growAfter);
		this.limit = maximum;
	}

	synchronized int limit() {
		return this.limit;
	}

	int maximum() {
		return this.maximum;
	}

	/** Returns the current epoch, to be passed back with the outcome of an attempt started now. */
	synchronized long epoch() {
		return this.epoch;
	}

	synchronized void succeeded() {
		this.successes++;
		if (this.successes >= this.growAfter) {
			this.successes = 0;
			if (this.limit < this.maximum) {
				this.limit++;
				this.epoch++;
			}
		}
	}

	/**
	 * Records a deadlock or lock wait timeout.
	 * @param startedIn the epoch the failed attempt started in
	 */
	synchronized void contended(long startedIn) {
		this.successes = 0;
		if (startedIn == this.epoch && this.limit > 1) {
			this.limit = Math.max(1, this.limit / 2);
			this.epoch++;
		}
	}

}
