package io.tributary.pipeline;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplierCounters;
import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.ParallelApplier;
import io.tributary.apply.SinkApplier;
import io.tributary.apply.TableSink;
import io.tributary.checksum.ChecksumProgress;
import io.tributary.copy.Copier;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.source.Position;
import io.tributary.status.TableDetail;
import io.tributary.status.TableEvent;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.subscription.BufferedSubscription;
import io.tributary.subscription.SubscriptionCounters;
import io.tributary.subscription.Watermarks;

/**
 * The moving parts and counters of one table inside a pipeline. Fields written by the catch-up
 * loop and the copy thread are volatile; status reads them without locking.
 */
final class TableRuntime {

	final TableMapping mapping;

	/**
	 * Held by the catch-up loop from drain to the end of the apply, and by schema changes read
	 * from the stream, so a TRUNCATE or a new layout never meets a half-applied drain.
	 */
	final ReentrantLock flushLock = new ReentrantLock();

	volatile TableLayout layout;

	volatile BufferedSubscription subscription;

	/**
	 * Writes the table's changes: a {@code JdbcReplaceApplier} into the target table, or the
	 * {@link #sink} of a table going to one.
	 */
	volatile Applier applier;

	/**
	 * Applies drained changes with parallel statements; wraps {@link #applier}. {@code null} for a
	 * table going to a sink, where each drain is one call of the sink.
	 */
	volatile ParallelApplier writer;

	/** The applier of a table going to a sink (equal to {@link #applier}), or {@code null}. */
	volatile SinkApplier sink;

	/** The JDBC applier of a table copied into a target table (equal to {@link #applier}), or {@code null}. */
	volatile JdbcReplaceApplier statements;

	volatile Copier copier;

	/** Written through {@link #enter} so that every change shows in the timeline. */
	private volatile Phase phase = Phase.STARTING;

	volatile boolean snapshotDone;

	/** Where a table that is catching up counts as caught up. */
	volatile Position catchUpTarget;

	volatile Position confirmed;

	volatile long changesApplied;

	volatile TableStatus.Flush lastFlush;

	final FlushTotals flushes = new FlushTotals();

	volatile String lastError;

	/** Flushes that failed in a row the same way; the catch-up loop's alone. */
	final FailureStreak failureStreak = new FailureStreak();

	volatile TableStatus.Action lastAction;

	/** The checkpoint last saved for the table, or {@code null} before the first. */
	volatile TableDetail.Checkpoint lastCheckpoint;

	final TableTimeline timeline = new TableTimeline();

	/**
	 * Set while the table waits for the binlog reader to rewind to its position (a resume or a
	 * restart): run by the reader at the rewind, before the first replayed event, it makes the table
	 * take changes again. The table takes none while it is set.
	 */
	volatile Runnable onRewind;

	/**
	 * Set when the table failed because the reader could not follow its layout: a restart copies
	 * it again rather than replay row images logged with the layout it had.
	 */
	volatile boolean copyOnRestart;

	/** Set while an action sets the table up again; the table takes no changes meanwhile. */
	volatile boolean held;

	/** The value of the pipeline's activation count when the table last became active. */
	volatile long activeSince;

	/**
	 * Where the reader was when it last rewound for another table: this table already holds every
	 * change before it, so replayed changes before it are skipped. {@code null} when no replay is
	 * under way.
	 */
	volatile Position replayedUntil;

	/** The latest checksum pass, or {@code null} before the first. */
	volatile ChecksumProgress checksum;

	/** Completes when the checksum pass queued and not yet started ends; {@code null} when none is. */
	volatile CompletableFuture<TableStatus.Checksum> checksumQueued;

	TableRuntime(TableMapping mapping) {
		this.mapping = mapping;
	}

	Phase phase() {
		return this.phase;
	}

	/** Moves the table to a phase, noting the change in its timeline. */
	void enter(Phase next) {
		enter(next, null);
	}

	/**
	 * Notes the move in the timeline before publishing the phase, so whoever sees the new phase
	 * also finds the move in the timeline.
	 */
	private void enter(Phase next, String why) {
		Phase was = this.phase;
		if (was != next) {
			this.timeline.add(TableEvent.Kind.PHASE, was + " to " + next + ((why != null) ? ": " + why : ""), null);
		}
		this.phase = next;
	}

	boolean isActive() {
		return this.phase != Phase.FAILED && this.phase != Phase.PAUSED && this.subscription != null
				&& this.onRewind == null && !this.held;
	}

	/** Returns whether a change read at {@code resumeFrom} is new to this table rather than a replay. */
	boolean takes(Position resumeFrom) {
		Position until = this.replayedUntil;
		return until == null || resumeFrom.compareTo(until) >= 0;
	}

	/**
	 * Returns the position up to which this table has been handed every change: the reader's, or
	 * further while the reader replays for another table.
	 */
	Position delivered(Position readerDelivered) {
		Position until = this.replayedUntil;
		if (until == null || readerDelivered == null) {
			return readerDelivered;
		}
		return (readerDelivered.compareTo(until) >= 0) ? readerDelivered : until;
	}

	/**
	 * Records an operator action as the table's last action and in its timeline.
	 * @param name the action
	 * @param detail what it did
	 * @param requestedBy who asked, or {@code null} when unknown
	 */
	void recordAction(String name, String detail, String requestedBy) {
		boolean named = requestedBy != null && !requestedBy.isBlank();
		this.lastAction = new TableStatus.Action(name, Instant.now(),
				detail + (named ? " (by " + requestedBy + ")" : ""));
		this.timeline.add(TableEvent.Kind.ACTION, name + ": " + detail, named ? requestedBy : null);
	}

	Watermarks watermarks() {
		Copier current = this.copier;
		return (current != null) ? current.watermarks() : Watermarks.NONE;
	}

	void fail(String error) {
		this.lastError = error;
		enter(Phase.FAILED, error);
		BufferedSubscription buffer = this.subscription;
		if (buffer != null) {
			buffer.clear();
		}
	}

	TableStatus status(Position delivered, TableStatus.Events events) {
		BufferedSubscription buffer = this.subscription;
		SubscriptionCounters counters = (buffer != null) ? buffer.counters()
				: new SubscriptionCounters(0, 0, 0, 0, 0, 0, 0, -1, 0);
		Copier copy = this.copier;
		boolean snapshotting = copy != null && this.phase == Phase.SNAPSHOTTING;
		Position position = this.confirmed;
		boolean flushed = counters.bufferedKeys() == 0 && position != null && position.equals(delivered(delivered));
		return new TableStatus(this.mapping.source().toString(), TableSink.describe(this.mapping.target()), this.phase,
				(copy != null) ? copy.rowsCopied() : 0, (copy != null) ? copy.rowsEstimated() : 0,
				(copy != null) ? copy.chunksCopied() : 0, snapshotting ? copy.rowsPerSecond() : 0,
				snapshotting ? copy.etaSeconds() : null, counters.bufferedKeys(), counters.bufferedBytes() + counters.inFlightBytes(),
				counters.keysAdded(), counters.droppedAboveHighWatermark(), counters.deferredInFlight(),
				counters.parks(), counters.parkedMillis(), counters.softLimitBytes(), this.changesApplied, apply(),
				flushed, (position != null) ? position.toString() : null, this.lastFlush, this.lastError, checksum(),
				this.lastAction, events, this.flushes.snapshot(), this.snapshotDone,
				(this.sink != null) ? this.sink.status() : null);
	}

	/** See {@link Pipeline#detail(io.tributary.name.TableId)}. */
	TableDetail detail(Position delivered, TableStatus.Events events) {
		TableLayout current = this.layout;
		List<TableDetail.ColumnInfo> columns = new ArrayList<>();
		List<String> key = new ArrayList<>();
		if (current != null) {
			for (Column column : current.columns()) {
				boolean inKey = Arrays.stream(current.keyColumns()).anyMatch((ordinal) -> ordinal == column.ordinal());
				columns.add(new TableDetail.ColumnInfo(column.name(), column.columnType(), column.nullable(), inKey));
			}
			current.keys().forEach((column) -> key.add(column.name()));
		}
		ParallelApplier writing = this.writer;
		return new TableDetail(status(delivered, events), columns, key,
				(writing != null) ? writing.partitionIndexes() : List.of(), this.lastCheckpoint,
				this.timeline.snapshot());
	}

	private TableStatus.Checksum checksum() {
		ChecksumProgress current = this.checksum;
		return (current != null) ? current.snapshot() : TableStatus.Checksum.IDLE;
	}

	private TableStatus.Apply apply() {
		ParallelApplier current = this.writer;
		ApplierCounters counters;
		if (current != null) {
			counters = current.counters();
		}
		else if (this.sink != null) {
			counters = this.sink.counters();
		}
		else {
			return null;
		}
		return new TableStatus.Apply(counters.batchesApplied(), counters.batchesFailed(), counters.rowsUpserted(),
				counters.keysDeleted(), counters.contentionEvents(), counters.retries(), counters.concurrency(),
				counters.maxConcurrency());
	}

	void recordFlush(long rows, long startedNanos) {
		long nanos = System.nanoTime() - startedNanos;
		this.flushes.succeeded(rows, nanos);
		this.lastFlush = new TableStatus.Flush(Instant.now(), rows, nanos / 1_000_000, "ok");
	}

	void recordFailedFlush(long rows, long startedNanos, String error) {
		long nanos = System.nanoTime() - startedNanos;
		this.flushes.failed(rows, nanos);
		this.lastFlush = new TableStatus.Flush(Instant.now(), rows, nanos / 1_000_000, error);
		this.timeline.add(TableEvent.Kind.FLUSH_FAILED, "A flush of " + rows + " changes failed after "
				+ (nanos / 1_000_000) + " ms; they were put back: " + error, null);
	}

}
