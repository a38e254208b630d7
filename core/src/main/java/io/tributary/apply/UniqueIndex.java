package io.tributary.apply;

import java.util.Arrays;
import java.util.List;

/**
 * A UNIQUE secondary index of a target table, by the row-image ordinals of its columns.
 *
 * @param name index name
 * @param columns ordinals of the index columns in a row image, in index order
 * @param columnNames the column names, in index order
 */
record UniqueIndex(String name, int[] columns, List<String> columnNames) {

	UniqueIndex {
		columns = columns.clone();
		columnNames = List.copyOf(columnNames);
	}

	/** Returns the ordinal of the leading column. */
	int leading() {
		return this.columns[0];
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof UniqueIndex other) && this.name.equals(other.name)
				&& Arrays.equals(this.columns, other.columns);
	}

	@Override
	public int hashCode() {
		return this.name.hashCode() * 31 + Arrays.hashCode(this.columns);
	}

	@Override
	public String toString() {
		return this.name + this.columnNames.toString().replace('[', '(').replace(']', ')');
	}

}
