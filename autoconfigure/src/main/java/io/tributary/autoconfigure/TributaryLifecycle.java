package io.tributary.autoconfigure;

import java.time.Duration;

import org.springframework.context.SmartLifecycle;

import io.tributary.pipeline.Pipeline;

/**
 * Starts a pipeline once the application context is refreshed and stops it gracefully, with a
 * final flush and checkpoint, when the context closes. Each pipeline has one; their stops run at
 * the same time, so several pipelines stop within one shutdown phase.
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
	 * Creates the lifecycle of a pipeline; {@code spring.lifecycle.timeout-per-shutdown-phase} is
	 * what a Spring Boot application gives as {@code stopTimeout}.
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

	/** Stops on a thread of its own, so the pipelines of one application stop side by side. */
	@Override
	public void stop(Runnable callback) {
		Thread stopping = new Thread(() -> {
			try {
				stop();
			}
			finally {
				callback.run();
			}
		}, "tributary-stop-" + this.pipeline.name());
		stopping.start();
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
