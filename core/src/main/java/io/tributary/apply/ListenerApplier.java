package io.tributary.apply;

import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.source.Position;

/**
 * Hands a table's changes to a {@link ChangeListener} instead of writing them to a target table.
 *
 * <p>Each call delivers one {@link ChangeBatch}; {@link #apply} delivers deletes and upserts of a
 * drain together, with the position the drain covers. Calls for the table are serialized, so the
 * listener never sees two batches of one table at once even when snapshot rows and streamed
 * changes are applied from different threads.
 *
 * <p>A listener that throws fails the call with {@link ApplyException}, which makes the caller
 * keep the changes and apply them again. So that a failing listener is not called again at every
 * flush, {@link #apply} then refuses, with an {@link ApplyException} and without calling the
 * listener, until a pause has passed: 100 ms after the first failure, doubling with each further
 * consecutive failure up to 30 s. A success ends the pauses. {@link #upsert} and {@link #delete}
 * (snapshot rows, and changes replayed one run at a time) always call the listener; the snapshot
 * paces its own retries.
 *
 * <p>{@link #counters()} count listener calls, so that they read like the statement counters of
 * a target table: a batch is one call, a failed batch a call that threw.
 */
public final class ListenerApplier implements SinkApplier {

	private static final long FIRST_PAUSE_NANOS = Duration.ofMillis(100).toNanos();

	private static final long LONGEST_PAUSE_NANOS = Duration.ofSeconds(30).toNanos();

	private final ChangeListener listener;

	private final TableLayout layout;

	private final List<String> columns;

	private final List<String> keyColumns;

	private final LongSupplier nanoClock;

	private final Object lock = new Object();

	private int consecutiveFailures;

	private long pausedUntil;

	private String lastFailure;

	private long batchesDelivered;

	private long batchesFailed;

	private long rowsUpserted;

	private long keysDeleted;

	/**
	 * Creates an applier delivering to a listener.
	 * @param listener receives the batches
	 * @param layout the source table's layout, naming the columns of the batches
	 */
	public ListenerApplier(ChangeListener listener, TableLayout layout) {
		this(listener, layout, System::nanoTime);
	}

	ListenerApplier(ChangeListener listener, TableLayout layout, LongSupplier nanoClock) {
		this.listener = listener;
		this.layout = layout;
		this.columns = layout.columns().stream().map(Column::name).toList();
		this.keyColumns = layout.keys().stream().map(Column::name).toList();
		this.nanoClock = nanoClock;
	}

	@Override
	public void upsert(List<Object[]> rows) {
		if (!rows.isEmpty()) {
			deliver(rows, List.of(), null, false);
		}
	}

	@Override
	public void delete(List<Object[]> keys) {
		if (!keys.isEmpty()) {
			deliver(List.of(), keys, null, false);
		}
	}

	@Override
	public void apply(List<Object[]> upserts, List<Object[]> deletedKeys, Position coveredUpTo) {
		if (!upserts.isEmpty() || !deletedKeys.isEmpty()) {
			deliver(upserts, deletedKeys, coveredUpTo, true);
		}
	}

	/**
	 * Returns an applier for a new layout of the same table (after a column was added), keeping
	 * the counters and any pause after a failure. Call only when this one is no longer used.
	 * @param next the new layout
	 * @return the applier
	 */
	@Override
	public ListenerApplier withLayout(TableLayout next) {
		ListenerApplier applier = new ListenerApplier(this.listener, next, this.nanoClock);
		synchronized (this.lock) {
			applier.consecutiveFailures = this.consecutiveFailures;
			applier.pausedUntil = this.pausedUntil;
			applier.lastFailure = this.lastFailure;
			applier.batchesDelivered = this.batchesDelivered;
			applier.batchesFailed = this.batchesFailed;
			applier.rowsUpserted = this.rowsUpserted;
			applier.keysDeleted = this.keysDeleted;
		}
		return applier;
	}

	/**
	 * Tells the listener that the table was truncated on the source.
	 * @throws ApplyException when the listener throws, {@link UnsupportedOperationException}
	 * included (the listener does not handle truncation)
	 */
	@Override
	public void truncate() {
		synchronized (this.lock) {
			try {
				this.listener.onTruncate(this.layout.table());
			}
			catch (Exception ex) {
				if (ex instanceof InterruptedException) {
					Thread.currentThread().interrupt();
				}
				boolean unsupported = ex instanceof UnsupportedOperationException;
				throw new ApplyException("The ChangeListener of " + this.layout.table() + " "
						+ (unsupported ? "does not handle truncation" : "failed to handle it: " + ex) + ". "
						+ (unsupported ? "Implement ChangeListener.onTruncate to forget the table's rows"
								: "Fix the listener or what it depends on")
						+ ", then restart: the table resumes from its checkpoint, before the truncation, and the "
						+ "listener is told again. Alternatively delete the table's row from the checkpoint table "
						+ "and restart to snapshot it again", ex);
			}
		}
	}

	/**
	 * Returns the listener calls so far: delivered and failed batches, the upserts and deletes of
	 * delivered ones; no contention, no retries, one call at a time.
	 */
	@Override
	public ApplierCounters counters() {
		synchronized (this.lock) {
			return new ApplierCounters(this.batchesDelivered, this.batchesFailed, this.rowsUpserted,
					this.keysDeleted, 0, 0, 1, 1);
		}
	}

	/** Returns the layout whose columns the batches name. */
	public TableLayout layout() {
		return this.layout;
	}

	private void deliver(List<Object[]> upserts, List<Object[]> deletedKeys, Position position, boolean paced) {
		ChangeBatch batch = new ChangeBatch(this.layout.table(), this.columns, this.keyColumns, upserts, deletedKeys,
				position);
		synchronized (this.lock) {
			long now = this.nanoClock.getAsLong();
			if (paced && this.consecutiveFailures > 0 && now - this.pausedUntil < 0) {
				throw new Paused("The change listener of " + this.layout.table() + " failed "
						+ this.consecutiveFailures + " time(s) in a row (last: " + this.lastFailure + "); the "
						+ batch.size() + " changes are delivered again in "
						+ Duration.ofNanos(this.pausedUntil - now).toMillis() + " ms");
			}
			try {
				this.listener.onChanges(batch);
				this.consecutiveFailures = 0;
				this.batchesDelivered++;
				this.rowsUpserted += upserts.size();
				this.keysDeleted += deletedKeys.size();
			}
			catch (Exception ex) {
				if (ex instanceof InterruptedException) {
					Thread.currentThread().interrupt();
				}
				this.consecutiveFailures++;
				this.batchesFailed++;
				long pause = Math.min(LONGEST_PAUSE_NANOS,
						FIRST_PAUSE_NANOS << Math.min(this.consecutiveFailures - 1, 20));
				this.pausedUntil = now + pause;
				this.lastFailure = String.valueOf(ex);
				throw new ApplyException("The change listener of " + this.layout.table() + " threw on "
						+ batch.size() + " changes: " + ex + ". The changes are kept and delivered again"
						+ (paced ? " in " + Duration.ofNanos(pause).toMillis() + " ms" : "")
						+ "; fix the listener or what it depends on", ex);
			}
		}
	}

	/**
	 * {@link #apply} refused to call the listener because it failed recently and its pause has
	 * not passed; the changes are kept, as after any failed apply.
	 */
	public static final class Paused extends ApplyException {

		Paused(String message) {
			super(message, null);
		}

	}

}
