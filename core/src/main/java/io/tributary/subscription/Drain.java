package io.tributary.subscription;

import java.util.List;


/**
 * What one drain took out.
 *
 * @param upserts merged changes carrying a row image
 * @param deletes merged changes deleting a key
 * @param deferred how many changes stayed because their chunk is in flight
 * @param dropped how many changes were dropped above the high watermark
 * @param runs queued changes in binlog order, to apply after the merged ones, run after run
 * (see {@link OrderedReplay}); empty unless the buffer keeps binlog order
 * @param bytes estimated heap bytes of the changes taken out, counted against the buffer's soft
 * limit until the drain is {@linkplain BufferedSubscription#settle(Drain) settled}
 */
public record Drain(List<BufferedChange> upserts, List<BufferedChange> deletes, int deferred, int dropped, List<ChangeRun> runs,
		long bytes) {

	public Drain {
		runs = List.copyOf(runs);
	}

	/** Creates a drain of merged changes only, counting no bytes. */
	public Drain(List<BufferedChange> upserts, List<BufferedChange> deletes, int deferred, int dropped) {
		this(upserts, deletes, deferred, dropped, List.of(), 0);
	}

	public boolean isEmpty() {
		return this.upserts.isEmpty() && this.deletes.isEmpty() && this.runs.isEmpty();
	}

	/** Returns how many changes the drain took out, merged and queued. */
	public int size() {
		return mergedSize() + this.runs.stream().mapToInt(ChangeRun::size).sum();
	}

	/** Returns how many merged changes the drain took out. */
	public int mergedSize() {
		return this.upserts.size() + this.deletes.size();
	}

}
