package io.tributary.autoconfigure;

import java.time.Duration;

import org.springframework.context.SmartLifecycle;

import io.tributary.pipeline.Pipeline;

/**
 * Starts the pipeline once the application context is refreshed and stops it gracefully, with a
 * final flush and checkpoint, when the context closes.
 *
 * <p>Its phase, {@link #PHASE}, is above the web server's graceful shutdown
 * ({@code DEFAULT_PHASE - 1024}) and its start-stop phase ({@code DEFAULT_PHASE - 2048}): the
 * pipeline starts after the web server, so its endpoint answers from the first moment, and stops
 * before the server drains its requests. The stop fits in
 * {@code spring.lifecycle.timeout-per-shutdown-phase}.
 */
public final class TributaryLifecycle implements SmartLifecycle {

	/** The lifecycle phase of the pipeline. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private final Pipeline pipeline;

	private final Duration stopTimeout;

	private volatile boolean running;

	/**
	 * Creates the lifecycle of a pipeline.
	 * @param pipeline the pipeline
	 * @param stopTimeout how long a stop may take: the shutdown phase's timeout
	 */
	public TributaryLifecycle(Pipeline pipeline, Duration stopTimeout) {
		this.pipeline = pipeline;
		this.stopTimeout = stopTimeout;
	}

	@Override
	public void start() {
		this.pipeline.start();
		this.running = true;
	}

	@Override
	public void stop() {
		// A little short of the phase's timeout, so the context does not give up on the stop first.
		long millis = this.stopTimeout.toMillis();
		this.pipeline.close(Duration.ofMillis(Math.max(1_000, millis - Math.min(2_000, millis / 10))));
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
