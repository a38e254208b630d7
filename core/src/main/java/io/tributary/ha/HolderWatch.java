package io.tributary.ha;

import java.time.Duration;

/**
 * A standby's decision whether to end the session that holds the leader lock. It ends it only
 * when the lease has lapsed on the target's clock: the session the row names as the lock's is
 * ended at once; a session the row does not name (an instance that took the lock but has not
 * recorded its takeover, and may have stalled doing so) gets one more whole lease, counted from
 * when this standby first saw it.
 */
final class HolderWatch {

	/** The unrecorded holder being waited out, or {@code null}. */
	private Long watched;

	private long watchedSince;

	/**
	 * Decides on one observation.
	 * @param lease the row and the lock's holder as just read
	 * @param nowNanos the standby's monotonic clock ({@link System#nanoTime()})
	 * @param leaseLength the configured lease
	 * @return the session to end, or {@code null} to wait
	 */
	Long sessionToEnd(LeaderTable.Lease lease, long nowNanos, Duration leaseLength) {
		Long holder = lease.lockHolder();
		if (holder == null || !lease.lapsed()) {
			this.watched = null;
			return null;
		}
		if (holder == lease.lockSession()) {
			this.watched = null;
			return holder;
		}
		if (!holder.equals(this.watched)) {
			this.watched = holder;
			this.watchedSince = nowNanos;
			return null;
		}
		return (nowNanos - this.watchedSince >= leaseLength.toNanos()) ? holder : null;
	}

}
