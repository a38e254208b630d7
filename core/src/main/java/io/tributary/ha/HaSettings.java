package io.tributary.ha;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether a pipeline competes for leadership with other instances of itself, and how fast.
 *
 * @param enabled whether only the instance that holds the leader lock replicates; the others wait
 * as standbys
 * @param lease how long a leader stays leader without renewing; it renews about every third of it,
 * and a standby may end its session once it has lapsed on the target's clock
 * @param pollInterval how often a standby tries to become leader; at most the lease
 */
public record HaSettings(boolean enabled, Duration lease, Duration pollInterval) {

	/** The shortest lease: a renewal every third of it must fit between pauses of a busy JVM. */
	public static final Duration MIN_LEASE = Duration.ofSeconds(1);

	/** A lease of 15 seconds, polled every 2 seconds. */
	public static final Duration DEFAULT_LEASE = Duration.ofSeconds(15);

	public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(2);

	/** One instance replicates on its own, as without HA. */
	public static final HaSettings OFF = new HaSettings(false, DEFAULT_LEASE, DEFAULT_POLL_INTERVAL);

	public HaSettings {
		Objects.requireNonNull(lease, "lease");
		Objects.requireNonNull(pollInterval, "pollInterval");
		if (lease.compareTo(MIN_LEASE) < 0) {
			throw new IllegalArgumentException("The leader lease must be at least " + MIN_LEASE.toMillis()
					+ " ms, was " + lease.toMillis() + " ms");
		}
		if (pollInterval.isNegative() || pollInterval.isZero() || pollInterval.compareTo(lease) > 0) {
			throw new IllegalArgumentException("The standby poll interval must be positive and at most the lease ("
					+ lease.toMillis() + " ms), was " + pollInterval.toMillis() + " ms");
		}
	}

	/** Returns settings with HA on, the given lease and poll interval. */
	public static HaSettings enabled(Duration lease, Duration pollInterval) {
		return new HaSettings(true, lease, pollInterval);
	}

	/** Returns how often the leader renews its lease: a third of it. */
	public Duration renewEvery() {
		return this.lease.dividedBy(3);
	}

}
