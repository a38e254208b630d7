package io.tributary.apply;

import java.util.ArrayList;
import java.util.List;

/**
 * How one drain's rows are split into statements.
 *
 * @param index the index the rows were sorted by, or {@code null} when they kept their order
 * @param batches the statements' rows, in sort order
 */
record BatchPlan(UniqueIndex index, List<List<Object[]>> batches) {

	BatchPlan {
		batches = List.copyOf(batches);
	}

	/**
	 * Returns the groups of batches that may run together, one group after the other. For sorted
	 * rows, the even-numbered batches and then the odd-numbered ones, so that no two batches in
	 * flight at once are neighbours in the index; unsorted rows have no neighbours worth keeping
	 * apart and form a single group.
	 */
	List<List<List<Object[]>>> stripes() {
		if (this.index == null || this.batches.size() < 2) {
			return this.batches.isEmpty() ? List.of() : List.of(this.batches);
		}
		List<List<Object[]>> evens = new ArrayList<>();
		List<List<Object[]>> odds = new ArrayList<>();
		for (int i = 0; i < this.batches.size(); i++) {
			((i % 2 == 0) ? evens : odds).add(this.batches.get(i));
		}
		return List.of(evens, odds);
	}

}
