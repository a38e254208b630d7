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

}
