package io.tributary.copy;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplyException;
import io.tributary.apply.Sessions;
import io.tributary.schema.Column;
import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;
import io.tributary.schema.ValueKind;
import io.tributary.schema.Values;
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

	private static final Duration FIRST_RETRY_PAUSE = Duration.ofMillis(100);

	private static final Duration LONGEST_RETRY_PAUSE = Duration.ofSeconds(30);

	private volatile WriteRetries writeRetries;

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
	}

	private Object[] resumeAfter;

	/** Where the stepping plan's first chunk counts its width from: just under the lowest key. */
	private BigInteger steppingStart;

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
		this.writeRetries = retries;
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
		this.rate = new CopyRate(java.time.Duration.ofSeconds(RATE_WINDOW_SECONDS), System::nanoTime);
		boolean comparable = this.layout.keyOrderIsComparable();
		logger.info("Snapshot of {} started (about {} rows, {} thread(s), {} rows per chunk to start)",
				this.layout.table(), this.rowsEstimated, this.sizing.threads(), this.chunkRows);
		String from = " FROM " + this.layout.table().quoted();
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
		KeyStepper stepper = KeyStepper.appliesTo(this.layout) ? openStepper(from) : null;
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
				if (stepper != null && stepper.sparse()) {
					logger.info("Snapshot of {} finds {} rows per key value after key {}; bounding the remaining "
							+ "chunks by key probes", this.layout.table(), String.format("%.3f", stepper.density()),
							new RowKey(lower));
					stepper = null;
				}
				Object[] upper;
				long width = -1;
				if (stepper != null) {
					BigInteger after = (lower != null) ? KeyStepper.number(lower[0]) : this.steppingStart;
					BigInteger candidate = stepper.nextUpper(after, this.chunkRows);
					if (stepper.reachesMax(candidate)) {
						// Rows inserted above the highest key read at the start are copied too: look again,
						// and end with an open-ended chunk only once the plan reaches the current highest key.
						stepper.raiseMax(readMax(from));
					}
					upper = stepper.reachesMax(candidate) ? null : new Object[] { stepper.key(candidate) };
					width = candidate.subtract(after).longValueExact();
				}
				else {
					upper = bounds.next(lower, this.chunkRows);
				}
				KeyStepper feedback = (upper != null) ? stepper : null;
				long chunkWidth = width;
				int chunk = ledger.dispatch((upper != null) ? new RowKey(upper) : null);
				publish(ledger, comparable);
				this.observer.dispatched(lower, upper, stepper != null);
				KeyRange range = new KeyRange(lower, upper);
				workers.execute(() -> {
					try {
						long started = System.nanoTime();
						List<Object[]> rows = copy.read(range);
						if (!rows.isEmpty()
								&& !write(rows, () -> stopRequested.getAsBoolean() || failure.get() != null)) {
							// Given up while failing: the chunk does not land, a later run copies it.
							return;
						}
						copy.deleteVanished(range, rows);
						adjustChunkSize(rows.size(), System.nanoTime() - started);
						if (feedback != null) {
							feedback.landed(rows.size(), chunkWidth);
						}
						synchronized (ledger) {
							this.rowsCopied += rows.size();
							this.chunksCopied++;
							this.rate.record(this.rowsCopied);
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

	/**
	 * Returns a stepping plan for a table keyed by one integer column, reading its highest key (and
	 * lowest, for a fresh copy) once; {@code null} when the table holds no row to step through.
	 */
	private KeyStepper openStepper(String from) throws SQLException {
		Column key = this.layout.keys().get(0);
		BigInteger[] range = keyRange(from, key);
		if (range[1] == null || (this.resumeAfter == null && range[0] == null)) {
			return null;
		}
		// The first chunk is unbounded below; its width counts from just under the lowest key.
		this.steppingStart = (range[0] != null) ? range[0].subtract(BigInteger.ONE) : range[1];
		logger.debug("Snapshot of {} steps through keys up to {}", this.layout.table(), range[1]);
		return new KeyStepper(key.kind() == ValueKind.UNSIGNED_BIGINT, range[1], this.chunkRows,
				this.sizing.maxChunkRows());
	}

	private BigInteger readMax(String from) throws SQLException {
		return keyRange(from, this.layout.keys().get(0))[1];
	}

	/** Reads the lowest and highest key with a plain read; {@code null}s for an empty table. */
	private BigInteger[] keyRange(String from, Column key) throws SQLException {
		String sql = "SELECT MIN(" + key.quotedName() + "), MAX(" + key.quotedName() + ")" + from;
		for (int attempt = 1;; attempt++) {
			try (Connection connection = this.source.getConnection()) {
				Sessions.prepareSource(connection);
				try (PreparedStatement statement = connection.prepareStatement(sql);
						ResultSet rs = statement.executeQuery()) {
					rs.next();
					Object min = Values.fromResultSet(rs, 1, key);
					Object max = Values.fromResultSet(rs, 2, key);
					return new BigInteger[] { (min != null) ? KeyStepper.number(min) : null,
							(max != null) ? KeyStepper.number(max) : null };
				}
			}
			catch (SQLException ex) {
				RangeCopy.retryOrThrow(ex, attempt, this.layout);
			}
		}
	}

	/**
	 * Writes a chunk's rows, retrying failed writes when {@link #retryFailedWrites} asked for it.
	 * @return whether the rows were written; {@code false} when given up because of {@code giveUp}
	 */
	private boolean write(List<Object[]> rows, BooleanSupplier giveUp) {
		long pauseMillis = FIRST_RETRY_PAUSE.toMillis();
		boolean failedBefore = false;
		while (true) {
			try {
				this.applier.upsert(rows);
				if (failedBefore) {
					this.writeRetries.recovered();
				}
				return true;
			}
			catch (ApplyException ex) {
				WriteRetries retries = this.writeRetries;
				if (retries == null) {
					throw ex;
				}
				failedBefore = true;
				retries.failed(ex, Duration.ofMillis(pauseMillis));
				logger.warn("Writing a snapshot chunk of {} ({} rows) failed, retrying in {} ms: {}",
						this.layout.table(), rows.size(), pauseMillis, ex.getMessage());
				if (!pause(pauseMillis, giveUp)) {
					logger.info("Snapshot of {} gave up a failing chunk as it stops; it is copied again on the "
							+ "next start", this.layout.table());
					return false;
				}
				pauseMillis = Math.min(LONGEST_RETRY_PAUSE.toMillis(), pauseMillis * 2);
			}
		}
	}

	/** Waits, checking {@code giveUp} every 50 ms; returns false when it said to give up. */
	private static boolean pause(long millis, BooleanSupplier giveUp) {
		long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
		try {
			while (!giveUp.getAsBoolean()) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return true;
				}
				java.util.concurrent.TimeUnit.NANOSECONDS.sleep(Math.min(left, 50_000_000L));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return false;
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
