package io.tributary.copy;

import java.util.List;

import io.tributary.schema.Column;
import io.tributary.schema.KeyPredicates;
import io.tributary.schema.RowKey;

/**
 * A key-ordered slice of a table: the keys above {@code lowerExclusive} and at or below
 * {@code upperInclusive}. A {@code null} bound is open, so consecutive ranges whose bounds meet
 * cover the whole key space without a gap or an overlap.
 *
 * @param lowerExclusive the key the range starts after, or {@code null} for the first range
 * @param upperInclusive the last key of the range, or {@code null} for the last range
 */
public record KeyRange(Object[] lowerExclusive, Object[] upperInclusive) {

	/**
	 * Returns the range's condition on a table with the given key, as {@code " WHERE ..."} (empty
	 * for the whole table), and adds the values its placeholders bind to {@code parameters}.
	 */
	public String where(List<Column> keys, List<Object> parameters) {
		StringBuilder sql = new StringBuilder();
		String glue = " WHERE ";
		if (this.lowerExclusive != null) {
			KeyPredicates.Predicate above = KeyPredicates.greaterThan(keys);
			sql.append(glue).append(above.sql());
			parameters.addAll(above.parameters(this.lowerExclusive));
			glue = " AND ";
		}
		if (this.upperInclusive != null) {
			KeyPredicates.Predicate atMost = KeyPredicates.atMost(keys);
			sql.append(glue).append(atMost.sql());
			parameters.addAll(atMost.parameters(this.upperInclusive));
		}
		return sql.toString();
	}

	@Override
	public String toString() {
		return "(" + ((this.lowerExclusive != null) ? new RowKey(this.lowerExclusive) : "start") + " .. "
				+ ((this.upperInclusive != null) ? new RowKey(this.upperInclusive) : "end") + "]";
	}

}
