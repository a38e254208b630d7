package io.tributary.apply;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.jdbc.RetryPolicy;
import io.tributary.jdbc.SqlErrors;
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;

/**
 * Applies one table's drains with several statements at once, each its own autocommit REPLACE or
 * DELETE written by a {@link JdbcReplaceApplier}, on the threads of an {@link ApplyWorkers}.
 *
 * <p>A drain holds at most one change per key, so its batches are disjoint by key and may run in
 * any order or at the same time. What they can still collide on are the UNIQUE secondary indexes
 * of the target, where REPLACE takes next-key locks; {@link BatchPartitioner} sorts row images by
 * the most clustered of those indexes and the batches run in two stripes, so that statements in
 * flight together are never neighbours in that order. Deleted keys are sorted and striped by
 * primary key.
 *
 * <p>{@link #apply} deletes all keys before it upserts any row. Both orders converge, since no key
 * is in both lists, but deleting first frees the unique values the deleted rows held: the
 * REPLACEs that follow then find fewer conflicting rows to delete, which are locks taken outside
 * their own batch while other statements run. It is also the order of the sequential applier.
 *
 * <p>Contention that partitioning cannot prevent (deletes, further unique indexes, rows REPLACE
 * deletes outside its batch) is handled here: a statement that hits a deadlock (error 1213) or a
 * lock wait timeout (1205) has been rolled back by the server and is run again, the whole batch,
 * after a short randomized pause. Each such event halves how many statements of this table may
 * run at once; every 20 consecutive successful statements raise it by one, up to the configured
 * concurrency. A batch still contended after 10 retries, or failing with any other error, fails
 * the call with {@link ApplyException} once the statements already running have finished; some
 * batches may have been written by then, which is harmless because the caller applies the whole
 * drain again.
 *
 * <p>Thread-safe: calls from several threads share the contention limit and the counters, and
 * each waits for its own statements only.
 */
public final class ParallelApplier implements Applier {

	/** Statements of one table at once unless configured otherwise. */
	public static final int DEFAULT_CONCURRENCY = 4;

	static final int DEFAULT_MAX_RETRIES = 10;

	static final int DEFAULT_GROW_AFTER = 20;

	private static final Logger logger = LoggerFactory.getLogger(ParallelApplier.class);

	private final JdbcReplaceApplier statements;

	private final ApplyWorkers workers;

	private final ContentionControl control;

	private final Totals totals;

	/** Runs of a contended batch: the first and at most the configured retries. */
	private final RetryPolicy retries;

	private final BatchPartitioner upserts;

	private final BatchPartitioner deletes;

	private final WriteKind replaces;

	private final WriteKind deletions;

	private ParallelApplier(JdbcReplaceApplier statements, ApplyWorkers workers, ContentionControl control,
			Totals totals, RetryPolicy retries, List<UniqueIndex> uniqueIndexes) {
		this.statements = statements;
		this.workers = workers;
		this.control = control;
		this.totals = totals;
		this.retries = retries;
		BatchLimits limits = statements.limits();
		int width = statements.width();
		this.upserts = new BatchPartitioner(uniqueIndexes, limits.maxUpsertRows(),
				BatchLimits.MAX_PLACEHOLDERS / width, limits.maxBatchBytes());
		TableLayout layout = statements.layout();
		int keyWidth = layout.keyColumns().length;
		UniqueIndex primaryKey = new UniqueIndex("PRIMARY", IntStream.range(0, keyWidth).toArray(),
				layout.keys().stream().map(Column::name).toList());
		this.deletes = new BatchPartitioner(List.of(primaryKey), limits.maxDeleteKeys(),
				BatchLimits.MAX_PLACEHOLDERS / keyWidth, limits.maxBatchBytes());
		this.replaces = new WriteKind(statements::replaceBatch, totals.rowsUpserted, "Upserting", "rows", "into");
		this.deletions = new WriteKind(statements::deleteBatch, totals.keysDeleted, "Deleting", "keys", "from");
	}

	/**
	 * Creates an applier, reading the target table's unique secondary indexes.
	 * @param statements writes the statements, and says which table, layout and batch sizes
	 * @param workers the threads to run statements on; not closed by the applier
	 * @param concurrency most statements of this table at once, at least 1 (see
	 * {@link #DEFAULT_CONCURRENCY}); more than the workers' threads has no effect
	 * @return the applier
	 * @throws SQLException when the indexes cannot be read
	 */
	public static ParallelApplier create(JdbcReplaceApplier statements, ApplyWorkers workers, int concurrency)
			throws SQLException {
		return create(statements, workers, concurrency, DEFAULT_MAX_RETRIES, DEFAULT_GROW_AFTER);
	}

	static ParallelApplier create(JdbcReplaceApplier statements, ApplyWorkers workers, int concurrency,
			int maxRetries, int growAfter) throws SQLException {
		List<UniqueIndex> indexes = readIndexes(statements);
		logPartitioning(statements.targetTable(), indexes);
		return create(statements, workers, concurrency, maxRetries, growAfter, indexes);
	}

	/** Creates an applier partitioning by the given indexes rather than the table's. */
	static ParallelApplier create(JdbcReplaceApplier statements, ApplyWorkers workers, int concurrency,
			int maxRetries, int growAfter, List<UniqueIndex> indexes) {
		return new ParallelApplier(statements, workers, new ContentionControl(concurrency, growAfter), new Totals(),
				RetryPolicy.contention(maxRetries + 1), indexes);
	}

	/**
	 * Returns an applier for a new layout of the same table (after a schema change), reading the
	 * unique indexes again and keeping the workers, the current concurrency and the counters.
	 * @param next writes statements for the new layout
	 * @return the applier
	 * @throws SQLException when the indexes cannot be read
	 */
	public ParallelApplier withStatements(JdbcReplaceApplier next) throws SQLException {
		List<UniqueIndex> indexes = readIndexes(next);
		if (!indexes.equals(this.upserts.candidates())) {
			logPartitioning(next.targetTable(), indexes);
		}
		return new ParallelApplier(next, this.workers, this.control, this.totals, this.retries, indexes);
	}

	private static List<UniqueIndex> readIndexes(JdbcReplaceApplier statements) throws SQLException {
		return UniqueIndexReader.read(statements.target(), statements.targetTable(), statements.layout(),
				statements.slice());
	}

	private static void logPartitioning(TableId table, List<UniqueIndex> indexes) {
		if (indexes.isEmpty()) {
			logger.info("Flushes of {} are split by size only: it has no unique secondary index that concurrent "
					+ "statements could contend on", table);
		}
		else if (indexes.size() == 1) {
			logger.info("Flushes of {} are sorted and partitioned by its unique index {}", table, indexes.get(0));
		}
		else {
			logger.info("Flushes of {} are sorted and partitioned by whichever of its unique indexes {} is most "
					+ "clustered in each flush", table, indexes);
		}
	}

	/**
	 * Returns the unique secondary indexes flushes are sorted and partitioned by, such as
	 * {@code uk_email(email)}; empty when they are split by size only.
	 */
	public List<String> partitionIndexes() {
		return this.upserts.candidates().stream().map(UniqueIndex::toString).toList();
	}

	/** Returns the table written to. */
	public TableId targetTable() {
		return this.statements.targetTable();
	}

	/** Returns the totals so far; cheap enough to call for every status request. */
	public ApplierCounters counters() {
		return new ApplierCounters(this.totals.batchesApplied.get(), this.totals.batchesFailed.get(),
				this.totals.rowsUpserted.get(), this.totals.keysDeleted.get(), this.totals.contentionEvents.get(),
				this.totals.retries.get(), this.control.limit(), this.control.maximum());
	}

	@Override
	public void upsert(List<Object[]> rows) {
		run(this.upserts.plan(rows), this.replaces);
	}

	@Override
	public void delete(List<Object[]> keys) {
		run(this.deletes.plan(keys), this.deletions);
	}

	/** Returns how {@link #upsert} would split rows, for tests. */
	BatchPlan planUpserts(List<Object[]> rows) {
		return this.upserts.plan(rows);
	}

	private void run(BatchPlan plan, WriteKind kind) {
		if (logger.isDebugEnabled() && !plan.batches().isEmpty()) {
			logger.debug("{} {} rows of {} in {} statements{}", kind.verb(),
					plan.batches().stream().mapToInt(List::size).sum(), targetTable(), plan.batches().size(),
					(plan.index() != null) ? " sorted by " + plan.index() : "");
		}
		for (List<List<Object[]>> stripe : plan.stripes()) {
			if (stripe.size() == 1) {
				write(stripe.get(0), kind);
			}
			else {
				runTogether(stripe, kind);
			}
		}
	}

	/** Runs batches on the workers, at most the current limit at once, and waits for all of them. */
	private void runTogether(List<List<Object[]>> batches, WriteKind kind) {
		CompletionService<Void> done = new ExecutorCompletionService<>(this.workers.executor());
		int next = 0;
		int running = 0;
		ApplyException failure = null;
		while (running > 0 || (failure == null && next < batches.size())) {
			while (failure == null && next < batches.size() && running < this.control.limit()) {
				List<Object[]> batch = batches.get(next);
				try {
					done.submit(() -> {
						write(batch, kind);
						return null;
					});
					next++;
					running++;
				}
				catch (RejectedExecutionException ex) {
					failure = new ApplyException("Cannot apply changes to " + targetTable()
							+ ": the apply workers have been closed. The changes are applied again after a restart", ex);
				}
			}
			if (running == 0) {
				break;
			}
			Future<Void> finished;
			try {
				finished = done.take();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new ApplyException("Interrupted while " + running + " statements on " + targetTable()
						+ " were running; they finish on their own, and the changes are applied again later", ex);
			}
			running--;
			try {
				finished.get();
			}
			catch (ExecutionException ex) {
				ApplyException cause = asApplyException(ex.getCause(), batches.size(), kind);
				if (failure == null) {
					failure = cause;
				}
				else {
					failure.addSuppressed(cause);
				}
			}
			catch (InterruptedException ex) {
				// Unreachable: the future is done.
				Thread.currentThread().interrupt();
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	private ApplyException asApplyException(Throwable failure, int batches, WriteKind kind) {
		if (failure instanceof ApplyException apply) {
			return apply;
		}
		return new ApplyException(kind.verb() + " " + kind.preposition() + " " + targetTable()
				+ " failed unexpectedly in one of " + batches + " statements: " + failure, failure);
	}

	/** Writes one batch, retrying it after contention. */
	private void write(List<Object[]> batch, WriteKind kind) {
		for (int attempt = 1;; attempt++) {
			long epoch = this.control.epoch();
			try {
				kind.statement().write(batch);
				this.control.succeeded();
				this.totals.batchesApplied.incrementAndGet();
				kind.written().addAndGet(batch.size());
				return;
			}
			catch (SQLException ex) {
				int code = SqlErrors.contentionCode(ex);
				if (code == 0) {
					this.totals.batchesFailed.incrementAndGet();
					throw new ApplyException(kind.describe(batch, targetTable()) + " failed: " + ex.getMessage()
							+ " (error " + ex.getErrorCode() + ", SQLState " + ex.getSQLState()
							+ "). The changes stay buffered and are applied again", ex);
				}
				this.totals.contentionEvents.incrementAndGet();
				this.control.contended(epoch);
				if (!this.retries.allowsRetry(attempt)) {
					this.totals.batchesFailed.incrementAndGet();
					throw new ApplyException(kind.describe(batch, targetTable()) + " met a "
							+ SqlErrors.describeContention(code) + " " + attempt + " times in a row; the changes stay "
							+ "buffered and are applied again. If this persists, look for long transactions "
							+ "holding locks on the table (information_schema.INNODB_TRX) or lower the apply "
							+ "concurrency", ex);
				}
				this.totals.retries.incrementAndGet();
				logger.debug("{} met a {}; retrying (attempt {}), concurrency now {}",
						kind.describe(batch, targetTable()), SqlErrors.describeContention(code), attempt + 1,
						this.control.limit());
				pause(attempt);
			}
			catch (RuntimeException ex) {
				this.totals.batchesFailed.incrementAndGet();
				throw (ex instanceof ApplyException apply) ? apply
						: new ApplyException(kind.describe(batch, targetTable()) + " failed unexpectedly: " + ex, ex);
			}
		}
	}

	private void pause(int failures) {
		try {
			this.retries.sleep(failures);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ApplyException("Interrupted while waiting to retry a contended statement; the changes are "
					+ "applied again later", ex);
		}
	}

	/**
	 * One of the two kinds of batch: what writes one, the counter of what it wrote, and the words
	 * that name it in messages ("Upserting 5 rows into", "Deleting 5 keys from").
	 */
	private record WriteKind(BatchWrite statement, AtomicLong written, String verb, String unit,
			String preposition) {

		String describe(List<Object[]> batch, TableId table) {
			return this.verb + " " + batch.size() + " " + this.unit + " " + this.preposition + " " + table;
		}

	}

	/** Counters shared by the appliers of successive layouts of one table. */
	private static final class Totals {

		final AtomicLong batchesApplied = new AtomicLong();

		final AtomicLong batchesFailed = new AtomicLong();

		final AtomicLong rowsUpserted = new AtomicLong();

		final AtomicLong keysDeleted = new AtomicLong();

		final AtomicLong contentionEvents = new AtomicLong();

		final AtomicLong retries = new AtomicLong();

	}

}
