package io.tributary.subscription;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import io.tributary.schema.RowKey;

/**
 * The keys of one table that an early flush wrote, or that were held back and written at the
 * interval: a key changed again within the flush interval waits for the interval, so a row
 * updated a thousand times a second is still written a few times a second, while a key changed
 * once is written as soon as the reader is idle. Guarded by the buffer's lock.
 *
 * <p>Two generations: the keys seen since the last flush at the interval, and the hot keys of the
 * interval before, which stay held; a key that was not changed again in a whole interval cools
 * down. Each generation holds at most {@value #MOST} keys: past that, further keys are treated as
 * cold, which costs writes but never correctness.
 */
final class HotKeys {

	static final int MOST = 4096;

	private Set<RowKey> recent = new HashSet<>();

	private Set<RowKey> hot = new HashSet<>();

	/** Set at a flush at the interval, from what it wrote that was held. */
	private Set<RowKey> next = new HashSet<>();

	/** Whether an early flush leaves the key's change for the flush at the interval. */
	boolean holds(RowKey key) {
		return this.recent.contains(key) || this.hot.contains(key);
	}

	/** A flush wrote the key: an early one, or one at the interval. */
	void written(RowKey key, boolean early) {
		if (early) {
			if (this.recent.size() < MOST) {
				this.recent.add(key);
			}
		}
		else if (holds(key) && this.next.size() < MOST) {
			this.next.add(key);
		}
	}

	/**
	 * A flush at the interval that took every buffered key is over; {@code written} tells which
	 * keys it wrote. Those it had held stay hot for one more interval.
	 */
	void intervalOver(Predicate<RowKey> written) {
		for (Set<RowKey> held : List.of(this.recent, this.hot)) {
			for (RowKey key : held) {
				if (written.test(key) && this.next.size() < MOST) {
					this.next.add(key);
				}
			}
		}
		intervalOver();
	}

	/** A flush at the interval is over: its held keys stay hot for one more interval. */
	void intervalOver() {
		this.hot = this.next;
		this.next = new HashSet<>();
		this.recent = new HashSet<>();
	}

	void clear() {
		this.recent.clear();
		this.hot.clear();
		this.next.clear();
	}

}
