package io.tributary.status;

import java.time.Instant;

/**
 * An immutable snapshot of one replicated table.
 *
 * @param name source table, {@code schema.table}
 * @param target target table, {@code schema.table}; {@code (listener).table} in listener mode
 * @param phase where the table is in its life
 * @param rowsCopied rows copied by the snapshot so far
 * @param rowsEstimated estimated rows of the source table
 * @param chunksCopied snapshot chunks copied
 * @param copyRowsPerSecond rows the snapshot copied per second over the last few seconds; 0 when
 * the table is not snapshotting
 * @param copyEtaSeconds seconds until the snapshot has copied the estimated rows at that rate, or
 * {@code null} when unknown (not snapshotting, or nothing copied lately)
 * @param bufferedKeys changes held in the buffer now
 * @param bufferedBytes estimated bytes of the changes held now, buffered or drained and being
 * applied: what the soft limit bounds
 * @param keysAdded changes added to the buffer since start
 * @param droppedAboveHighWatermark changes dropped because the snapshot will read them
 * @param deferredInFlight times a change waited for its chunk to land
 * @param parkEvents times the reader waited for room under the buffer's soft limit
 * @param parkedMillis total time the reader waited for room
 * @param bufferSoftLimitBytes the buffer's soft limit, negative when there is none
 * @param changesApplied row images and deletes written to the target (or accepted by the change
 * listener) since start, snapshot rows not included
 * @param apply counters of the statements that applied changes; in listener mode, of the calls of
 * the listener (a batch is a call, snapshot chunks included; no contention, concurrency 1)
 * @param allChangesFlushed whether nothing is buffered and the table's position equals the
 * delivered one
 * @param confirmedPosition position this table would resume from
 * @param lastFlush the most recent flush, or {@code null}
 * @param lastError why the table failed or the last flush failed, or {@code null}
 * @param checksum the latest comparison of source and target, {@link Checksum#IDLE} before the
 * first
 * @param lastAction the latest operator action on the table (pause, resume, resnapshot, restart),
 * or {@code null} before the first
 * @param events row changes of the table read from the binlog since start, by kind
 * @param flushes flushes of the table since start, by outcome
 * @param snapshotDone whether the table's existing rows have all been copied, or it resumed past
 * its snapshot
 * @param sink what the table's sink reports when its changes go to one that reports (a Kafka
 * topic), or {@code null}
 */
public record TableStatus(String name, String target, Phase phase, long rowsCopied, long rowsEstimated,
		long chunksCopied, double copyRowsPerSecond, Long copyEtaSeconds,
		long bufferedKeys, long bufferedBytes, long keysAdded, long droppedAboveHighWatermark,
		long deferredInFlight, long parkEvents, long parkedMillis, long bufferSoftLimitBytes, long changesApplied,
		Apply apply, boolean allChangesFlushed, String confirmedPosition,
		Flush lastFlush, String lastError, Checksum checksum, Action lastAction, Events events, Flushes flushes,
		boolean snapshotDone, SinkStatus sink) {

	/** Creates the status of a table without a sink that reports. */
	public TableStatus(String name, String target, Phase phase, long rowsCopied, long rowsEstimated,
			long chunksCopied, double copyRowsPerSecond, Long copyEtaSeconds, long bufferedKeys, long bufferedBytes,
			long keysAdded, long droppedAboveHighWatermark, long deferredInFlight, long parkEvents, long parkedMillis,
			long bufferSoftLimitBytes, long changesApplied, Apply apply, boolean allChangesFlushed,
			String confirmedPosition, Flush lastFlush, String lastError, Checksum checksum, Action lastAction,
			Events events, Flushes flushes, boolean snapshotDone) {
		this(name, target, phase, rowsCopied, rowsEstimated, chunksCopied, copyRowsPerSecond, copyEtaSeconds,
				bufferedKeys, bufferedBytes, keysAdded, droppedAboveHighWatermark, deferredInFlight, parkEvents,
				parkedMillis, bufferSoftLimitBytes, changesApplied, apply, allChangesFlushed, confirmedPosition,
				lastFlush, lastError, checksum, lastAction, events, flushes, snapshotDone, null);
	}

	/** Table phases. */
	public enum Phase {

		/**
		 * Not started yet: the pipeline is still checking the source and reading layouts and
		 * checkpoints (or retrying that; see the pipeline's {@code lastError}).
		 */
		STARTING,
		/** Existing rows are being copied. */
		SNAPSHOTTING,
		/** Copied (or resumed) and applying the backlog up to the source head. */
		CATCHING_UP,
		/** Following the source with a small lag. */
		STREAMING,
		/** Not applied, on request; its position stays where it was paused. */
		PAUSED,
		/** Stopped with an error; see {@code lastError}. */
		FAILED;

		/**
		 * Returns whether a table in this phase may move to {@code next}: the one table of the
		 * phases' transitions. Any phase may fail; a table is copied (again) from any phase but a
		 * copy; it streams only after catching up, and is paused only while it catches up or streams.
		 * @param next the phase to move to
		 * @return whether the move is allowed; moving to the same phase is no move and always allowed
		 */
		public boolean mayMoveTo(Phase next) {
			if (next == this || next == FAILED) {
				return true;
			}
			return switch (this) {
				case STARTING -> next == SNAPSHOTTING || next == CATCHING_UP;
				case SNAPSHOTTING -> next == CATCHING_UP;
				case CATCHING_UP -> next == STREAMING || next == PAUSED || next == SNAPSHOTTING;
				case STREAMING -> next == PAUSED || next == SNAPSHOTTING;
				case PAUSED, FAILED -> next == CATCHING_UP || next == SNAPSHOTTING;
			};
		}

	}

	/**
	 * Counters of the statements that applied changes.
	 *
	 * @param batchesApplied statements that succeeded
	 * @param batchesFailed statements that failed for good (their changes were put back)
	 * @param rowsUpserted row images written
	 * @param keysDeleted keys deleted
	 * @param contentionEvents deadlocks and lock wait timeouts met
	 * @param retries statements run again after contention
	 * @param concurrency statements allowed at once now (halved on contention, grown back slowly)
	 * @param maxConcurrency the configured most statements at once
	 */
	public record Apply(long batchesApplied, long batchesFailed, long rowsUpserted, long keysDeleted,
			long contentionEvents, long retries, int concurrency, int maxConcurrency) {

	}

	/**
	 * An operator action on a table.
	 *
	 * @param name {@code pause}, {@code resume}, {@code resnapshot} or {@code restart}
	 * @param at when it was asked for
	 * @param detail what it did, for example the position a resume reads from, followed by
	 * {@code (by alice)} when who asked for it is known
	 */
	public record Action(String name, Instant at, String detail) {

	}

	/**
	 * Row changes of a table read from the binlog, by kind; an update that changes the key counts
	 * once, as an update. Rows read again after a reconnect or a rewind count again.
	 *
	 * @param inserts rows inserted
	 * @param updates rows updated
	 * @param deletes rows deleted
	 * @param truncates TRUNCATE statements
	 */
	public record Events(long inserts, long updates, long deletes, long truncates) {

		/** Nothing read yet. */
		public static final Events NONE = new Events(0, 0, 0, 0);

	}

	/**
	 * Totals of a table's flushes, by outcome.
	 *
	 * @param ok flushes that applied everything they drained
	 * @param failed flushes that failed (their changes not applied were put back)
	 * @param okRows rows written and deleted by the flushes that succeeded
	 * @param failedRows rows written and deleted by the flushes that failed before they did
	 * @param okNanos time the flushes that succeeded took, in nanoseconds
	 * @param failedNanos time the flushes that failed took, in nanoseconds
	 */
	public record Flushes(long ok, long failed, long okRows, long failedRows, long okNanos, long failedNanos) {

	}

	/**
	 * One flush.
	 *
	 * @param at when it finished
	 * @param rows rows written and deleted
	 * @param durationMillis how long it took
	 * @param outcome {@code ok} or the error
	 */
	public record Flush(Instant at, long rows, long durationMillis, String outcome) {

	}

	/**
	 * The latest checksum pass of a table: its source and target compared chunk by chunk.
	 *
	 * @param state where the pass is
	 * @param chunksChecked chunks compared so far
	 * @param chunksDiffering chunks whose first comparison differed, including differences that
	 * were only changes on their way to the target
	 * @param chunksRecheckedStillDiffering chunks that still differed once every change up to their
	 * first read had been applied
	 * @param chunksRepaired chunks recopied from the source and equal afterwards
	 * @param rowsChecked source rows compared so far
	 * @param startedAt when the pass was asked for, or {@code null}
	 * @param finishedAt when it ended, or {@code null} while it runs
	 * @param lastError why the pass failed, or why a repaired chunk still differed; {@code null}
	 * when neither happened
	 */
	public record Checksum(State state, long chunksChecked, long chunksDiffering, long chunksRecheckedStillDiffering,
			long chunksRepaired, long rowsChecked, Instant startedAt, Instant finishedAt, String lastError) {

		/** No pass has run yet. */
		public static final Checksum IDLE = new Checksum(State.IDLE, 0, 0, 0, 0, 0, null, null, null);

		/** Checksum states. */
		public enum State {

			/** No pass has run. */
			IDLE,
			/** A pass is queued or comparing chunks. */
			RUNNING,
			/** The last pass compared every chunk. */
			DONE,
			/** The last pass stopped early; see {@code lastError}. */
			FAILED

		}

	}

}
