package io.tributary.test;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples the live heap: collects garbage and reads the heap still in use, again and again on a
 * thread of its own, and keeps the largest reading above the one taken at creation. A reading
 * right after a full collection counts what is kept, not garbage awaiting collection, so the peak
 * is what the code under measurement held at most.
 *
 * <pre>{@code
 * try (LiveHeapSampler heap = new LiveHeapSampler(Duration.ofMillis(10))) {
 *     // run the pipeline through its backlog
 *     assertThat(heap.peakAboveBaseline()).isLessThan(limit + 64 * MB);
 * }
 * }</pre>
 *
 * <p>Each reading is a full collection that stops every other thread for a moment, so the interval
 * between readings trades the chance of seeing a short peak against slowing what is measured. The
 * heap is the whole JVM's: a measurement means most when nothing else runs in that JVM.
 */
public final class LiveHeapSampler implements AutoCloseable {

	private final AtomicLong peak = new AtomicLong();

	private final AtomicLong samples = new AtomicLong();

	private final long baseline;

	private final Thread sampler;

	private volatile boolean stopped;

	/**
	 * Reads the baseline, then starts sampling.
	 *
	 * @param interval the pause between the end of one reading and the start of the next
	 * @throws IllegalArgumentException if {@code interval} is not positive
	 */
	public LiveHeapSampler(Duration interval) {
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("Sampling interval must be positive, was " + interval);
		}
		long pauseNanos = interval.toNanos();
		this.baseline = live();
		this.sampler = new Thread(() -> {
			while (!this.stopped) {
				this.peak.accumulateAndGet(live(), Math::max);
				this.samples.incrementAndGet();
				LockSupport.parkNanos(pauseNanos);
			}
		}, "live-heap-sampler");
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	private static long live() {
		System.gc();
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	/** Bytes of heap in use at creation, after a full collection. */
	public long baseline() {
		return this.baseline;
	}

	/** Bytes of the largest reading so far above the baseline; zero before the first reading. */
	public long peakAboveBaseline() {
		return Math.max(0, this.peak.get() - this.baseline);
	}

	/** Readings taken so far. */
	public long samples() {
		return this.samples.get();
	}

	/** Stops sampling and returns once the sampler thread has ended; the figures stay readable. */
	public void stop() throws InterruptedException {
		this.stopped = true;
		this.sampler.join();
	}

	/** Same as {@link #stop()}. */
	@Override
	public void close() throws InterruptedException {
		stop();
	}
}
