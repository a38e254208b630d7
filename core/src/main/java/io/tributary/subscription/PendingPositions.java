package io.tributary.subscription;

import java.util.TreeMap;

import io.tributary.source.Position;

/**
 * The resume positions of the changes a subscription holds, counted as a multiset so that the
 * oldest is found in O(log n) however many changes share a position. It is what keeps the confirm
 * bound behind every change still buffered. Not thread-safe: the subscription calls it holding its
 * lock.
 */
final class PendingPositions {

	private final TreeMap<Position, Integer> counts = new TreeMap<>();

	/** Counts one more held change that resumes from {@code position}. */
	void add(Position position) {
		this.counts.merge(position, 1, Integer::sum);
	}

	/** Counts one held change that resumes from {@code position} less. */
	void remove(Position position) {
		this.counts.computeIfPresent(position, (held, count) -> (count == 1) ? null : count - 1);
	}

	/** Returns the oldest position of a held change, or {@code null} if none is held. */
	Position oldest() {
		return this.counts.isEmpty() ? null : this.counts.firstKey();
	}

	void clear() {
		this.counts.clear();
	}

}
