package io.tributary.apply;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.tributary.schema.Values;

/**
 * Splits one drain's rows into statements so that rows likely to lock neighbouring entries of a
 * UNIQUE secondary index share a statement instead of racing each other in two.
 *
 * <p>Two REPLACE statements on disjoint primary keys still deadlock when their rows sit next to
 * each other in a unique secondary index: duplicate checking takes next-key locks there, gap
 * included, and secondary order has nothing to do with primary key order. So, per drain:
 * <ol>
 * <li>the candidate index whose leading values are most clustered among these rows is chosen,
 * by measuring (see {@link #clustering}), because clustering is a property of the workload;
 * <li>rows are sorted by that index and cut into contiguous batches of the configured size, each
 * cut moved to where the leading value changes when that is close by, so a run of rows sharing a
 * leading value stays in one statement;
 * <li>{@link BatchPlan#stripes()} keeps neighbouring batches from running together.
 * </ol>
 * Without candidates rows keep their order and are cut by size only: with no unique secondary
 * index, statements on disjoint keys have nothing to collide on.
 *
 * <p>A poor choice costs throughput, never correctness: batches stay disjoint by key whatever the
 * order, and contention that partitioning misses is retried by the caller.
 */
final class BatchPartitioner {

	private final List<UniqueIndex> candidates;

	private final int targetRows;

	private final int limitRows;

	private final long targetBytes;

	/**
	 * Creates a partitioner.
	 * @param candidates indexes to sort by, in order of preference when equally clustered
	 * @param targetRows rows per batch to aim for
	 * @param limitRows rows one batch must never exceed (the statement's placeholder limit); a cut
	 * may move forward up to half a batch to the end of a run, but not past this
	 * @param targetBytes approximate bytes of values per batch to aim for
	 */
	BatchPartitioner(List<UniqueIndex> candidates, int targetRows, int limitRows, long targetBytes) {
		this.candidates = List.copyOf(candidates);
		this.targetRows = Math.max(1, Math.min(targetRows, limitRows));
		this.limitRows = Math.max(this.targetRows, limitRows);
		this.targetBytes = Math.max(1, targetBytes);
	}

	List<UniqueIndex> candidates() {
		return this.candidates;
	}

	/** Sorts and cuts rows (or keys, with candidates over key positions). */
	BatchPlan plan(List<Object[]> rows) {
		if (rows.isEmpty()) {
			return new BatchPlan(null, List.of());
		}
		UniqueIndex index = choose(rows);
		List<Object[]> ordered = rows;
		if (index != null) {
			ordered = new ArrayList<>(rows);
			ordered.sort(ValueOrder.byColumns(index.columns()));
		}
		return new BatchPlan(index, cut(ordered, index));
	}

	private UniqueIndex choose(List<Object[]> rows) {
		UniqueIndex best = null;
		double bestScore = -1;
		for (UniqueIndex candidate : this.candidates) {
			double score = (this.candidates.size() == 1) ? 0 : clustering(rows, candidate);
			if (score > bestScore) {
				best = candidate;
				bestScore = score;
			}
		}
		return best;
	}

	/**
	 * Measures how clustered an index's leading values are among some rows: the share of rows
	 * that have a neighbour among the others, counting a repeated leading value (NULL included,
	 * the index keeps NULLs together) and, for a single integer column, the next integer.
	 * Between 0 (spread out) and 1.
	 */
	static double clustering(List<Object[]> rows, UniqueIndex index) {
		Map<Object, Integer> counts = new HashMap<>(rows.size() * 2);
		long nulls = 0;
		for (Object[] row : rows) {
			Object value = ValueOrder.valueAt(row, index.leading());
			if (value == null) {
				nulls++;
			}
			else {
				counts.merge(hashable(value), 1, Integer::sum);
			}
		}
		long neighbours = Math.max(0, nulls - 1) + (rows.size() - nulls - counts.size());
		if (index.columns().length == 1) {
			for (Object value : counts.keySet()) {
				if ((value instanceof Long number && number != Long.MAX_VALUE && counts.containsKey(number + 1))
						|| (value instanceof BigInteger big && counts.containsKey(big.add(BigInteger.ONE)))) {
					neighbours++;
				}
			}
		}
		return (double) neighbours / rows.size();
	}

	private static Object hashable(Object value) {
		return (value instanceof byte[] bytes) ? ByteBuffer.wrap(bytes) : value;
	}

	private List<List<Object[]>> cut(List<Object[]> rows, UniqueIndex index) {
		List<List<Object[]>> batches = new ArrayList<>();
		int from = 0;
		while (from < rows.size()) {
			int to = from;
			long bytes = 0;
			while (to < rows.size() && to - from < this.targetRows) {
				bytes += Values.sizeOf(rows.get(to));
				to++;
				if (bytes >= this.targetBytes) {
					break;
				}
			}
			if (index != null && to < rows.size()) {
				to = nudge(rows, from, to, index.leading());
			}
			batches.add(rows.subList(from, to));
			from = to;
		}
		return batches;
	}

	/**
	 * Moves a cut at {@code to} out of a run of equal leading values: back to the run's start if
	 * that keeps at least half the batch, else forward to its end if that adds at most half a
	 * batch, else nowhere (the run is too long for one statement anyway).
	 */
	private int nudge(List<Object[]> rows, int from, int to, int leading) {
		Object boundary = ValueOrder.valueAt(rows.get(to), leading);
		if (!sameValue(ValueOrder.valueAt(rows.get(to - 1), leading), boundary)) {
			return to;
		}
		int start = to - 1;
		while (start > from && sameValue(ValueOrder.valueAt(rows.get(start - 1), leading), boundary)) {
			start--;
		}
		if (start - from >= Math.max(1, (to - from) / 2)) {
			return start;
		}
		int reach = Math.min(rows.size(), Math.min(from + this.limitRows, to + Math.max(1, (to - from) / 2)));
		int end = to;
		while (end < reach && sameValue(ValueOrder.valueAt(rows.get(end), leading), boundary)) {
			end++;
		}
		boolean runEnds = end == rows.size() || !sameValue(ValueOrder.valueAt(rows.get(end), leading), boundary);
		return runEnds ? end : to;
	}

	private static boolean sameValue(Object a, Object b) {
		return ValueOrder.INSTANCE.compare(a, b) == 0;
	}

}
