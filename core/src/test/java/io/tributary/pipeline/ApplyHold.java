package io.tributary.pipeline;

import java.time.Duration;

import io.tributary.name.TableId;

/**
 * Holds a pipeline's control thread with a drained batch in hand, just before it applies it, once
 * {@link #arm() armed}, until the test releases it: a leader stalled with a batch in flight. The
 * thread waits at most two minutes.
 */
class ApplyHold implements Pipeline.ApplyObserver {

	private final Gate gate = new Gate("apply");

	private volatile boolean armed;

	/** Holds the next batch applied. */
	void arm() {
		this.armed = true;
	}

	@Override
	public void beforeApply(TableId table, int changes) {
		if (this.armed && this.gate.unused()) {
			this.gate.hold();
		}
	}

	/** Waits until a batch is held. */
	void awaitHeld(Duration timeout) throws InterruptedException {
		this.gate.awaitHeld(timeout);
	}

	/** Lets the held batch be applied. */
	void release() {
		this.gate.release();
	}

}
