package io.tributary.copy;

import java.util.ArrayList;
import java.util.List;

import io.tributary.schema.RowKey;

/**
 * Which chunks of a copy are dispatched and which have landed. Chunks are numbered in dispatch
 * (and key) order; chunk {@code i} covers the keys after chunk {@code i-1}'s upper bound up to its
 * own. The landed watermark is the upper bound of the last chunk of the longest landed prefix.
 * Callers synchronize on the ledger.
 */
final class ChunkLedger {

	private final List<RowKey> uppers = new ArrayList<>();

	private final List<Boolean> landed = new ArrayList<>();

	private int prefix;

	private RowKey landedUpTo;

	ChunkLedger(RowKey resumedAfter) {
		this.landedUpTo = resumedAfter;
	}

	/** Records a dispatched chunk; {@code upper} is {@code null} for the open-ended last chunk. */
	synchronized int dispatch(RowKey upper) {
		this.uppers.add(upper);
		this.landed.add(false);
		return this.uppers.size() - 1;
	}

	synchronized void land(int chunk) {
		this.landed.set(chunk, true);
		while (this.prefix < this.landed.size() && this.landed.get(this.prefix)) {
			RowKey upper = this.uppers.get(this.prefix);
			if (upper != null) {
				this.landedUpTo = upper;
			}
			this.prefix++;
		}
	}

	/** Returns the landed watermark, or {@code null} when nothing has landed. */
	synchronized RowKey landed() {
		return this.landedUpTo;
	}

	/** Returns the upper bound of the newest dispatched chunk, {@code null} when it is open-ended. */
	synchronized RowKey dispatched() {
		return this.uppers.isEmpty() ? this.landedUpTo : this.uppers.get(this.uppers.size() - 1);
	}

	synchronized boolean allLanded() {
		return this.prefix == this.landed.size();
	}

	/** Whether the open-ended last chunk has been dispatched. */
	synchronized boolean lastDispatched() {
		return !this.uppers.isEmpty() && this.uppers.get(this.uppers.size() - 1) == null;
	}

	/**
	 * Returns the watermarks of the copy in progress as they stand in this ledger.
	 * @param comparable whether keys can be compared with the watermarks in memory
	 */
	synchronized CopyWatermarks watermarks(boolean comparable) {
		return new CopyWatermarks(true, false, comparable, landed(), dispatched());
	}

}
