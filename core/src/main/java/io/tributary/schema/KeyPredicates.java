package io.tributary.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL fragments comparing a table's key with bound values, in the expanded form
 * {@code k1 > ? OR (k1 = ? AND k2 > ?)} that MySQL and MariaDB both turn into an index range.
 */
public final class KeyPredicates {

	private KeyPredicates() {
	}

	/** A predicate and the key positions its placeholders bind, in order. */
	public record Predicate(String sql, int[] bindOrder) {

		/** Expands key values into the parameters of this predicate. */
		public List<Object> parameters(Object[] key) {
			List<Object> values = new ArrayList<>(this.bindOrder.length);
			for (int index : this.bindOrder) {
				values.add(key[index]);
			}
			return values;
		}

	}

	/** Returns {@code key > (?, ...)}. */
	public static Predicate greaterThan(List<Column> keys) {
		return compare(keys, ">");
	}

	/** Returns {@code key <= (?, ...)}. */
	public static Predicate atMost(List<Column> keys) {
		return compare(keys, "<");
	}

	private static Predicate compare(List<Column> keys, String strict) {
		StringBuilder sql = new StringBuilder("(");
		List<Integer> order = new ArrayList<>();
		for (int i = 0; i < keys.size(); i++) {
			if (i > 0) {
				sql.append(" OR ");
			}
			sql.append('(');
			for (int j = 0; j < i; j++) {
				sql.append(keys.get(j).quotedName()).append(" = ? AND ");
				order.add(j);
			}
			boolean last = i == keys.size() - 1;
			String operator = (last && strict.equals("<")) ? "<=" : strict;
			sql.append(keys.get(i).quotedName()).append(' ').append(operator).append(" ?)");
			order.add(i);
		}
		sql.append(')');
		return new Predicate(sql.toString(), order.stream().mapToInt(Integer::intValue).toArray());
	}

	/** Returns {@code (k1, k2) IN ((?, ?), ...)} for {@code count} keys, or {@code k IN (?, ...)}. */
	public static String in(List<Column> keys, int count) {
		StringBuilder sql = new StringBuilder();
		String tuple;
		if (keys.size() == 1) {
			sql.append(keys.get(0).quotedName());
			tuple = "?";
		}
		else {
			sql.append('(');
			for (int i = 0; i < keys.size(); i++) {
				sql.append((i > 0) ? ", " : "").append(keys.get(i).quotedName());
			}
			sql.append(')');
			tuple = "(" + "?, ".repeat(keys.size() - 1) + "?)";
		}
		sql.append(" IN (");
		for (int i = 0; i < count; i++) {
			sql.append((i > 0) ? ", " : "").append(tuple);
		}
		return sql.append(')').toString();
	}

	/** Returns the key columns quoted and comma-separated, for ORDER BY. */
	public static String orderBy(List<Column> keys) {
		StringBuilder sql = new StringBuilder();
		for (int i = 0; i < keys.size(); i++) {
			sql.append((i > 0) ? ", " : "").append(keys.get(i).quotedName());
		}
		return sql.toString();
	}

}
