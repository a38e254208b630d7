package io.tributary.schema;

import java.util.Arrays;

/**
 * The key of a row as a map key: equal when every key value is equal, {@code byte[]} values
 * compared by content. The hash is computed once.
 */
public final class RowKey implements Comparable<RowKey> {

	private final Object[] values;

	private final int hash;

	public RowKey(Object[] values) {
		this.values = values;
		this.hash = Arrays.deepHashCode(values);
	}

	public Object[] values() {
		return this.values;
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof RowKey other) && this.hash == other.hash && Arrays.deepEquals(this.values, other.values);
	}

	@Override
	public int hashCode() {
		return this.hash;
	}

	/**
	 * Orders keys column by column. Only meaningful for layouts whose
	 * {@link TableLayout#keyOrderIsComparable()} is true.
	 */
	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public int compareTo(RowKey other) {
		for (int i = 0; i < this.values.length; i++) {
			int c = ((Comparable) this.values[i]).compareTo(other.values[i]);
			if (c != 0) {
				return c;
			}
		}
		return 0;
	}

	@Override
	public String toString() {
		return Arrays.deepToString(this.values);
	}

}
