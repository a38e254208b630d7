package io.tributary.copy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplyException;
import io.tributary.copy.ChunkPlan.PlannedChunk;
import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;
import io.tributary.subscription.Watermarks;

/**
 * Copies the rows that exist in a source table into its target, chunk by chunk in key order,
 * without a table lock or a long transaction.
 *
 * <p>Each chunk is first bounded, then published as dispatched, then read with {@code LOCK IN SHARE MODE}: a locking read waits
 * for any transaction still holding a row of the chunk to commit and then reads the newest
 * committed version. That closes the window in which the binlog has delivered a transaction whose
 * rows the source does not yet show, so changes above the dispatched bound can be dropped safely
 * (see {@link CopyWatermarks}). The chunk is then written with REPLACE, any target rows in its
 * range that the source no longer has are deleted, and the chunk is published as landed.
 *
 * <p>A chunk is bounded in one of two ways. When the key is a single integer column, the copier
 * reads the lowest and highest key once and steps through the key space (see {@link KeyStepper}),
 * which needs no query per chunk; it switches to the second way for the rest of the table when the
 * key space turns out sparse. Otherwise each chunk is bounded with a plain read of the key
 * {@code chunkRows} rows further on. Either way the last chunk is open-ended, so rows inserted
 * above the highest key seen earlier are read by it.
 */
public final class Copier {

	private static final Logger logger = LoggerFactory.getLogger(Copier.class);

	private static final int RATE_WINDOW_SECONDS = 10;

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

		/**
		 * Called once a chunk is bounded and dispatched, before it is read.
		 * @param lowerExclusive the key the chunk starts after, or {@code null} for the first chunk
		 * @param upperInclusive the chunk's last key, or {@code null} for the open-ended last chunk
		 * @param stepped whether the bound was stepped to through an integer key space rather than
		 * found by probing keys
		 */
		default void dispatched(Object[] lowerExclusive, Object[] upperInclusive, boolean stepped) {
		}

	}

	/**
	 * Hears about chunk writes that failed and are being retried, on the copy worker thread; see
	 * {@link #retryFailedWrites}.
	 */
	public interface WriteRetries {

		/**
		 * Called after a chunk's write failed, before pausing.
		 * @param failure why
		 * @param pause how long until the write is tried again
		 */
		void failed(ApplyException failure, Duration pause);

		/** Called when a chunk whose write had failed has been written. */
		void recovered();

	}

	private final ChunkWriter writer;

	private volatile long rowsCopied;

	private volatile long chunksCopied;

	private volatile long rowsEstimated;

	private volatile CopyRate rate;

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
		this.writer = new ChunkWriter(applier, layout);
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

	/**
	 * Makes a chunk whose write fails with {@link ApplyException} be written again after a
	 * growing pause (100 ms, doubling up to 30 s) for as long as it fails, instead of failing the
	 * copy. The chunk does not land meanwhile, so the landed watermark, and with it everything
	 * checkpointed, stays below it; when the copy is stopped while the chunk still fails, the
	 * chunk is given up and a later run copies it again. Call before {@link #run}.
	 * @param retries hears about failures and recoveries
	 */
	public void retryFailedWrites(WriteRetries retries) {
		this.writer.retryFailedWrites(retries);
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

	/** Returns rows copied per second over the last ten seconds; 0 before the copy runs and once it is done. */
	public double rowsPerSecond() {
		CopyRate current = this.rate;
		return (current != null && !isDone()) ? current.rowsPerSecond() : 0;
	}

	/**
	 * Returns the seconds left until the estimated rows are copied at the recent rate, or
	 * {@code null} when that is unknown: before the copy runs, once it is done, and while it copies
	 * nothing. A continued copy counts the whole table as left, so it overestimates at first.
	 */
	public Long etaSeconds() {
		CopyRate current = this.rate;
		return (current != null && !isDone()) ? current.etaSeconds(rowsEstimated() - this.rowsCopied) : null;
	}

	/**
	 * Copies the whole table. One thread (the caller) bounds and dispatches chunks in key order;
	 * up to {@code threads} workers read them in parallel and as many write them, so the target
	 * writes one chunk while the source gives the next. The landed watermark moves only
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
		this.rate = new CopyRate(Duration.ofSeconds(RATE_WINDOW_SECONDS), System::nanoTime);
		boolean comparable = this.layout.keyOrderIsComparable();
		logger.info("Snapshot of {} started (about {} rows, {} thread(s), {} rows per chunk to start)",
				this.layout.table(), this.rowsEstimated, this.sizing.threads(), this.chunkRows);
		RangeCopy copy = new RangeCopy(this.source, this.layout, this.applier,
				this.reconcileTarget ? this.targetKeys : null);
		Object[] lower = this.resumeAfter;
		if (lower != null) {
			logger.info("Snapshot of {} continues after key {}", this.layout.table(), new RowKey(lower));
		}
		ChunkLedger ledger = new ChunkLedger((this.resumeAfter != null) ? new RowKey(this.resumeAfter) : null);
		try (CopyWorkers workers = new CopyWorkers(this.sizing.threads(),
				"tributary-copy-" + this.layout.table().table())) {
			ChunkPlan plan = ChunkPlan.open(this.source, this.layout, this.resumeAfter, this.chunkRows,
					this.sizing.maxChunkRows());
			BooleanSupplier giveUp = () -> stopRequested.getAsBoolean() || workers.failed();
			while (!giveUp.getAsBoolean()) {
				this.observer.beforeDispatch(lower);
				if (!workers.awaitSlot()) {
					break;
				}
				PlannedChunk chunk = plan.next(lower, this.chunkRows);
				KeyRange range = chunk.range();
				Object[] upper = range.upperInclusive();
				int dispatched = ledger.dispatch((upper != null) ? new RowKey(upper) : null);
				publish(ledger, comparable);
				this.observer.dispatched(lower, upper, chunk.stepped());
				workers.run(() -> {
					long started = System.nanoTime();
					List<Object[]> rows = copy.read(range);
					long readNanos = System.nanoTime() - started;
					return () -> {
						long writeStarted = System.nanoTime();
						if (!rows.isEmpty() && !this.writer.write(rows, giveUp)) {
							// Given up while failing: the chunk does not land, a later run copies it.
							return;
						}
						copy.deleteVanished(range, rows);
						// The time the chunk took itself, not the time it waited for a write slot.
						adjustChunkSize(rows.size(), readNanos + System.nanoTime() - writeStarted);
						land(chunk, rows.size(), ledger, dispatched, comparable);
					};
				});
				if (upper == null) {
					break;
				}
				lower = upper;
			}
			// Let the chunks in flight land, so the landed watermark is exact when we return.
			workers.awaitIdle();
			workers.throwFailure();
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

	/** Records a written chunk as landed and publishes the watermarks that follow. */
	private void land(PlannedChunk chunk, int rows, ChunkLedger ledger, int dispatched, boolean comparable) {
		chunk.landed(rows);
		synchronized (ledger) {
			this.rowsCopied += rows;
			this.chunksCopied++;
			this.rate.record(this.rowsCopied);
			ledger.land(dispatched);
			publish(ledger, comparable);
		}
	}

	private void publish(ChunkLedger ledger, boolean comparable) {
		// Under the ledger's lock, so a publisher holding an older reading cannot overwrite a newer one.
		synchronized (ledger) {
			this.watermarks = ledger.watermarks(comparable);
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
