package io.tributary.schema;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import io.tributary.name.TableId;

/**
 * The column layout and key of one source table. Binlog row images are positional, so a layout
 * is what gives each value of an image its column.
 *
 * @param table the table
 * @param columns all columns in ordinal order
 * @param keyColumns ordinals (into {@code columns}) of the primary key, or of the non-null unique
 * key that stands in for it, in key order
 */
public record TableLayout(TableId table, List<Column> columns, int[] keyColumns) {

	public TableLayout {
		columns = List.copyOf(columns);
		keyColumns = keyColumns.clone();
	}

	/** Returns the key of a full row image: its values at the key ordinals. */
	public Object[] keyOf(Object[] image) {
		Object[] key = new Object[this.keyColumns.length];
		for (int i = 0; i < key.length; i++) {
			key[i] = image[this.keyColumns[i]];
		}
		return key;
	}

	/** Returns the key columns in key order. */
	public List<Column> keys() {
		return Arrays.stream(this.keyColumns).mapToObj(this.columns::get).toList();
	}

	/** Returns the quoted, comma-separated list of all column names. */
	public String columnList() {
		return this.columns.stream().map(Column::quotedName).collect(Collectors.joining(", "));
	}

	/**
	 * Returns the ordinals of the columns a write gives values: the first {@code width} columns
	 * except generated ones, which the target computes and refuses values for.
	 */
	public int[] writtenColumns(int width) {
		return this.columns.subList(0, width).stream().filter((column) -> !column.generated())
			.mapToInt(Column::ordinal).toArray();
	}

	/** Returns the snapshot select list, one expression per column. */
	public String selectList() {
		return this.columns.stream().map(Column::selectExpression).collect(Collectors.joining(", "));
	}

	/**
	 * Returns whether the in-memory order of keys equals the server's index order, which is what
	 * lets the copier's watermarks be compared with buffered keys. True for keys made only of
	 * integer, decimal and unsigned columns.
	 */
	public boolean keyOrderIsComparable() {
		return keys().stream()
			.allMatch((column) -> column.kind() == ValueKind.INTEGER || column.kind() == ValueKind.UNSIGNED_BIGINT
					|| column.kind() == ValueKind.DECIMAL);
	}

	/**
	 * Returns whether equal keys in memory are exactly the keys the server treats as one row: true
	 * when every key column {@linkplain Column#isMemoryComparable() is memory-comparable}. When
	 * false, differing key values such as {@code 'A'} and {@code 'a'} under a case-insensitive
	 * collation can name the same row, so changes cannot be merged by key without losing their
	 * order.
	 */
	public boolean keyIsMemoryComparable() {
		return keys().stream().allMatch(Column::isMemoryComparable);
	}

}
