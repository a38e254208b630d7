package io.tributary.apply;

/**
 * Totals of a {@link ParallelApplier} since it was created (carried over when it follows a new
 * layout).
 *
 * @param batchesApplied statements that succeeded
 * @param batchesFailed statements given up on, each failing its whole drain (which is then
 * retried by the caller)
 * @param rowsUpserted row images written by successful statements
 * @param keysDeleted keys deleted by successful statements (absent keys included)
 * @param contentionEvents statements that hit a deadlock or a lock wait timeout
 * @param retries statements run again after contention
 * @param concurrency how many statements may currently run at once
 * @param maxConcurrency the configured most statements at once
 */
public record ApplierCounters(long batchesApplied, long batchesFailed, long rowsUpserted, long keysDeleted,
		long contentionEvents, long retries, int concurrency, int maxConcurrency) {

}
