package io.tributary.pipeline;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.tributary.source.TableId;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds a pipeline's control thread with a drained batch in hand, just before it applies it, once
 * {@link #arm() armed}, until the test releases it: a leader stalled with a batch in flight. The
 * thread waits at most two minutes.
 */
class ApplyHold implements Pipeline.ApplyObserver {

	private final CountDownLatch held = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private volatile boolean armed;

	/** Holds the next batch applied. */
	void arm() {
		this.armed = true;
	}

	@Override
	public void beforeApply(TableId table, int changes) {
		if (this.armed && this.held.getCount() > 0) {
			this.held.countDown();
			try {
				this.release.await(2, TimeUnit.MINUTES);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Waits until a batch is held. */
	void awaitHeld(Duration timeout) throws InterruptedException {
		assertThat(this.held.await(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("apply held within %s", timeout)
			.isTrue();
	}

	/** Lets the held batch be applied. */
	void release() {
		this.release.countDown();
	}

}
