package io.tributary.pipeline;

import java.util.function.LongSupplier;

import io.tributary.source.Position;

/**
 * Whether one table takes the changes the reader hands it: not while an action sets it up again
 * (held), not while it waits for the reader to rewind to its position, and not the changes of a
 * replay it already holds. Also when it last became active, which a catch-up cycle compares with
 * the activation count it read before the delivered position.
 */
final class TableIntake {

	/** Set while an action sets the table up again; the table takes no changes meanwhile. */
	private volatile boolean held;

	/**
	 * Set while the table waits for the binlog reader to rewind to its position (a resume or a
	 * restart): run by the reader at the rewind, before the first replayed event, it makes the table
	 * take changes again. The table takes none while it is set.
	 */
	private volatile Runnable onRewind;

	/** The value of the pipeline's activation count when the table last became active. */
	private volatile long activeSince;

	/**
	 * Where the reader was when it last rewound for another table: this table already holds every
	 * change before it, so replayed changes before it are skipped. {@code null} when no replay is
	 * under way.
	 */
	private volatile Position replayedUntil;

	/** Returns whether the table is neither held nor waiting for a rewind. */
	boolean isOpen() {
		return this.onRewind == null && !this.held;
	}

	/** Returns whether an action is setting the table up again or waiting for the reader to rewind. */
	boolean isBusy() {
		return !isOpen();
	}

	/** Returns whether an action is setting the table up again; its checkpoint stays as it was meanwhile. */
	boolean isHeld() {
		return this.held;
	}

	/**
	 * Returns whether the table became active after a cycle read the activation count
	 * {@code activationsRead}, before its delivered position: that position may not cover the
	 * table's changes, so the cycle leaves the table out.
	 */
	boolean activatedAfter(long activationsRead) {
		return this.activeSince > activationsRead;
	}

	void hold() {
		this.held = true;
	}

	void release() {
		this.held = false;
	}

	/**
	 * Makes a held table take changes from now on.
	 * @param activation the pipeline's next activation count: a cycle that read the delivered
	 * position before it leaves the table out, since that position may not cover its changes
	 */
	void activate(long activation) {
		this.activeSince = activation;
		this.held = false;
	}

	/**
	 * Lets go of a held table that takes changes again only once the reader has rewound for it;
	 * {@code activation} then runs on the reader's thread, before the first replayed event.
	 */
	void activateAtRewind(Runnable activation) {
		this.onRewind = activation;
		this.held = false;
	}

	boolean waitsForRewind() {
		return this.onRewind != null;
	}

	/**
	 * The reader rewound for this table: it takes changes from now on.
	 * @param activation the pipeline's next activation count
	 */
	void rewound(LongSupplier activation) {
		this.replayedUntil = null;
		this.onRewind.run();
		this.activeSince = activation.getAsLong();
		this.onRewind = null;
	}

	/**
	 * The reader rewound for another table: this one already holds every change before
	 * {@code replayUntil} and skips them.
	 */
	void skipReplayUntil(Position replayUntil) {
		Position until = this.replayedUntil;
		this.replayedUntil = (until != null && until.compareTo(replayUntil) >= 0) ? until : replayUntil;
	}

	/** The reader is past every replay: the table takes every change again. */
	void replayPassed() {
		this.replayedUntil = null;
	}

	/** Returns whether a change read at {@code resumeFrom} is new to this table rather than a replay. */
	boolean takes(Position resumeFrom) {
		Position until = this.replayedUntil;
		boolean fresh = until == null || resumeFrom.compareTo(until) >= 0;
		return (fresh && this.endsOnce) ? takesBeforeEnd(resumeFrom) : fresh;
	}

	// Ending once (snapshot mode only): the table takes whole transactions up to a boundary, and
	// nothing from there on. The reader thread and the control thread agree on that boundary under
	// this object's lock, which only such a table takes on every change.

	/** Set for a table that ends once copied; its every change then goes through the lock. */
	private volatile boolean endsOnce;

	/** Set when the table is to end at the next boundary it can end at. */
	private boolean ending;

	/** The boundary before the last transaction the table took from, once the end is asked for. */
	private Position lastTaken;

	/** Where the table ends: it took every transaction before it and none from it on. */
	private volatile Position end;

	/** Makes the table one that ends once copied: from now on it notes where each change it takes was read. */
	synchronized void endsOnce() {
		this.endsOnce = true;
		this.ending = false;
		this.lastTaken = null;
		this.end = null;
	}

	/** Asks the table to end at the next transaction boundary it can end at. */
	synchronized void endSoon() {
		this.ending = true;
	}

	private synchronized boolean takesBeforeEnd(Position resumeFrom) {
		if (this.ending && this.end == null && this.lastTaken != null && resumeFrom.compareTo(this.lastTaken) > 0) {
			// A transaction after the one the end was asked in: the table ends before it.
			this.end = resumeFrom;
		}
		if (this.end != null) {
			return resumeFrom.compareTo(this.end) < 0;
		}
		this.lastTaken = resumeFrom;
		return true;
	}

	/**
	 * Ends the table at the reader's boundary {@code delivered} when no change has reached it since
	 * the end was asked for past that boundary (an idle table), and returns where it ends.
	 * @return the end, or {@code null} while the table is in the middle of a transaction the reader
	 * has not finished handing it, or when no end was asked for
	 */
	synchronized Position endBy(Position delivered) {
		if (this.ending && this.end == null && delivered != null
				&& (this.lastTaken == null || this.lastTaken.compareTo(delivered) < 0)) {
			this.end = delivered;
		}
		return this.end;
	}


	/**
	 * Returns the position up to which this table has been handed every change: the reader's, or
	 * further while the reader replays for another table.
	 */
	Position delivered(Position readerDelivered) {
		Position until = this.replayedUntil;
		Position handed = (until == null || readerDelivered == null || readerDelivered.compareTo(until) >= 0)
				? readerDelivered : until;
		Position last = this.end;
		// An ended table is handed nothing from its end on.
		return (last != null && handed != null && handed.compareTo(last) > 0) ? last : handed;
	}

}
