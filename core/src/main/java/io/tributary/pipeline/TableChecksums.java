package io.tributary.pipeline;

import java.util.concurrent.CompletableFuture;

import io.tributary.checksum.ChecksumProgress;
import io.tributary.status.TableStatus;

/**
 * One table's checksum passes: the latest (which the status shows) and the one queued behind it.
 * The pipeline's checksum runs change them under their own lock; anyone may read them.
 */
final class TableChecksums {

	/** The latest checksum pass, or {@code null} before the first. */
	private volatile ChecksumProgress latest;

	/** Completes when the checksum pass queued and not yet started ends; {@code null} when none is. */
	private volatile CompletableFuture<TableStatus.Checksum> queued;

	CompletableFuture<TableStatus.Checksum> queued() {
		return this.queued;
	}

	/** Returns whether a checksum pass is queued or comparing. */
	boolean running() {
		ChecksumProgress current = this.latest;
		return this.queued != null || (current != null && !current.isFinished());
	}

	/** Queues a checksum pass: the status shows it unless one still runs. */
	void queue(ChecksumProgress progress, CompletableFuture<TableStatus.Checksum> done) {
		this.queued = done;
		if (this.latest == null || this.latest.isFinished()) {
			this.latest = progress;
		}
	}

	/** Starts the queued pass, or drops it when it could not be queued: a request from now on queues the next one. */
	void started(ChecksumProgress progress) {
		this.queued = null;
		if (progress != null) {
			this.latest = progress;
		}
	}

	/** Returns the latest checksum pass, or {@code null} before the first. */
	ChecksumProgress latest() {
		return this.latest;
	}

}
