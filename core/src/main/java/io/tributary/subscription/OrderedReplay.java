package io.tributary.subscription;

import java.util.ArrayList;
import java.util.List;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplyException;

/**
 * Applies the runs of one drain in binlog order, one after another, and remembers how far it
 * got: after a failure, {@link #remaining()} are the changes to put back, with
 * {@link BufferedSubscription#requeueAtFront}, so that the next drain starts where this one
 * stopped.
 *
 * <p>Not thread-safe: one replay belongs to one apply of one drain.
 */
public final class OrderedReplay {

	private final List<ChangeRun> runs;

	private int next;

	private int applied;

	/**
	 * Creates a replay.
	 * @param runs the runs of a drain, in order
	 */
	public OrderedReplay(List<ChangeRun> runs) {
		this.runs = List.copyOf(runs);
	}

	/**
	 * Applies the runs not applied yet, in order, stopping at the first that fails.
	 * @param applier writes each run's statements in the order given; it must not reorder them
	 * @throws ApplyException from the run that failed; the runs before it stay applied
	 */
	public void applyTo(Applier applier) {
		while (this.next < this.runs.size()) {
			ChangeRun run = this.runs.get(this.next);
			run.applyTo(applier);
			this.applied += run.size();
			this.next++;
		}
	}

	/** Returns how many changes have been applied. */
	public int applied() {
		return this.applied;
	}

	/** Returns the changes not applied yet, in binlog order. */
	public List<BufferedChange> remaining() {
		List<BufferedChange> rest = new ArrayList<>();
		for (ChangeRun run : this.runs.subList(this.next, this.runs.size())) {
			rest.addAll(run.changes());
		}
		return rest;
	}

}
