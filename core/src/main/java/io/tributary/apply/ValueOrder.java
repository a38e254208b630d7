package io.tributary.apply;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Comparator;

/**
 * A best-effort approximation of the server's index order over canonical values (see
 * {@link io.tributary.schema.ValueKind}): {@code null} first, numbers by value, text
 * case-insensitively first (the usual collations are), bytes unsigned.
 *
 * <p>It only decides which rows share a statement, never what is written, so a value the server
 * orders differently (an accent-insensitive collation, say) costs some lock contention and
 * nothing else.
 */
final class ValueOrder implements Comparator<Object> {

	static final ValueOrder INSTANCE = new ValueOrder();

	private ValueOrder() {
	}

	@Override
	public int compare(Object a, Object b) {
		if (a == b) {
			return 0;
		}
		if (a == null || b == null) {
			return (a == null) ? -1 : 1;
		}
		if (a instanceof Long x && b instanceof Long y) {
			return Long.compare(x, y);
		}
		if (a instanceof String x && b instanceof String y) {
			int ignoringCase = String.CASE_INSENSITIVE_ORDER.compare(x, y);
			return (ignoringCase != 0) ? ignoringCase : x.compareTo(y);
		}
		if (a instanceof byte[] x && b instanceof byte[] y) {
			return Arrays.compareUnsigned(x, y);
		}
		if (a instanceof Number x && b instanceof Number y) {
			if (isFloatingPoint(x) || isFloatingPoint(y)) {
				return Double.compare(x.doubleValue(), y.doubleValue());
			}
			return decimal(x).compareTo(decimal(y));
		}
		int byKind = Integer.compare(rank(a), rank(b));
		return (byKind != 0) ? byKind : a.toString().compareTo(b.toString());
	}

	/** Compares rows by some of their columns. */
	static Comparator<Object[]> byColumns(int[] columns) {
		return (left, right) -> {
			for (int column : columns) {
				int c = INSTANCE.compare(valueAt(left, column), valueAt(right, column));
				if (c != 0) {
					return c;
				}
			}
			return 0;
		};
	}

	/** Returns a row's value of a column, {@code null} for an image read before the column existed. */
	static Object valueAt(Object[] row, int column) {
		return (column < row.length) ? row[column] : null;
	}

	private static boolean isFloatingPoint(Number number) {
		return number instanceof Float || number instanceof Double;
	}

	private static BigDecimal decimal(Number number) {
		if (number instanceof BigDecimal decimal) {
			return decimal;
		}
		if (number instanceof BigInteger integer) {
			return new BigDecimal(integer);
		}
		return BigDecimal.valueOf(number.longValue());
	}

	private static int rank(Object value) {
		if (value instanceof Number) {
			return 0;
		}
		if (value instanceof String) {
			return 1;
		}
		if (value instanceof byte[]) {
			return 2;
		}
		return 3;
	}

}
