package io.tributary.pipeline;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stops one pipeline thread, once, until the test lets it go: the thing tests use to stall a copy
 * or an apply at a chosen moment. The held thread waits at most two minutes, so a failed test never
 * leaves it stuck.
 */
final class Gate {

	private final String what;

	private final CountDownLatch held = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	/** @param what what is held, for the failure message */
	Gate(String what) {
		this.what = what;
	}

	/** Returns whether no thread has been held yet. */
	boolean unused() {
		return this.held.getCount() > 0;
	}

	/** Holds the calling thread until {@link #release()}. */
	void hold() {
		this.held.countDown();
		try {
			this.release.await(2, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Waits until a thread is held. */
	void awaitHeld(Duration timeout) throws InterruptedException {
		assertThat(this.held.await(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("%s held within %s", this.what,
				timeout).isTrue();
	}

	/** Lets the held thread go on, and any later one through at once. */
	void release() {
		this.release.countDown();
	}

}
