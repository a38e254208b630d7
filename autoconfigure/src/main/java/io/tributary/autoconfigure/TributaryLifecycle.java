package io.tributary.autoconfigure;

import org.springframework.context.SmartLifecycle;

import io.tributary.pipeline.Pipeline;

/**
 * Starts the pipeline once the application context is refreshed and stops it gracefully, with a
 * final flush and checkpoint, when the context closes.
 */
public final class TributaryLifecycle implements SmartLifecycle {

	private final Pipeline pipeline;

	private volatile boolean running;

	public TributaryLifecycle(Pipeline pipeline) {
		this.pipeline = pipeline;
	}

	@Override
	public void start() {
		this.pipeline.start();
		this.running = true;
	}

	@Override
	public void stop() {
		this.pipeline.close();
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
