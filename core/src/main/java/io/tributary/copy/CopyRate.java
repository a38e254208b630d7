package io.tributary.copy;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.LongSupplier;

/**
 * The speed of a copy over a recent window, and the time left at that speed. The copier records
 * its running row count each time a chunk lands; the rate is the rows added since the last record
 * that is at least one window old (or since the copy started, when it is younger than a window),
 * divided by the time since that record. A copy that stops landing chunks slows to zero once its
 * last record is a window old. Thread-safe.
 */
final class CopyRate {

	private final LongSupplier nanoClock;

	private final long windowNanos;

	/** Pairs of (nanos, rows copied), oldest first; the first one anchors the window. */
	private final Deque<long[]> samples = new ArrayDeque<>();

	/**
	 * Creates a rate starting now at zero rows.
	 * @param window how far back the rate looks
	 * @param nanoClock a monotonic clock in nanoseconds, such as {@code System::nanoTime}
	 */
	CopyRate(Duration window, LongSupplier nanoClock) {
		this.nanoClock = nanoClock;
		this.windowNanos = window.toNanos();
		this.samples.addLast(new long[] { nanoClock.getAsLong(), 0 });
	}

	/** Records the rows copied so far. */
	synchronized void record(long rowsCopied) {
		long now = this.nanoClock.getAsLong();
		this.samples.addLast(new long[] { now, rowsCopied });
		trim(now);
	}

	/** Returns rows per second over the recent window; 0 before any time has passed. */
	synchronized double rowsPerSecond() {
		long now = this.nanoClock.getAsLong();
		trim(now);
		long[] base = this.samples.peekFirst();
		long[] last = this.samples.peekLast();
		long elapsed = now - base[0];
		if (elapsed <= 0) {
			return 0;
		}
		return (last[1] - base[1]) * 1e9 / elapsed;
	}

	/**
	 * Returns the seconds left at the recent rate to copy {@code remainingRows}, or {@code null} when
	 * the rate is zero.
	 */
	Long etaSeconds(long remainingRows) {
		double rate = rowsPerSecond();
		if (rate <= 0) {
			return null;
		}
		return (long) Math.ceil(Math.max(0, remainingRows) / rate);
	}

	/** Drops records older than the window, keeping the newest of them as the window's anchor. */
	private void trim(long now) {
		long start = now - this.windowNanos;
		while (this.samples.size() > 1) {
			Iterator<long[]> oldest = this.samples.iterator();
			oldest.next();
			if (oldest.next()[0] > start) {
				break;
			}
			this.samples.removeFirst();
		}
	}

}
