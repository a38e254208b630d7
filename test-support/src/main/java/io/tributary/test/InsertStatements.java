package io.tributary.test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Multi-row {@code INSERT} statements for numbered rows, so a test states which rows a table holds
 * rather than how the SQL text is assembled.
 *
 * <pre>{@code
 * // INSERT INTO t VALUES (1, 'r1'), ..., (1000, 'r1000') and four more statements up to 5000
 * schemas.onSource(InsertStatements.batches("t", 1, 5_000, (i) -> i + ", 'r" + i + "'"));
 * }</pre>
 */
public final class InsertStatements {

	/** Rows per statement of {@link #batches}. */
	public static final int BATCH_ROWS = 1000;

	private InsertStatements() {}

	/**
	 * Statements inserting rows {@code first} to {@code last}, both included, at most
	 * {@value #BATCH_ROWS} per statement, so each commits on its own in auto-commit mode.
	 *
	 * @param row the values of row {@code i} without the parentheses, for example {@code "7, 'x'"}
	 */
	public static String[] batches(String table, long first, long last, LongFunction<String> row) {
		List<String> statements = new ArrayList<>();
		for (long from = first; from <= last; from += BATCH_ROWS) {
			statements.add(single(table, from, Math.min(last, from + BATCH_ROWS - 1), row));
		}
		return statements.toArray(String[]::new);
	}

	/**
	 * One statement inserting rows {@code first} to {@code last}, both included: one transaction.
	 *
	 * @param row the values of row {@code i} without the parentheses, for example {@code "7, 'x'"}
	 */
	public static String single(String table, long first, long last, LongFunction<String> row) {
		StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" VALUES ");
		for (long i = first; i <= last; i++) {
			sql.append(i > first ? ", (" : "(").append(row.apply(i)).append(')');
		}
		return sql.toString();
	}
}
