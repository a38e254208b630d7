package io.tributary.subscription;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tributary.apply.Applier;
import io.tributary.schema.RowKey;

/**
 * Consecutive changes of one kind, all upserts or all deletes, taken in binlog order from the
 * queue of a buffer that keeps binlog order. No two changes of a run have keys that differ but
 * fold to the same value (see {@link KeyFold}), so the run can be written with one statement (or a
 * few, cut by size) without any question of which of two collation-equal rows wins. A key that
 * repeats exactly is written once, with its last image: that is the state a run of upserts leaves.
 *
 * @param delete whether the run deletes keys; otherwise it carries row images
 * @param changes the changes in binlog order, each key as often as it changed
 */
public record ChangeRun(boolean delete, List<BufferedChange> changes) {

	public ChangeRun {
		changes = List.copyOf(changes);
	}

	/** Returns how many changes the run holds. */
	public int size() {
		return this.changes.size();
	}

	/**
	 * Returns what the run writes: for each distinct key, in order of first appearance, its last
	 * row image, or the key values for a run of deletes.
	 */
	public List<Object[]> values() {
		Map<RowKey, Object[]> last = new LinkedHashMap<>();
		for (BufferedChange entry : this.changes) {
			last.put(entry.key(), this.delete ? entry.key().values() : entry.image());
		}
		return new ArrayList<>(last.values());
	}

	/**
	 * Writes the run.
	 * @param applier writes the statements; they run one after another, in the order given
	 * @throws io.tributary.apply.ApplyException when a statement fails
	 */
	public void applyTo(Applier applier) {
		if (this.delete) {
			applier.delete(values());
		}
		else {
			applier.upsert(values());
		}
	}

	/**
	 * Splits a sequence of changes into runs: a new run starts where the kind changes, and where a
	 * key folds to the value of a different key already in the current run.
	 * @param sequence changes in binlog order
	 * @param fold folds keys of the table
	 * @return the runs, in order; together they hold the sequence exactly
	 */
	static List<ChangeRun> split(List<BufferedChange> sequence, KeyFold fold) {
		List<ChangeRun> runs = new ArrayList<>();
		List<BufferedChange> current = new ArrayList<>();
		Map<RowKey, RowKey> seen = new HashMap<>();
		for (BufferedChange entry : sequence) {
			RowKey folded = fold.fold(entry.key());
			RowKey earlier = seen.get(folded);
			boolean collides = earlier != null && !earlier.equals(entry.key());
			if (!current.isEmpty() && (current.get(0).isDelete() != entry.isDelete() || collides)) {
				runs.add(new ChangeRun(current.get(0).isDelete(), current));
				current = new ArrayList<>();
				seen.clear();
			}
			current.add(entry);
			seen.put(folded, entry.key());
		}
		if (!current.isEmpty()) {
			runs.add(new ChangeRun(current.get(0).isDelete(), current));
		}
		return runs;
	}

}
