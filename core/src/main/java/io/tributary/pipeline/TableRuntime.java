package io.tributary.pipeline;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplierCounters;
import io.tributary.apply.ListenerApplier;
import io.tributary.apply.ParallelApplier;
import io.tributary.checksum.ChecksumProgress;
import io.tributary.copy.Copier;
import io.tributary.schema.TableLayout;
import io.tributary.source.Position;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.subscription.BufferedSubscription;
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
	 * Writes the table's changes: a {@code JdbcReplaceApplier} into the target table, or a
	 * {@link ListenerApplier} in listener mode.
	 */
	volatile Applier applier;

	/**
	 * Applies drained changes with parallel statements; wraps {@link #applier}. {@code null} in
	 * listener mode, where each drain is one call of the listener.
	 */
	volatile ParallelApplier writer;

	volatile Copier copier;

	volatile Phase phase = Phase.SNAPSHOTTING;

	volatile boolean snapshotDone;

	/** Where a table that is catching up counts as caught up. */
	volatile Position catchUpTarget;

	volatile Position confirmed;

	volatile long changesApplied;

	volatile TableStatus.Flush lastFlush;

	volatile String lastError;

	/** The latest checksum pass, or {@code null} before the first. */
	volatile ChecksumProgress checksum;

	/** Completes when the latest checksum pass ends; {@code null} before the first. */
	volatile CompletableFuture<TableStatus.Checksum> checksumDone;

	TableRuntime(TableMapping mapping) {
		this.mapping = mapping;
	}

	boolean isActive() {
		return this.phase != Phase.FAILED && this.phase != Phase.PAUSED && this.subscription != null;
	}

	Watermarks watermarks() {
		Copier current = this.copier;
		return (current != null) ? current.watermarks() : Watermarks.NONE;
	}

	void fail(String error) {
		this.lastError = error;
		this.phase = Phase.FAILED;
		BufferedSubscription buffer = this.subscription;
		if (buffer != null) {
			buffer.clear();
		}
	}

	TableStatus status(Position delivered) {
		BufferedSubscription buffer = this.subscription;
		BufferedSubscription.Counters counters = (buffer != null) ? buffer.counters()
				: new BufferedSubscription.Counters(0, 0, 0, 0, 0, 0, 0, -1);
		Copier copy = this.copier;
		boolean snapshotting = copy != null && this.phase == Phase.SNAPSHOTTING;
		Position position = this.confirmed;
		boolean flushed = counters.bufferedKeys() == 0 && position != null && position.equals(delivered);
		return new TableStatus(this.mapping.source().toString(), this.mapping.target().toString(), this.phase,
				(copy != null) ? copy.rowsCopied() : 0, (copy != null) ? copy.rowsEstimated() : 0,
				(copy != null) ? copy.chunksCopied() : 0, snapshotting ? copy.rowsPerSecond() : 0,
				snapshotting ? copy.etaSeconds() : null, counters.bufferedKeys(), counters.bufferedBytes(),
				counters.keysAdded(), counters.droppedAboveHighWatermark(), counters.deferredInFlight(),
				counters.parks(), counters.parkedMillis(), counters.softLimitBytes(), this.changesApplied, apply(),
				flushed, (position != null) ? position.toString() : null, this.lastFlush, this.lastError, checksum());
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
		else if (this.applier instanceof ListenerApplier listener) {
			counters = listener.counters();
		}
		else {
			return null;
		}
		return new TableStatus.Apply(counters.batchesApplied(), counters.batchesFailed(), counters.rowsUpserted(),
				counters.keysDeleted(), counters.contentionEvents(), counters.retries(), counters.concurrency(),
				counters.maxConcurrency());
	}

	void recordFlush(long rows, long startedNanos, String outcome) {
		this.lastFlush = new TableStatus.Flush(Instant.now(), rows, (System.nanoTime() - startedNanos) / 1_000_000,
				outcome);
	}

}
