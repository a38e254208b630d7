package io.tributary.copy;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;

/**
 * Plans the chunks of a table whose key is a single integer column by stepping through the key
 * space: each chunk covers the next {@code step} key values, so no query is needed to find where
 * it ends. The step is the wanted rows per chunk divided by the density (rows per key value) seen
 * in the last few landed chunks, grows by at most a factor of two from one chunk to the next, and
 * never exceeds the most rows a chunk may hold.
 *
 * <p>Because a key value holds at most one row, a chunk never reads more rows than its step. When
 * the recent chunks hold fewer than {@link #SPARSE_BELOW} rows per key value, stepping would walk
 * through mostly empty ranges (and a large step could land on a dense cluster), so the plan reports
 * {@link #sparse()} and the copier bounds the remaining chunks by probing keys instead.
 *
 * <p>All arithmetic is on {@link BigInteger}, so BIGINT UNSIGNED keys above {@link Long#MAX_VALUE}
 * and negative keys step like any other. Called from the dispatching thread and from the copy
 * workers; every method is synchronized.
 */
final class KeyStepper {

	/** Rows per key value below which the rest of the table is chunked by probing keys. */
	static final double SPARSE_BELOW = 0.2;

	/** Landed chunks the density is judged over. */
	static final int WINDOW = 4;

	private static final Set<String> INTEGER_TYPES = Set.of("tinyint", "smallint", "mediumint", "int", "integer",
			"bigint");

	private final boolean unsigned64;

	private final Deque<long[]> recent = new ArrayDeque<>();

	private BigInteger max;

	private final long maxStep;

	private long step;

	/**
	 * Creates a plan.
	 * @param unsigned64 whether keys are BIGINT UNSIGNED, held as {@link BigInteger}; otherwise
	 * they are held as {@link Long}
	 * @param max the highest key when the copy started
	 * @param initialStep key values of the first chunk
	 * @param maxStep most key values of a chunk, which bounds the rows it reads
	 */
	KeyStepper(boolean unsigned64, BigInteger max, long initialStep, long maxStep) {
		this.unsigned64 = unsigned64;
		this.max = max;
		this.maxStep = Math.max(1, maxStep);
		this.step = Math.max(1, Math.min(initialStep, this.maxStep));
	}

	/** Returns whether a table's key is one integer column, the shape this plan can step through. */
	static boolean appliesTo(TableLayout layout) {
		if (layout.keys().size() != 1) {
			return false;
		}
		Column key = layout.keys().get(0);
		return (key.kind() == ValueKind.INTEGER || key.kind() == ValueKind.UNSIGNED_BIGINT)
				&& INTEGER_TYPES.contains(key.dataType());
	}

	/** Returns a key value as a number. */
	static BigInteger number(Object key) {
		return (key instanceof BigInteger big) ? big : BigInteger.valueOf(((Number) key).longValue());
	}

	/** Returns a number as a key value of this table's key column. */
	Object key(BigInteger number) {
		return this.unsigned64 ? number : (Object) number.longValueExact();
	}

	/**
	 * Plans the chunk after {@code lowerExclusive} and returns its inclusive upper bound. When
	 * {@link #reachesMax} says it reaches the highest key known, the caller re-reads the highest key
	 * (see {@link #raiseMax}) and, if it still does, makes the chunk open-ended.
	 * @param lowerExclusive the key the chunk starts after
	 * @param targetRows rows a chunk should hold
	 */
	synchronized BigInteger nextUpper(BigInteger lowerExclusive, int targetRows) {
		this.step = nextStep(targetRows);
		return lowerExclusive.add(BigInteger.valueOf(this.step));
	}

	/** Returns whether a chunk ending at {@code upper} covers the highest key known. */
	synchronized boolean reachesMax(BigInteger upper) {
		return upper.compareTo(this.max) >= 0;
	}

	/** Raises the highest key known; returns whether it grew. */
	synchronized boolean raiseMax(BigInteger current) {
		if (current == null || current.compareTo(this.max) <= 0) {
			return false;
		}
		this.max = current;
		return true;
	}

	/** Records a landed chunk: the rows it held and the key values it covered. */
	synchronized void landed(long rows, long width) {
		this.recent.addLast(new long[] { rows, Math.max(1, width) });
		while (this.recent.size() > WINDOW) {
			this.recent.removeFirst();
		}
	}

	/** Returns rows per key value over the recent landed chunks, or 1 before any has landed. */
	synchronized double density() {
		long rows = 0;
		long width = 0;
		for (long[] chunk : this.recent) {
			rows += chunk[0];
			width += chunk[1];
		}
		return (width == 0) ? 1.0 : (double) rows / width;
	}

	/** Returns whether the last {@link #WINDOW} landed chunks were too sparse to keep stepping. */
	synchronized boolean sparse() {
		return this.recent.size() >= WINDOW && density() < SPARSE_BELOW;
	}

	/** Returns the current step, in key values. */
	synchronized long step() {
		return this.step;
	}

	private long nextStep(int targetRows) {
		double wanted = targetRows / Math.max(density(), SPARSE_BELOW);
		double capped = Math.min(Math.min(wanted, 2.0 * this.step), this.maxStep);
		return Math.max(1, (long) capped);
	}

}
