package io.tributary.subscription;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

import io.tributary.source.Position;

/**
 * The resume positions of the changes a subscription holds, counted as a multiset, so that the
 * oldest is known however many changes share a position. It is what keeps the confirm bound behind
 * every change still buffered. Not thread-safe: the subscription calls it holding its lock.
 *
 * <p>The reader adds positions in binlog order, so they are kept in arrival order in a queue and
 * the oldest is at its head: an add and a remove cost a hash lookup, not a search tree's
 * rebalancing, which was a tenth of the reader's time on single-row transactions. Positions that
 * come back older than the newest (changes put back after a failed apply) go to a sorted set.
 * A position whose count fell to zero leaves the queue lazily, when it reaches the head, and the
 * queue is rebuilt when such leftovers outnumber the live positions.
 */
final class PendingPositions {

	/** How many changes are held per position; every position held is here. */
	private final Map<Position, int[]> counts = new HashMap<>();

	/** Positions in the order they arrived, each newer than the one before; may hold released ones. */
	private final ArrayDeque<Position> arrived = new ArrayDeque<>();

	/** Held positions that arrived older than the newest in {@link #arrived}. */
	private final TreeSet<Position> older = new TreeSet<>();

	/**
	 * Counts one more held change that resumes from {@code position}. A position newer than every
	 * one kept, the usual case, cannot be held yet, so it is counted without a lookup first.
	 */
	void add(Position position) {
		Position newest = this.arrived.peekLast();
		boolean newer = (newest == null || position.compareTo(newest) > 0)
				&& (this.older.isEmpty() || position.compareTo(this.older.last()) > 0);
		if (newer) {
			this.counts.put(position, new int[] { 1 });
			this.arrived.addLast(position);
			if (this.arrived.size() > 2 * this.counts.size() + 1024) {
				compact();
			}
			return;
		}
		int[] count = this.counts.get(position);
		if (count != null) {
			count[0]++;
			return;
		}
		this.counts.put(position, new int[] { 1 });
		this.older.add(position);
	}

	/** Counts one held change that resumes from {@code position} less. */
	void remove(Position position) {
		int[] count = this.counts.get(position);
		if (count == null) {
			return;
		}
		if (--count[0] == 0) {
			this.counts.remove(position);
			if (!this.older.isEmpty()) {
				this.older.remove(position);
			}
		}
	}

	/** Returns the oldest position of a held change, or {@code null} if none is held. */
	Position oldest() {
		while (!this.arrived.isEmpty() && !this.counts.containsKey(this.arrived.peekFirst())) {
			this.arrived.pollFirst();
		}
		Position first = this.arrived.peekFirst();
		Position earlier = this.older.isEmpty() ? null : this.older.first();
		return Position.min(first, earlier);
	}

	/** Returns how many positions the structure keeps, released ones not yet dropped included. */
	int retained() {
		return this.arrived.size() + this.older.size();
	}

	void clear() {
		this.counts.clear();
		this.arrived.clear();
		this.older.clear();
	}

	/** Drops released positions from the queue; what stays keeps its order. */
	private void compact() {
		for (int i = this.arrived.size(); i > 0; i--) {
			Position position = this.arrived.pollFirst();
			if (this.counts.containsKey(position)) {
				this.arrived.addLast(position);
			}
		}
	}

}
