package io.tributary.pipeline;

import java.sql.SQLException;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.copy.Copier;
import io.tributary.schema.TableLayout;
import io.tributary.source.Position;
import io.tributary.status.TableDetail;
import io.tributary.status.TableEvent;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.subscription.BufferedSubscription;
import io.tributary.subscription.Watermarks;

/**
 * The moving parts, state and counters of one table inside a pipeline, and the only place they are
 * changed: other classes ask for a transition by name. Fields written by the catch-up loop, the
 * copy thread, the reader and actions are volatile, and status reads them without locking; a
 * phase changes only along {@link Phase#mayMoveTo}.
 */
final class TableRuntime {

	/** The table and where it goes; replaced only when the table is followed under a new name. */
	volatile TableMapping mapping;

	/**
	 * Held by the catch-up loop from drain to the end of the apply, and by schema changes read
	 * from the stream, so a TRUNCATE or a new layout never meets a half-applied drain.
	 */
	final ReentrantLock flushLock = new ReentrantLock();

	final TableTimeline timeline = new TableTimeline();

	/** Whether the table takes changes now: holds, rewinds and replays. */
	final TableIntake intake = new TableIntake();

	/** What the table writes with and reads from. */
	final TableWiring wiring = new TableWiring();

	private volatile Phase phase = Phase.STARTING;

	private volatile boolean snapshotDone;

	/** Where a table that is catching up counts as caught up. */
	private volatile Position catchUpTarget;

	private volatile Position confirmed;

	private volatile long changesApplied;

	private volatile TableStatus.Flush lastFlush;

	private final FlushTotals flushes = new FlushTotals();

	private volatile String lastError;

	/** Flushes that failed in a row the same way; the catch-up loop's alone. */
	private final FailureStreak failureStreak = new FailureStreak();

	private volatile TableStatus.Action lastAction;

	/** The checkpoint last saved for the table, or {@code null} before the first. */
	private volatile TableDetail.Checkpoint lastCheckpoint;

	/**
	 * Set when the table failed because the reader could not follow its layout: a restart copies
	 * it again rather than replay row images logged with the layout it had.
	 */
	private volatile boolean copyOnRestart;

	/** The table's latest checksum pass and the one queued. */
	final TableChecksums checksums = new TableChecksums();

	TableRuntime(TableMapping mapping) {
		this.mapping = mapping;
	}

	/**
	 * Ends a setup: the table takes its changes into a new buffer from now on (in its copy phase
	 * while it snapshots), and a restart no longer needs a copy.
	 */
	void takeChangesInto(BufferedSubscription buffer) {
		this.wiring.bufferInto(buffer);
		if (this.phase != Phase.SNAPSHOTTING) {
			buffer.endCopyPhase();
		}
		this.copyOnRestart = false;
	}

	/**
	 * Takes a layout the source changed to, with the statements that write it, between two drains.
	 * @param next the new layout
	 * @param nextStatements the statements for it, or {@code null} for a table going to a sink,
	 * whose sink takes the new column list
	 * @throws SQLException when the target's unique indexes cannot be read for the new statements
	 */
	void relayout(TableLayout next, JdbcReplaceApplier nextStatements) throws SQLException {
		this.flushLock.lock();
		try {
			this.wiring.relayout(next, nextStatements);
		}
		finally {
			this.flushLock.unlock();
		}
	}

	// Phases.

	Phase phase() {
		return this.phase;
	}

	boolean snapshotDone() {
		return this.snapshotDone;
	}

	Position catchUpTarget() {
		return this.catchUpTarget;
	}

	/** Moves the table to a phase, noting the change in its timeline. */
	void enter(Phase next) {
		enter(next, null);
	}

	/**
	 * Notes the move in the timeline before publishing the phase, so whoever sees the new phase
	 * also finds the move in the timeline.
	 * @throws IllegalStateException when {@code next} may not follow the current phase
	 */
	private void enter(Phase next, String why) {
		Phase was = this.phase;
		if (was == next) {
			return;
		}
		if (!was.mayMoveTo(next)) {
			throw new IllegalStateException("Table " + this.mapping.source() + " cannot move from " + was + " to " + next);
		}
		this.timeline.add(TableEvent.Kind.PHASE, was + " to " + next + ((why != null) ? ": " + why : ""), null);
		this.phase = next;
	}

	/** Starts a copy of the table's rows, streaming alongside from {@code from} or, when null, from where the pipeline starts. */
	void startCopy(Copier copy, Position from) {
		this.wiring.copyWith(copy);
		this.snapshotDone = false;
		this.confirmed = from;
		enter(Phase.SNAPSHOTTING);
	}

	/** Streams from {@code from}, a checkpoint of a copied table, or when null from where the pipeline starts, without a copy. */
	void startStreaming(Position from) {
		this.wiring.copyWith(null);
		this.snapshotDone = true;
		this.confirmed = from;
		enter(Phase.CATCHING_UP);
	}

	/** Ends the copy: the buffer leaves its copy phase, and the table catches up to {@code head}. */
	void copyFinished(Position head) {
		this.snapshotDone = true;
		this.wiring.subscription().endCopyPhase();
		this.catchUpTarget = head;
		enter(Phase.CATCHING_UP);
	}

	/** Sets where a table catching up counts as caught up. */
	void catchUpTo(Position head) {
		this.catchUpTarget = head;
	}

	/** Catches up to {@code head} from a replay: the buffer is emptied of what the replay brings again. */
	void catchUpAfterReplay(Position head) {
		this.wiring.subscription().clear();
		this.catchUpTarget = head;
		enter(Phase.CATCHING_UP);
	}

	/**
	 * Gives a table that is starting without a position of its own the one the pipeline starts
	 * reading at; a failed table keeps none.
	 */
	void startsAt(Position from) {
		if (this.confirmed == null && (this.phase == Phase.SNAPSHOTTING || this.phase == Phase.CATCHING_UP)) {
			this.confirmed = from;
		}
	}

	void pause() {
		this.flushLock.lock();
		try {
			enter(Phase.PAUSED);
			// Empties the buffer and wakes a reader waiting for room in it.
			this.wiring.subscription().clear();
		}
		finally {
			this.flushLock.unlock();
		}
	}

	/**
	 * Stops the table because its source table is gone (dropped, or renamed away); its buffer is
	 * released, its target and confirmed position kept. What happened is its last action.
	 */
	void drop(String what) {
		enter(Phase.DROPPED, what);
		this.lastAction = new TableStatus.Action("dropped", Instant.now(), what);
		releaseBuffer();
	}

	/** Goes on under a new name, with the mapping a rule gives it there; the caller holds the flush lock. */
	void renamed(TableMapping next) {
		this.mapping = next;
	}

	/**
	 * Stops the table copied once (snapshot mode only): its target equals the source table at
	 * {@code end}, its confirmed position from now on; its buffer is released.
	 */
	void copied(Position end, String what) {
		this.confirmed = end;
		this.snapshotDone = true;
		enter(Phase.COPIED, what);
		this.lastAction = new TableStatus.Action("copied", Instant.now(), what);
		releaseBuffer();
	}

	void fail(String error) {
		this.lastError = error;
		enter(Phase.FAILED, error);
		releaseBuffer();
	}

	/** Empties the buffer of a table that stopped, which wakes a reader waiting for room in it. */
	private void releaseBuffer() {
		BufferedSubscription buffer = this.wiring.subscription();
		if (buffer != null) {
			buffer.clear();
		}
	}

	/**
	 * Fails the table because the reader could not follow its layout: a restart copies it again,
	 * since its changes after the checkpoint were logged with the layout it had.
	 */
	void failUnfollowable(String error) {
		fail(error);
		this.copyOnRestart = true;
	}

	boolean copyOnRestart() {
		return this.copyOnRestart;
	}

	// Taking changes.

	boolean isActive() {
		return !this.phase.isStopped() && this.phase != Phase.PAUSED && this.wiring.subscription() != null
				&& this.intake.isOpen();
	}

	/** Keeps the catch-up loop and the reader away from the table while an action sets it up again. */
	void hold() {
		this.flushLock.lock();
		try {
			this.intake.hold();
			BufferedSubscription buffer = this.wiring.subscription();
			if (buffer != null) {
				buffer.clear();
			}
		}
		finally {
			this.flushLock.unlock();
		}
	}

	/** Fails a held table that could not be set up again, and lets go of it. */
	void failHeld(String error) {
		fail(error);
		this.intake.release();
	}

	// Positions, flushes and errors.

	Position confirmed() {
		return this.confirmed;
	}

	/** Sets the position the table would resume from: every change before it is applied. */
	void confirm(Position position) {
		this.confirmed = position;
	}

	String lastError() {
		return this.lastError;
	}

	/** Notes a passing problem (the table goes on), or its end with {@code null}, unless the table has failed. */
	void notePassingError(String error) {
		if (error != null || this.phase != Phase.FAILED) {
			this.lastError = error;
		}
	}

	/** Clears the error of a table an action sets up again. */
	void clearError() {
		this.lastError = null;
	}

	void recordFlush(long rows, long startedNanos) {
		long nanos = System.nanoTime() - startedNanos;
		this.changesApplied += rows;
		this.flushes.succeeded(rows, nanos);
		this.lastFlush = new TableStatus.Flush(Instant.now(), rows, nanos / 1_000_000, "ok");
		this.failureStreak.succeeded();
		if (this.lastError != null && this.phase != Phase.FAILED) {
			this.lastError = null;
		}
	}

	/**
	 * Records a flush that failed after applying {@code rows} changes.
	 * @return whether it failed as the flushes before it did, often and long enough that retrying
	 * will not cure it (see {@link FailureStreak})
	 */
	boolean recordFailedFlush(long rows, long startedNanos, Throwable error) {
		long nanos = System.nanoTime() - startedNanos;
		this.changesApplied += rows;
		this.flushes.failed(rows, nanos);
		this.lastFlush = new TableStatus.Flush(Instant.now(), rows, nanos / 1_000_000, error.getMessage());
		this.lastError = error.getMessage();
		this.timeline.add(TableEvent.Kind.FLUSH_FAILED, "A flush of " + rows + " changes failed after "
				+ (nanos / 1_000_000) + " ms; they were put back: " + error.getMessage(), null);
		return this.failureStreak.failed(error, System.nanoTime());
	}

	/** Returns how many flushes in a row failed the same way. */
	int sameFailures() {
		return this.failureStreak.count();
	}

	/** Notes the checkpoint just saved for the table. */
	void checkpointSaved(TableDetail.Checkpoint checkpoint) {
		this.lastCheckpoint = checkpoint;
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
		Copier current = this.wiring.copier();
		return (current != null) ? current.watermarks() : Watermarks.NONE;
	}

	// What status reads.

	long changesApplied() {
		return this.changesApplied;
	}

	TableStatus.Flush lastFlush() {
		return this.lastFlush;
	}

	TableStatus.Flushes flushTotals() {
		return this.flushes.snapshot();
	}

	TableStatus.Action lastAction() {
		return this.lastAction;
	}

	TableDetail.Checkpoint lastCheckpoint() {
		return this.lastCheckpoint;
	}

}
