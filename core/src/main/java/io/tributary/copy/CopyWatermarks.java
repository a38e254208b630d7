package io.tributary.copy;

import io.tributary.schema.RowKey;
import io.tributary.subscription.Verdict;
import io.tributary.subscription.Watermarks;

/**
 * An immutable reading of a copier's progress.
 *
 * <p>Keys at or below {@code landed} are in the target: their changes apply. Keys above it and at
 * or below {@code dispatched} belong to a chunk being read or written: their changes wait. Keys
 * above {@code dispatched} will be read by a later chunk; because chunk reads are locking reads,
 * which wait for any writer of those rows to commit, that read is guaranteed to see every change
 * already delivered, so such changes may be dropped.
 *
 * @param started whether any chunk has been dispatched
 * @param done whether the copy has finished
 * @param comparable whether keys can be compared with the watermarks in memory; when false every
 * change waits until the copy is done
 * @param landed highest key whose chunk has landed, or {@code null}
 * @param dispatched highest key of the dispatched chunks, or {@code null} when the chunk in flight
 * is open-ended (the last one)
 */
record CopyWatermarks(boolean started, boolean done, boolean comparable, RowKey landed, RowKey dispatched)
		implements Watermarks {

	static final CopyWatermarks NOT_STARTED = new CopyWatermarks(false, false, true, null, null);

	@Override
	public boolean appliesAll() {
		return this.done;
	}

	@Override
	public Verdict classify(RowKey key) {
		if (this.done) {
			return Verdict.APPLY;
		}
		if (!this.started || !this.comparable) {
			return Verdict.DEFER;
		}
		if (this.landed != null && key.compareTo(this.landed) <= 0) {
			return Verdict.APPLY;
		}
		if (this.dispatched == null || key.compareTo(this.dispatched) <= 0) {
			return Verdict.DEFER;
		}
		return Verdict.DROP;
	}

}
