package io.tributary.checksum;

import java.time.Instant;

import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Checksum.State;

/**
 * The counters of one checksum pass, written by the pass and read by status at any time.
 */
public final class ChecksumProgress {

	private State state = State.RUNNING;

	private long chunksChecked;

	private long chunksDiffering;

	private long stillDiffering;

	private long repaired;

	private long rowsChecked;

	private final Instant startedAt = Instant.now();

	private Instant finishedAt;

	private String lastError;

	synchronized void chunkChecked(long rows) {
		this.chunksChecked++;
		this.rowsChecked += rows;
	}

	synchronized void differing() {
		this.chunksDiffering++;
	}

	synchronized void stillDiffering() {
		this.stillDiffering++;
	}

	synchronized void repaired() {
		this.repaired++;
	}

	synchronized void problem(String message) {
		this.lastError = message;
	}

	synchronized void done() {
		this.state = State.DONE;
		this.finishedAt = Instant.now();
	}

	/** Ends the pass as failed. */
	public synchronized void fail(String message) {
		this.state = State.FAILED;
		this.lastError = message;
		this.finishedAt = Instant.now();
	}

	/** Returns whether the pass has ended. */
	public synchronized boolean isFinished() {
		return this.state != State.RUNNING;
	}

	/** Returns the counters as they are now. */
	public synchronized TableStatus.Checksum snapshot() {
		return new TableStatus.Checksum(this.state, this.chunksChecked, this.chunksDiffering, this.stillDiffering,
				this.repaired, this.rowsChecked, this.startedAt, this.finishedAt, this.lastError);
	}

}
