package io.tributary.pipeline;

import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.util.Set;

import io.tributary.jdbc.SqlErrors;

/**
 * The flushes of one table that failed in a row with the same error. A target error that no
 * known code marks as permanent (see {@link io.tributary.jdbc.PermanentFailure}) is retried, but
 * one that comes back the same, flush after flush, for {@value #ATTEMPTS} flushes and at least
 * {@link #SPAN}, will not go away by itself: the table stops instead of reading as streaming
 * while nothing is applied. Errors that do go away (a lost connection, a server that is read-only
 * or full of connections for a failover, lock contention) never count. Used by the catch-up loop's
 * thread only.
 */
final class FailureStreak {

	/** Identical failures in a row before a table stops. */
	static final int ATTEMPTS = 5;

	/** Least time between the first and the last failure of a streak that stops a table. */
	static final Duration SPAN = Duration.ofSeconds(10);

	/**
	 * Errors of a server that is failing over or overloaded: too many connections (1040, 1203),
	 * read-only (1290, 1792, 1836). Lock contention and lost connections are told by
	 * {@link SqlErrors}.
	 */
	private static final Set<Integer> SERVER_PASSING = Set.of(1040, 1203, 1290, 1792, 1836);

	private String signature;

	private int count;

	private long firstNanos;

	/**
	 * Records a failed flush.
	 * @param error what the flush threw
	 * @param nowNanos {@link System#nanoTime()} of the failure
	 * @return whether the streak now shows the error to be permanent
	 */
	boolean failed(Throwable error, long nowNanos) {
		String each = signature(error);
		if (each == null || !each.equals(this.signature)) {
			this.signature = each;
			this.count = (each != null) ? 1 : 0;
			this.firstNanos = nowNanos;
			return false;
		}
		this.count++;
		return this.count >= ATTEMPTS && nowNanos - this.firstNanos >= SPAN.toNanos();
	}

	/** Ends the streak: a flush succeeded. */
	void succeeded() {
		this.signature = null;
		this.count = 0;
	}

	/** Returns how many identical failures the streak holds. */
	int count() {
		return this.count;
	}

	/**
	 * Returns what makes two failures the same: the server's error code and message of the
	 * innermost SQL error, or {@code null} when the error is one that passes.
	 */
	static String signature(Throwable error) {
		if (SqlErrors.isContention(error) || SqlErrors.isConnectionLevel(error)) {
			return null;
		}
		SQLException innermost = null;
		for (Throwable cause = error; cause != null; cause = (cause.getCause() == cause) ? null : cause.getCause()) {
			if (cause instanceof SQLException sql) {
				if (sql instanceof SQLTransientException || SERVER_PASSING.contains(sql.getErrorCode())) {
					return null;
				}
				innermost = sql;
			}
		}
		return (innermost != null) ? innermost.getErrorCode() + " " + innermost.getMessage() : null;
	}

}
