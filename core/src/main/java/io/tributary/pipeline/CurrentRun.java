package io.tributary.pipeline;

import java.time.Instant;

import javax.sql.DataSource;

import io.tributary.checkpoint.CheckpointStore;
import io.tributary.copy.Copier;
import io.tributary.ha.TargetFence;

/**
 * The run a pipeline's calls go to, and the maker of the runs that follow it. Every run it makes
 * gets the observers set on the pipeline and its start time, so a new term of leadership is
 * observed and reported like the first; a run published while the pipeline stops is told to stop.
 */
final class CurrentRun {

	private final PipelineSettings settings;

	private final DataSource source;

	private final DataSource target;

	private final CheckpointStore checkpoints;

	/** The run replicating, or the idle one of a standby. */
	private volatile ReplicationRun run;

	private volatile Copier.ChunkObserver chunkObserver;

	private volatile Pipeline.ConfirmObserver confirmObserver;

	private volatile Pipeline.ApplyObserver applyObserver;

	private volatile boolean stopping;

	private volatile Instant startedAt;

	CurrentRun(PipelineSettings settings, DataSource source, DataSource target, CheckpointStore checkpoints) {
		this.settings = settings;
		this.source = source;
		this.target = target;
		this.checkpoints = checkpoints;
		this.run = newRun(TargetFence.NONE);
	}

	void observeChunks(Copier.ChunkObserver observer) {
		this.chunkObserver = observer;
		this.run.runtime.observers.observeChunks(observer);
	}

	void observeConfirms(Pipeline.ConfirmObserver observer) {
		this.confirmObserver = observer;
		this.run.runtime.observers.observeConfirms(observer);
	}

	void observeApplies(Pipeline.ApplyObserver observer) {
		this.applyObserver = observer;
		this.run.runtime.observers.observeApplies(observer);
	}

	/** Builds the parts of a run whose writes prove {@code fence}. */
	ReplicationRun newRun(TargetFence fence) {
		ReplicationRun next = new ReplicationRun(this.settings, this.source, this.target, this.checkpoints, fence);
		next.runtime.observers.observeChunks(this.chunkObserver);
		next.runtime.observers.observeConfirms(this.confirmObserver);
		next.runtime.observers.observeApplies(this.applyObserver);
		next.runtime.startedAt(this.startedAt);
		return next;
	}

	/** Makes {@code next} the one the pipeline's calls go to; a run published during a stop stops. */
	void publish(ReplicationRun next) {
		this.run = next;
		if (this.stopping) {
			next.runtime.requestStop();
		}
	}

	ReplicationRun get() {
		return this.run;
	}

	/** Notes when the pipeline started, in the current run and every later one; returns the current run. */
	ReplicationRun startAt(Instant at) {
		this.startedAt = at;
		ReplicationRun current = this.run;
		current.runtime.startedAt(at);
		return current;
	}

	Instant startedAt() {
		return this.startedAt;
	}

	/** Marks the pipeline stopping: runs published from now on are told to stop. */
	void stop() {
		this.stopping = true;
	}

	boolean stopping() {
		return this.stopping;
	}

}
