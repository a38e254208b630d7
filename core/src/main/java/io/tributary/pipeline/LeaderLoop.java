package io.tributary.pipeline;

import io.tributary.ha.LeaderTerm;
import io.tributary.ha.Leadership;
import io.tributary.ha.TargetFence;
import io.tributary.status.PipelineStatus;

/**
 * The control thread of a pipeline with HA: waits as a standby until this instance leads, runs the
 * pipeline for that term, and goes back to standby when the term is lost, to compete again. A
 * run that stops or fails gives the leadership up, so another instance takes over at once.
 *
 * <p>Nothing is read or written while standby: the binlog is not read, nothing is snapshotted, and
 * the checkpoints are loaded only once leading, so a new leader resumes where the last one's
 * committed checkpoints are.
 */
final class LeaderLoop {

	private final CurrentRun runs;

	private final Leadership leadership;

	LeaderLoop(CurrentRun runs, Leadership leadership) {
		this.runs = runs;
		this.leadership = leadership;
	}

	/** Describes who leads, as this instance sees it while {@code run} is its current run. */
	static PipelineStatus.Leadership describe(Leadership leadership, ReplicationRun run) {
		if (run.runtime.fence instanceof LeaderTerm term && !term.lost()) {
			return new PipelineStatus.Leadership(leadership.instance(), true, term.epoch(), leadership.instance());
		}
		return new PipelineStatus.Leadership(leadership.instance(), false, leadership.epochSeen(),
				leadership.leaderSeen());
	}

	void run() {
		String lastLoss = null;
		while (!this.runs.stopping()) {
			ReplicationRun standby = this.runs.newRun(TargetFence.NONE);
			standby.runtime.standby(lastLoss);
			this.runs.publish(standby);
			if (lastLoss != null) {
				this.leadership.standBack();
			}
			LeaderTerm term = this.leadership.acquire(this.runs::stopping);
			if (term == null) {
				break;
			}
			ReplicationRun run = this.runs.newRun(term);
			run.runtime.moveTo(PipelineStatus.State.STARTING);
			this.runs.publish(run);
			term.onLoss(run.runtime::wake);
			if (run.run() != ReplicationRun.End.LOST) {
				// Stopped or failed: another instance may take over at once.
				term.close();
				return;
			}
			lastLoss = run.runtime.lastError();
		}
		this.runs.get().runtime.moveTo(PipelineStatus.State.STOPPED);
	}

}
