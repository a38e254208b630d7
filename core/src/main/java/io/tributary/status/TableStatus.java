package io.tributary.status;

import java.time.Instant;
import java.util.Objects;

import io.tributary.name.Destination;

/**
 * An immutable snapshot of one replicated table. Its counters come in groups: the snapshot's
 * {@link Copy}, the {@link Buffer} of changes waiting to be applied, the {@link Flushing} of those
 * changes to the target, the statements that did it ({@link Apply}) and the latest
 * {@link Checksum}. Built by name with {@link #builder}; each counter of a group can also be read
 * here directly, as {@link #rowsCopied()} for {@code copy().rowsCopied()}.
 *
 * @param name source table, {@code schema.table}
 * @param destination where the table's changes go: its target table, the listener, a topic
 * @param rule the rule that took the table by pattern, as in {@code cdc.tables[2]}, or
 * {@code null} for a table listed on its own
 * @param phase where the table is in its life
 * @param copy the snapshot's progress
 * @param buffer the changes held for the table, and what the buffer did with them
 * @param flushing what was applied to the target and confirmed
 * @param apply counters of the statements that applied changes; in listener mode, of the calls of
 * the listener (a batch is a call, snapshot chunks included; no contention, concurrency 1); {@code null}
 * before the table has a writer
 * @param checksum the latest comparison of source and target, {@link Checksum#IDLE} before the
 * first
 * @param lastAction the latest operator action on the table (pause, resume, resnapshot, restart),
 * or {@code null} before the first
 * @param events row changes of the table read from the binlog since start, by kind
 * @param lastError why the table failed or the last flush failed, or {@code null}
 * @param sink what the table's sink reports when its changes go to one that reports (a Kafka
 * topic), or {@code null}
 */
public record TableStatus(String name, Destination destination, String rule, Phase phase, Copy copy, Buffer buffer,
		Flushing flushing, Apply apply, Checksum checksum, Action lastAction, Events events, String lastError,
		SinkStatus sink) implements TableFigures {

	public TableStatus {
		Objects.requireNonNull(destination, "destination");
		Objects.requireNonNull(copy, "copy");
		Objects.requireNonNull(buffer, "buffer");
		Objects.requireNonNull(flushing, "flushing");
	}

	/**
	 * Starts the status of a table that has copied, buffered and flushed nothing yet, with no soft
	 * limit, an idle checksum and no events; set what differs by name.
	 * @param name source table, {@code schema.table}
	 * @param destination where its changes go
	 * @param phase where the table is in its life
	 * @return a builder
	 */
	public static TableStatusBuilder builder(String name, Destination destination, Phase phase) {
		return new TableStatusBuilder(name, destination, phase);
	}

	/**
	 * Starts the status of a table as {@link #builder(String, Destination, Phase)} does, its
	 * destination given in its text form.
	 * @param name source table, {@code schema.table}
	 * @param target the destination as {@link Destination#parse} reads it, as in {@code replica.orders}
	 * or {@code (kafka).eu.shop.orders}
	 * @param phase where the table is in its life
	 * @return a builder
	 */
	public static TableStatusBuilder builder(String name, String target, Phase phase) {
		return builder(name, Destination.parse(target), phase);
	}

	/**
	 * Returns the destination in its text form: the target table as {@code schema.table}, or another
	 * kind as {@code (<kind>).<name>}, as in {@code (listener).orders}.
	 */
	public String target() {
		return this.destination.toString();
	}

	/** Returns a builder that starts from this status. */
	public TableStatusBuilder toBuilder() {
		return new TableStatusBuilder(this);
	}

	/**
	 * Progress of the snapshot, the copy of the rows the table had when it started.
	 *
	 * @param rowsCopied rows copied so far
	 * @param rowsEstimated estimated rows of the source table
	 * @param chunksCopied chunks copied
	 * @param rowsPerSecond rows copied per second over the last few seconds; 0 when the table is not
	 * snapshotting
	 * @param etaSeconds seconds until the estimated rows are copied at that rate, or {@code null}
	 * when unknown (not snapshotting, or nothing copied lately)
	 * @param done whether the table's existing rows have all been copied, or it resumed past its
	 * snapshot
	 */
	public record Copy(long rowsCopied, long rowsEstimated, long chunksCopied, double rowsPerSecond, Long etaSeconds,
			boolean done) {

		/** Nothing copied yet. */
		public static final Copy NONE = new Copy(0, 0, 0, 0, null, false);

	}

	/**
	 * The table's buffer: per key, the latest change not yet applied.
	 *
	 * @param keys changes held now
	 * @param bytes estimated bytes of the changes held now, buffered or drained and being applied:
	 * what the soft limit bounds
	 * @param softLimitBytes the soft limit, negative when there is none
	 * @param keysAdded changes added since start
	 * @param droppedAboveHighWatermark changes dropped because the snapshot will read them
	 * @param deferredInFlight times a change waited for its chunk to land
	 * @param parkEvents times the reader waited for room to add a change of this table, under its soft
	 * limit or under the pipeline's budget
	 * @param parkedMillis total time the reader waited for room
	 * @param budgetParkEvents of {@code parkEvents}, those under the pipeline's budget: the table
	 * was under its soft limit, but the buffers of all tables together were at the budget
	 */
	public record Buffer(long keys, long bytes, long softLimitBytes, long keysAdded, long droppedAboveHighWatermark,
			long deferredInFlight, long parkEvents, long parkedMillis, long budgetParkEvents) {

		/** Empty, without a soft limit, nothing counted. */
		public static final Buffer EMPTY = new Buffer(0, 0, -1, 0, 0, 0, 0, 0, 0);

		/** Creates the counters of a buffer that never waited under the pipeline's budget. */
		public Buffer(long keys, long bytes, long softLimitBytes, long keysAdded, long droppedAboveHighWatermark,
				long deferredInFlight, long parkEvents, long parkedMillis) {
			this(keys, bytes, softLimitBytes, keysAdded, droppedAboveHighWatermark, deferredInFlight, parkEvents,
					parkedMillis, 0);
		}

	}

	/**
	 * What the table's flushes applied to the target, and the position that confirms.
	 *
	 * @param changesApplied row images and deletes written to the target (or accepted by the change
	 * listener) since start, snapshot rows not included
	 * @param allChangesFlushed whether nothing is buffered and the table's position equals the
	 * delivered one
	 * @param confirmedPosition position this table would resume from, or {@code null}
	 * @param lastFlush the most recent flush, or {@code null}
	 * @param flushes flushes of the table since start, by outcome
	 */
	public record Flushing(long changesApplied, boolean allChangesFlushed, String confirmedPosition, Flush lastFlush,
			Flushes flushes) {

		/** Nothing applied or confirmed yet. */
		public static final Flushing NONE = new Flushing(0, false, null, null, null);

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
		FAILED,
		/**
		 * The source table was dropped, or renamed to a name Tributary does not replicate: nothing
		 * more comes. Its target and its checkpoint are kept; its timeline says what happened.
		 */
		DROPPED,
		/**
		 * Copied once and stopped, as its snapshot mode {@code only} asks: its target equals the
		 * source table at its confirmed position, which stays; nothing more is applied.
		 */
		COPIED;

		/**
		 * Returns whether a table in this phase may move to {@code next}: the one table of the
		 * phases' transitions. Any phase may fail or be dropped; a table is copied (again) from any phase but a
		 * copy; it streams only after catching up, is paused only while it catches up or streams, and
		 * ends copied once ({@code COPIED}) from catching up or streaming, or when it starts so.
		 * @param next the phase to move to
		 * @return whether the move is allowed; moving to the same phase is no move and always allowed
		 */
		public boolean mayMoveTo(Phase next) {
			if (next == this || next == FAILED || next == DROPPED) {
				return true;
			}
			return switch (this) {
				case STARTING -> next == SNAPSHOTTING || next == CATCHING_UP || next == COPIED;
				case SNAPSHOTTING -> next == CATCHING_UP;
				case CATCHING_UP -> next == STREAMING || next == PAUSED || next == SNAPSHOTTING || next == COPIED;
				case STREAMING -> next == PAUSED || next == SNAPSHOTTING || next == COPIED;
				case PAUSED, FAILED, DROPPED, COPIED -> next == CATCHING_UP || next == SNAPSHOTTING || next == COPIED;
			};
		}

		/** Returns whether a table in this phase has stopped until an action: failed, dropped or copied once. */
		public boolean isStopped() {
			return this == FAILED || this == DROPPED || this == COPIED;
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
