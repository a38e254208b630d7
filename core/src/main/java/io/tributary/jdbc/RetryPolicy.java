package io.tributary.jdbc;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How often, and after what pauses, a failed database operation runs again: at most a number of
 * attempts, with pauses that double from a first pause up to a longest one. Each pause is drawn at
 * random from the upper half of its range, so that threads that failed together (the two sides of
 * a deadlock) do not run again together. Immutable and thread-safe.
 *
 * <p>{@link #rerunOnContention} is the whole loop for work the server rolled back for lock
 * contention; loops that retry other failures, or count as they go, ask {@link #allowsRetry} and
 * {@link #pause} themselves.
 */
public final class RetryPolicy {

	/** First pause after lock contention: a deadlock's winner usually commits within milliseconds. */
	private static final Duration CONTENTION_FIRST_PAUSE = Duration.ofMillis(20);

	private static final Duration CONTENTION_LONGEST_PAUSE = Duration.ofSeconds(1);

	/** Doublings of the first pause at most; any longest pause in use is reached well before. */
	private static final int MOST_DOUBLINGS = 20;

	private static final Logger logger = LoggerFactory.getLogger(RetryPolicy.class);

	private final int attempts;

	private final long firstPauseMillis;

	private final long longestPauseMillis;

	/**
	 * Creates a policy.
	 * @param attempts most attempts in all, at least 1; {@link Integer#MAX_VALUE} for no limit
	 * @param firstPause upper bound of the pause after the first failure
	 * @param longestPause upper bound of any pause
	 */
	public RetryPolicy(int attempts, Duration firstPause, Duration longestPause) {
		if (attempts < 1) {
			throw new IllegalArgumentException("attempts must be at least 1, not " + attempts);
		}
		this.attempts = attempts;
		this.firstPauseMillis = Math.max(1, firstPause.toMillis());
		this.longestPauseMillis = Math.max(this.firstPauseMillis, longestPause.toMillis());
	}

	/**
	 * Returns the policy for work rolled back by lock contention: pauses from 20 ms up to 1 s.
	 * @param attempts most attempts in all, at least 1
	 * @return the policy
	 */
	public static RetryPolicy contention(int attempts) {
		return new RetryPolicy(attempts, CONTENTION_FIRST_PAUSE, CONTENTION_LONGEST_PAUSE);
	}

	/**
	 * Returns a policy that never gives up, for failures that heal with time (an unreachable
	 * server); the caller decides when to stop.
	 * @param firstPause upper bound of the pause after the first failure
	 * @param longestPause upper bound of any pause
	 * @return the policy
	 */
	public static RetryPolicy untilStopped(Duration firstPause, Duration longestPause) {
		return new RetryPolicy(Integer.MAX_VALUE, firstPause, longestPause);
	}

	/** Returns the most attempts in all. */
	public int attempts() {
		return this.attempts;
	}

	/**
	 * Returns whether another attempt follows once {@code failures} attempts have failed.
	 * @param failures attempts failed so far, at least 1
	 * @return whether to try again
	 */
	public boolean allowsRetry(int failures) {
		return failures < this.attempts;
	}

	/**
	 * Returns the pause before the next attempt once {@code failures} attempts in a row have failed:
	 * between half of and the whole of the first pause doubled {@code failures - 1} times, capped
	 * at the longest pause.
	 * @param failures attempts failed in a row, at least 1
	 * @return the pause
	 */
	public Duration pause(int failures) {
		int doublings = Math.max(0, Math.min(failures - 1, MOST_DOUBLINGS));
		long ceiling = Math.min(this.longestPauseMillis, this.firstPauseMillis << doublings);
		return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
	}

	/**
	 * Waits out {@link #pause(int)}.
	 * @param failures attempts failed in a row, at least 1
	 * @throws InterruptedException when interrupted while waiting
	 */
	public void sleep(int failures) throws InterruptedException {
		Thread.sleep(pause(failures).toMillis());
	}

	/**
	 * Runs {@code attempt}, and runs it again after a pause while it fails with lock contention
	 * ({@link SqlErrors#isContention}), up to {@link #attempts()} times in all. The server rolled the
	 * failed attempt back, so the attempt must be one that may simply run again. Any other failure,
	 * the last contention, or contention met while the thread is interrupted is thrown as it came,
	 * with the interrupt flag kept.
	 * @param what names the work for the debug log, as in "Chunk read of `shop`.`orders`"
	 * @param attempt the work
	 * @return what the successful attempt returned
	 * @throws E as the last attempt threw it
	 */
	public <T, E extends Exception> T rerunOnContention(String what, Attempt<T, E> attempt) throws E {
		for (int failures = 1;; failures++) {
			try {
				return attempt.run();
			}
			catch (Exception ex) {
				int code = SqlErrors.contentionCode(ex);
				if (code == 0 || !allowsRetry(failures)) {
					throw ex;
				}
				Duration pause = pause(failures);
				logger.debug("{} met a {} (attempt {} of {}); running it again in {} ms", what,
						SqlErrors.describeContention(code), failures, this.attempts, pause.toMillis());
				try {
					Thread.sleep(pause.toMillis());
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					ex.addSuppressed(interrupted);
					throw ex;
				}
			}
		}
	}

	/**
	 * One run of work that may fail.
	 *
	 * @param <T> what it returns; {@link Void} for nothing
	 * @param <E> the checked exception it throws
	 */
	@FunctionalInterface
	public interface Attempt<T, E extends Exception> {

		/**
		 * Runs the work once.
		 * @return its result
		 * @throws E when it fails
		 */
		T run() throws E;

	}

}
