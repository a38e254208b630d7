package io.tributary.copy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.Applier;
import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;
import io.tributary.subscription.Watermarks;

/**
 * Copies the rows that exist in a source table into its target, chunk by chunk in key order,
 * without a table lock or a long transaction.
 *
 * <p>Each chunk is first bounded with a plain read (the key {@code chunkRows} rows further on),
 * then published as dispatched, then read with {@code LOCK IN SHARE MODE}: a locking read waits
 * for any transaction still holding a row of the chunk to commit and then reads the newest
 * committed version. That closes the window in which the binlog has delivered a transaction whose
 * rows the source does not yet show, so changes above the dispatched bound can be dropped safely
 * (see {@link CopyWatermarks}). The chunk is then written with REPLACE, any target rows in its
 * range that the source no longer has are deleted, and the chunk is published as landed.
 */
public final class Copier {

	private static final Logger logger = LoggerFactory.getLogger(Copier.class);

	private final DataSource source;

	private final TableLayout layout;

	private final Applier applier;

	private volatile int chunkRows;

	private final CopySizing sizing;

	private final boolean reconcileTarget;

	private final TargetKeys targetKeys;

	private volatile CopyWatermarks watermarks = CopyWatermarks.NOT_STARTED;

	private volatile ChunkObserver observer = new ChunkObserver() {
	};

	/**
	 * Hears about chunks as the copier moves on, on the copy thread; for instrumentation and for
	 * tests that need to hold the copier at a chosen point.
	 */
	public interface ChunkObserver {

		/**
		 * Called before the chunk after {@code lowerExclusive} is bounded and dispatched.
		 * @param lowerExclusive the key the chunk starts after, or {@code null} for the first chunk
		 */
		default void beforeDispatch(Object[] lowerExclusive) {
		}

	}

	private volatile long rowsCopied;

	private volatile long chunksCopied;


	private volatile long rowsEstimated;

	/**
	 * Reads the keys a target holds in a key range, so rows the source no longer has can be
	 * deleted from a target that was not empty when the copy began.
	 */
	@FunctionalInterface
	public interface TargetKeys {

		List<Object[]> keysIn(Object[] lowerExclusive, Object[] upperInclusive) throws SQLException;

	}

	/**
	 * Creates a copier.
	 * @param source the source pool
	 * @param layout the table's layout
	 * @param applier writes chunks to the target
	 * @param chunkRows rows per chunk
	 * @param targetKeys reads target keys when the target held rows before the copy, else {@code null}
	 */
	public Copier(DataSource source, TableLayout layout, Applier applier, int chunkRows, TargetKeys targetKeys) {
		this(source, layout, applier, CopySizing.fixed(chunkRows), targetKeys);
	}

	/**
	 * Creates a copier.
	 * @param source the source pool
	 * @param layout the table's layout
	 * @param applier writes chunks to the target; called from several threads at once
	 * @param sizing threads and chunk sizing
	 * @param targetKeys reads target keys when the target held rows before the copy, else {@code null}
	 */
	public Copier(DataSource source, TableLayout layout, Applier applier, CopySizing sizing, TargetKeys targetKeys) {
		this.source = source;
		this.layout = layout;
		this.applier = applier;
		this.sizing = sizing;
		this.chunkRows = sizing.initialChunkRows();
		this.targetKeys = targetKeys;
		this.reconcileTarget = targetKeys != null;
	}

	private Object[] resumeAfter;

	/**
	 * Continues a copy that an earlier run left after {@code key}: every key at or below it is in
	 * the target already. Call before {@link #run}.
	 */
	public void resumeAfter(Object[] key) {
		this.resumeAfter = key;
		RowKey landed = new RowKey(key);
		// Keys above the landed bound will be read by this run's locking reads, so dropping their
		// changes is as safe as in a fresh copy.
		this.watermarks = new CopyWatermarks(true, false, this.layout.keyOrderIsComparable(), landed, landed);
	}

	/**
	 * Returns the highest key whose chunk has landed, or {@code null} before the first one lands or
	 * once the copy is done.
	 */
	public Object[] copiedUpTo() {
		CopyWatermarks current = this.watermarks;
		return (current.done() || current.landed() == null) ? null : current.landed().values();
	}

	/** Sets the observer of this copier's chunks. */
	public void observe(ChunkObserver chunkObserver) {
		this.observer = chunkObserver;
	}

	/** Returns the copier's current watermarks, for the drain to judge buffered keys with. */
	public Watermarks watermarks() {
		return this.watermarks;
	}

	public boolean isDone() {
		return this.watermarks.done();
	}

	public long rowsCopied() {
		return this.rowsCopied;
	}

	public long chunksCopied() {
		return this.chunksCopied;
	}

	public long rowsEstimated() {
		return Math.max(this.rowsEstimated, this.rowsCopied);
	}

	/**
	 * Copies the whole table. One thread (the caller) bounds and dispatches chunks in key order;
	 * up to {@code threads} workers read and write them in parallel. The landed watermark moves only
	 * over contiguous landed chunks, so everything at or below it is in the target; the dispatched
	 * watermark is the upper bound of the newest dispatched chunk. Chunk size follows the target
	 * time per chunk within the floor and ceiling.
	 * @param stopRequested polled between chunks; when true no new chunk is dispatched, the ones in
	 * flight finish, and the copy returns not done
	 * @return whether the copy finished
	 * @throws SQLException when a chunk keeps failing
	 */
	public boolean run(BooleanSupplier stopRequested) throws SQLException {
		this.rowsEstimated = estimateRows();
		boolean comparable = this.layout.keyOrderIsComparable();
		logger.info("Snapshot of {} started (about {} rows, {} thread(s), {} rows per chunk to start)",
				this.layout.table(), this.rowsEstimated, this.sizing.threads(), this.chunkRows);
		ChunkBounds bounds = new ChunkBounds(this.source, this.layout);
		RangeCopy copy = new RangeCopy(this.source, this.layout, this.applier,
				this.reconcileTarget ? this.targetKeys : null);
		Object[] lower = this.resumeAfter;
		if (lower != null) {
			logger.info("Snapshot of {} continues after key {}", this.layout.table(), new RowKey(lower));
		}
		ChunkLedger ledger = new ChunkLedger((this.resumeAfter != null) ? new RowKey(this.resumeAfter) : null);
		java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(this.sizing.threads());
		java.util.concurrent.ExecutorService workers = java.util.concurrent.Executors
			.newFixedThreadPool(this.sizing.threads(), (task) -> {
				Thread thread = new Thread(task, "tributary-copy-" + this.layout.table().table());
				thread.setDaemon(true);
				return thread;
			});
		java.util.concurrent.atomic.AtomicReference<Exception> failure = new java.util.concurrent.atomic.AtomicReference<>();
		try {
			while (true) {
				if (stopRequested.getAsBoolean() || failure.get() != null) {
					break;
				}
				this.observer.beforeDispatch(lower);
				acquire(slots);
				if (failure.get() != null) {
					slots.release();
					break;
				}
				Object[] upper = bounds.next(lower, this.chunkRows);
				int chunk = ledger.dispatch((upper != null) ? new RowKey(upper) : null);
				publish(ledger, comparable);
				KeyRange range = new KeyRange(lower, upper);
				workers.execute(() -> {
					try {
						long started = System.nanoTime();
						int rows = copy.copy(range);
						adjustChunkSize(rows, System.nanoTime() - started);
						synchronized (ledger) {
							this.rowsCopied += rows;
							this.chunksCopied++;
							ledger.land(chunk);
							publish(ledger, comparable);
						}
					}
					catch (Exception ex) {
						failure.compareAndSet(null, ex);
					}
					finally {
						slots.release();
					}
				});
				if (upper == null) {
					break;
				}
				lower = upper;
			}
			// Let the chunks in flight land, so the landed watermark is exact when we return.
			acquire(slots, this.sizing.threads());
		}
		finally {
			workers.shutdownNow();
		}
		Exception failed = failure.get();
		if (failed instanceof SQLException sql) {
			throw sql;
		}
		if (failed instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (failed != null) {
			throw new IllegalStateException(failed);
		}
		if (!ledger.allLanded() || !ledger.lastDispatched()) {
			logger.info("Snapshot of {} stopped after {} rows", this.layout.table(), this.rowsCopied);
			return false;
		}
		this.watermarks = new CopyWatermarks(true, true, comparable, null, null);
		logger.info("Snapshot of {} finished: {} rows in {} chunks", this.layout.table(), this.rowsCopied,
				this.chunksCopied);
		return true;
	}

	private void publish(ChunkLedger ledger, boolean comparable) {
		synchronized (ledger) {
			this.watermarks = new CopyWatermarks(true, false, comparable, ledger.landed(), ledger.dispatched());
		}
	}

	/** Moves the chunk size toward the target time per chunk, within the floor and ceiling. */
	private void adjustChunkSize(int rows, long elapsedNanos) {
		if (rows < this.chunkRows / 2 || elapsedNanos <= 0) {
			return;
		}
		double perChunk = rows * (double) this.sizing.targetChunkTime().toNanos() / elapsedNanos;
		int next = (int) Math.max(this.sizing.minChunkRows(),
				Math.min(this.sizing.maxChunkRows(), 0.5 * this.chunkRows + 0.5 * perChunk));
		this.chunkRows = next;
	}

	private static void acquire(java.util.concurrent.Semaphore slots) {
		acquire(slots, 1);
	}

	private static void acquire(java.util.concurrent.Semaphore slots, int permits) {
		try {
			slots.acquire(permits);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while copying", ex);
		}
	}

	private long estimateRows() throws SQLException {
		try (Connection connection = this.source.getConnection();
				PreparedStatement statement = connection.prepareStatement(
						"SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
			statement.setString(1, this.layout.table().schema());
			statement.setString(2, this.layout.table().table());
			try (ResultSet rs = statement.executeQuery()) {
				return rs.next() ? rs.getLong(1) : 0;
			}
		}
	}

}
