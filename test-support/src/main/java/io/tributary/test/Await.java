package io.tributary.test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Waits for a condition with a deadline, polling every {@value #POLL_MILLIS} ms, so a test waits
 * exactly as long as the system under test needs and never sleeps for a guessed time. A wait that
 * samples something between its looks, or whose condition is costly to evaluate, passes a poll
 * interval of its own.
 *
 * <pre>{@code
 * Await.until("a writer waiting at the gate", Duration.ofMinutes(1), faults::writerWaitsAtGate);
 * PipelineStatus failed = Await.value("a preflight error", Duration.ofMinutes(1), pipeline::status,
 *         (status) -> status.lastError() != null);
 * }</pre>
 *
 * <p>A condition or probe that throws ends the wait with that exception. A wait that runs out
 * throws an {@link AssertionError} that names what was awaited and, for {@link #value}, the last
 * value read, so the failure shows the state the test was stuck in.
 */
public final class Await {

	static final long POLL_MILLIS = 20;

	private static final Duration POLL = Duration.ofMillis(POLL_MILLIS);

	private Await() {}

	/** A condition that may need the database to tell. */
	@FunctionalInterface
	public interface Condition {

		/** Whether the awaited state is reached. */
		boolean met() throws Exception;
	}

	/** Reads the value a wait looks at. */
	@FunctionalInterface
	public interface Probe<T> {

		/** The current value. */
		T read() throws Exception;
	}

	/**
	 * Returns once {@code condition} is met.
	 *
	 * @param what the awaited state in words, for the failure message
	 * @throws AssertionError if it is not met within {@code timeout}
	 */
	public static void until(String what, Duration timeout, Condition condition) throws Exception {
		until(what, timeout, POLL, condition);
	}

	/**
	 * Returns once {@code condition} is met, looking at it every {@code poll}.
	 *
	 * @param what the awaited state in words, for the failure message
	 * @throws AssertionError if it is not met within {@code timeout}
	 */
	public static void until(String what, Duration timeout, Duration poll, Condition condition) throws Exception {
		value(what, timeout, poll, condition::met, Boolean::booleanValue);
	}

	/**
	 * Reads {@code probe} until {@code wanted} accepts what it read, and returns that value.
	 *
	 * @param what the awaited state in words, for the failure message
	 * @throws AssertionError with the last value read if none is accepted within {@code timeout}
	 */
	public static <T> T value(String what, Duration timeout, Probe<T> probe, Predicate<? super T> wanted)
			throws Exception {
		return value(what, timeout, POLL, probe, wanted);
	}

	/**
	 * Reads {@code probe} every {@code poll} until {@code wanted} accepts what it read, and returns
	 * that value.
	 *
	 * @param what the awaited state in words, for the failure message
	 * @throws AssertionError with the last value read if none is accepted within {@code timeout}
	 * @throws IllegalArgumentException if {@code poll} is not positive
	 */
	public static <T> T value(String what, Duration timeout, Duration poll, Probe<T> probe,
			Predicate<? super T> wanted) throws Exception {
		if (poll.isNegative() || poll.isZero()) {
			throw new IllegalArgumentException("Poll interval must be positive, was " + poll);
		}
		long pollNanos = poll.toNanos();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			T value = probe.read();
			if (wanted.test(value)) {
				return value;
			}
			if (System.nanoTime() - deadline > 0) {
				String last = value instanceof Boolean ? "" : "; last seen: " + value;
				throw new AssertionError("Not reached within " + timeout + ": " + what + last);
			}
			TimeUnit.NANOSECONDS.sleep(pollNanos);
		}
	}
}
