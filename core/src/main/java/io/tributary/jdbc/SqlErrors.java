package io.tributary.jdbc;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Tells what kind of failure a database error is, so that each caller retries, falls back or gives
 * up alike. Every question looks at the error and everything chained to it: its causes, the next
 * exceptions of an SQL error (a batch reports one per statement) and suppressed errors (a failed
 * rollback or close hides the real failure behind another).
 */
public final class SqlErrors {

	/** A deadlock: the server rolled the transaction back. */
	public static final int ER_LOCK_DEADLOCK = 1213;

	/** A lock wait timeout: the server rolled the statement back (the transaction, if so configured). */
	public static final int ER_LOCK_WAIT_TIMEOUT = 1205;

	/** The server refuses {@code LOAD DATA LOCAL}: MySQL 3948, MariaDB 4166, 1148 on older servers. */
	private static final Set<Integer> LOAD_REFUSED = Set.of(3948, 4166, 1148);

	/** Errors looked at in one chain at most; chains are short, and a cyclic one must still end. */
	private static final int MOST_VISITED = 64;

	private SqlErrors() {
	}

	/**
	 * Returns whether the error is lock contention, a deadlock or a lock wait timeout: the server
	 * rolled the work back, and running it again may succeed.
	 * @param error what an operation threw
	 * @return whether it is contention
	 */
	public static boolean isContention(Throwable error) {
		return contentionCode(error) != 0;
	}

	/**
	 * Returns {@value #ER_LOCK_DEADLOCK} or {@value #ER_LOCK_WAIT_TIMEOUT} when the error is lock
	 * contention, else 0.
	 * @param error what an operation threw
	 * @return the contention's error code, or 0
	 */
	public static int contentionCode(Throwable error) {
		SQLException found = find(error,
				(sql) -> sql.getErrorCode() == ER_LOCK_DEADLOCK || sql.getErrorCode() == ER_LOCK_WAIT_TIMEOUT);
		return (found != null) ? found.getErrorCode() : 0;
	}

	/**
	 * Names a contention code for messages.
	 * @param code {@link #ER_LOCK_DEADLOCK} or {@link #ER_LOCK_WAIT_TIMEOUT}
	 * @return "deadlock" or "lock wait timeout"
	 */
	public static String describeContention(int code) {
		return (code == ER_LOCK_DEADLOCK) ? "deadlock" : "lock wait timeout";
	}

	/**
	 * Returns whether the error concerns the connection rather than the statement: an SQLState of
	 * class 08, or a {@link SQLTransientConnectionException} or {@link SQLRecoverableException}.
	 * The connection is lost or was never made; the statement may never have reached the server.
	 * @param error what an operation threw
	 * @return whether it is a connection-level failure
	 */
	public static boolean isConnectionLevel(Throwable error) {
		return find(error, (sql) -> sql instanceof SQLTransientConnectionException
				|| sql instanceof SQLRecoverableException
				|| (sql.getSQLState() != null && sql.getSQLState().startsWith("08"))) != null;
	}

	/**
	 * Returns whether the server refused {@code LOAD DATA LOCAL INFILE} as such, rather than failing
	 * the load: a server with {@code local_infile=OFF}.
	 * @param error what a load threw
	 * @return whether loads are refused
	 */
	public static boolean isLoadRefused(Throwable error) {
		return find(error, (sql) -> LOAD_REFUSED.contains(sql.getErrorCode())) != null;
	}

	/**
	 * Returns the first SQL error chained to {@code error} (itself included) that passes the test:
	 * depth first, each error before its next exceptions, its suppressed errors and its cause.
	 */
	static SQLException find(Throwable error, Predicate<SQLException> test) {
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		Deque<Throwable> pending = new ArrayDeque<>();
		if (error != null) {
			pending.push(error);
		}
		while (!pending.isEmpty() && seen.size() < MOST_VISITED) {
			Throwable current = pending.pop();
			if (!seen.add(current)) {
				continue;
			}
			if (current instanceof SQLException sql && test.test(sql)) {
				return sql;
			}
			// Pushed in reverse, so they are looked at in the order named above.
			if (current.getCause() != null) {
				pending.push(current.getCause());
			}
			Throwable[] suppressed = current.getSuppressed();
			for (int i = suppressed.length - 1; i >= 0; i--) {
				pending.push(suppressed[i]);
			}
			if (current instanceof SQLException sql && sql.getNextException() != null) {
				pending.push(sql.getNextException());
			}
		}
		return null;
	}

}
