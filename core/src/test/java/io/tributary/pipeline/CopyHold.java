package io.tributary.pipeline;

import java.time.Duration;
import java.util.function.Predicate;

import io.tributary.copy.Copier;

/**
 * Holds a snapshot's copier before it dispatches a chosen chunk until the test releases it, so the
 * test can act while the copy is part-way through. The copier waits at most two minutes.
 *
 * <pre>{@code
 * CopyHold hold = CopyHold.afterFirstChunk();
 * try (RunningPipeline pipeline = replication.start((p) -> p.observeChunks(hold))) {
 *     hold.whileHeld(() -> replication.onSource("DELETE FROM t"));
 *     pipeline.awaitPhase(Phase.STREAMING);
 * }
 * }</pre>
 */
class CopyHold implements Copier.ChunkObserver {

	private final Predicate<Object[]> holdBefore;

	private final Gate gate = new Gate("copier");

	/** @param holdBefore whether to hold before the chunk that starts after the given key */
	CopyHold(Predicate<Object[]> holdBefore) {
		this.holdBefore = holdBefore;
	}

	/** Holds before the second chunk. */
	static CopyHold afterFirstChunk() {
		return new CopyHold((lowerExclusive) -> lowerExclusive != null);
	}

	/** Holds before the first chunk that starts after a (single integer) key of at least {@code key}. */
	static CopyHold atKey(long key) {
		return new CopyHold(
				(lowerExclusive) -> lowerExclusive != null && ((Number) lowerExclusive[0]).longValue() >= key);
	}

	/** Never holds; for subclasses that only record chunks. */
	static CopyHold never() {
		return new CopyHold((lowerExclusive) -> false);
	}

	@Override
	public void beforeDispatch(Object[] lowerExclusive) {
		if (this.gate.unused() && this.holdBefore.test(lowerExclusive)) {
			this.gate.hold();
		}
	}

	/** Waits until the copier is held. */
	void awaitHeld(Duration timeout) throws InterruptedException {
		this.gate.awaitHeld(timeout);
	}

	/** Lets the copier go on, now and at any later hold. */
	void release() {
		this.gate.release();
	}

	/** Waits up to {@link Replication#WAIT} until the copier is held, runs {@code action}, and releases it. */
	void whileHeld(Action action) throws Exception {
		awaitHeld(Replication.WAIT);
		try {
			action.run();
		}
		finally {
			release();
		}
	}

	/** What a test does while the copy is held. */
	@FunctionalInterface
	interface Action {

		void run() throws Exception;

	}

}
