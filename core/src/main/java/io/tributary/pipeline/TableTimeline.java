package io.tributary.pipeline;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;

import io.tributary.status.TableDetail;
import io.tributary.status.TableEvent;

/**
 * The recent events of one table, oldest first, bounded to {@link TableDetail#TIMELINE_LENGTH} so
 * a table that flaps for days holds no more than a page's worth. Written by the control thread,
 * the reader, the copy and checksum threads and the operator's actions, read by status requests.
 *
 * <p>Waiting for buffer room is noted as one event when a stretch of waiting begins and one when it
 * ends (after {@link #QUIET_NANOS} without a wait), not one per wait, so a table under steady pressure does not push
 * every other event out.
 */
final class TableTimeline {

	private final ArrayDeque<TableEvent> events = new ArrayDeque<>();

	private long parksSeen;

	private long parkedMillisSeen;

	private long parksAtStretchStart;

	private long parkedMillisAtStretchStart;

	private boolean parking;

	private long lastParkNanos;

	/** How long without a wait ends a stretch of waiting, so that a steady trickle reads as one. */
	static final long QUIET_NANOS = 5_000_000_000L;

	synchronized void add(TableEvent.Kind kind, String message, String by) {
		if (this.events.size() == TableDetail.TIMELINE_LENGTH) {
			this.events.removeFirst();
		}
		this.events.addLast(new TableEvent(Instant.now(), kind, message, by));
	}

	/**
	 * Compares the buffer's park counters with those seen at the previous call (one per catch-up
	 * cycle) and notes the start or the end of a stretch of waiting.
	 * @param parks times the reader has waited for room so far
	 * @param parkedMillis how long it has waited so far
	 * @param nowNanos the current {@link System#nanoTime()}
	 */
	void observeParks(long parks, long parkedMillis, long nowNanos) {
		String message = null;
		synchronized (this) {
			if (parks < this.parksSeen) {
				// A new buffer (resnapshot, restart) counts from zero again.
				this.parksSeen = 0;
				this.parkedMillisSeen = 0;
				this.parksAtStretchStart = 0;
				this.parkedMillisAtStretchStart = 0;
			}
			boolean grew = parks > this.parksSeen;
			if (grew) {
				this.lastParkNanos = nowNanos;
			}
			if (grew && !this.parking) {
				this.parking = true;
				this.parksAtStretchStart = this.parksSeen;
				this.parkedMillisAtStretchStart = this.parkedMillisSeen;
				message = "The reader began waiting for room in the buffer (soft limit reached)";
			}
			else if (!grew && this.parking && nowNanos - this.lastParkNanos >= QUIET_NANOS) {
				this.parking = false;
				message = "The reader stopped waiting for room: it waited " + (parks - this.parksAtStretchStart)
						+ " times for " + (parkedMillis - this.parkedMillisAtStretchStart) + " ms in all";
			}
			this.parksSeen = parks;
			this.parkedMillisSeen = parkedMillis;
		}
		if (message != null) {
			add(TableEvent.Kind.PARK, message, null);
		}
	}

	synchronized List<TableEvent> snapshot() {
		return List.copyOf(this.events);
	}

}
