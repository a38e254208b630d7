package io.tributary.pipeline;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.checkpoint.CheckpointStore;
import io.tributary.ha.LeaderTerm;
import io.tributary.ha.TargetFence;
import io.tributary.source.Position;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.source.binlog.ServerInfo;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.subscription.BufferedSubscription;

/**
 * One run of replication, from preparing the tables to stopping: the whole life of a pipeline
 * without HA, or one term of leadership of a pipeline with HA. Its parts are built fresh for each
 * run, so nothing of a lost term (buffers, reader, positions) carries into the next; the next term
 * starts from the checkpoints as the previous leader left them.
 */
final class ReplicationRun {

	private static final Logger logger = LoggerFactory.getLogger(ReplicationRun.class);

	/** How a run ended. */
	enum End {

		/** Stopped on request, after a final flush and checkpoint. */
		STOPPED,

		/** Failed; the pipeline's last error says why. */
		FAILED,

		/** Its term of leadership was lost: it stopped applying at once and wrote nothing more. */
		LOST

	}

	final PipelineRuntime runtime;

	final Startup startup;

	final CatchUpLoop loop;

	final SnapshotQueue snapshots;

	final ChecksumRuns checksums;

	final FlushApi flushes;

	final TableControl control;

	private final TableArrivals arrivals = new TableArrivals();

	ReplicationRun(PipelineSettings settings, DataSource source, DataSource target, CheckpointStore checkpoints,
			TargetFence fence) {
		this.runtime = new PipelineRuntime(settings, source, target, checkpoints, fence);
		this.runtime.readWith(new BinlogChangeSource(settings.source(), settings.settingNames(),
				new SourceEvents(this.runtime, this.arrivals)));
		TableSetup tableSetup = new TableSetup(this.runtime);
		this.startup = new Startup(this.runtime, tableSetup, this.arrivals);
		this.checksums = new ChecksumRuns(this.runtime);
		this.loop = new CatchUpLoop(this.runtime, this.checksums);
		this.snapshots = new SnapshotQueue(this.runtime);
		this.flushes = new FlushApi(this.runtime);
		this.control = new TableControl(this.runtime, tableSetup, this.snapshots);
	}

	/** Prepares, streams until asked to stop or until the term is lost, and stops. */
	End run() {
		PipelineRuntime run = this.runtime;
		try {
			Position from = this.startup.prepareWithRetry();
			if (run.leadershipLost()) {
				return abandon();
			}
			if (from == null) {
				run.moveTo(PipelineStatus.State.STOPPED);
				stopThreadsNow();
				return End.STOPPED;
			}
			run.reader().start(from);
			run.tables().stream().filter((t) -> t.phase() == Phase.SNAPSHOTTING && t.wiring.copier() != null)
				.forEach(this.snapshots::submit);
			run.moveTo(PipelineStatus.State.RUNNING);
			long interval = run.settings.flushInterval().toNanos();
			long nextFull = System.nanoTime();
			boolean asked = true;
			while (!run.stopRequested() && !run.leadershipLost()) {
				// A cycle at the interval or on request takes everything; one because the reader is
				// idle leaves keys changed again since they were written for the next full one.
				boolean full = asked || System.nanoTime() - nextFull >= 0;
				this.loop.cycle(!full);
				this.control.addAppeared(this.arrivals);
				if (full) {
					nextFull = System.nanoTime() + interval;
				}
				asked = run.awaitSignal(Duration.ofNanos(Math.max(0, nextFull - System.nanoTime())));
			}
			if (run.leadershipLost()) {
				return abandon();
			}
			this.snapshots.stop();
			this.checksums.stop();
			// A reader waiting for buffer room keeps its change and ends; nothing is dropped.
			run.tables().stream().map((t) -> t.wiring.subscription()).filter((b) -> b != null)
				.forEach(BufferedSubscription::close);
			run.reader().close();
			this.loop.cycle();
			this.loop.saveCheckpoints(true);
			run.applyWorkers.close();
			run.moveTo(PipelineStatus.State.STOPPED);
			Position confirmed = run.confirmed();
			if (confirmed != null) {
				logger.info("Pipeline {} stopped at {}", run.settings.name(), confirmed);
			}
			else {
				// Every table failed, or none had reached a position yet.
				logger.info("Pipeline {} stopped; no table holds a position to resume from", run.settings.name());
			}
			return End.STOPPED;
		}
		catch (RuntimeException ex) {
			if (run.leadershipLost()) {
				return abandon();
			}
			run.fail(ex.getMessage());
			logger.error("Pipeline {} failed", run.settings.name(), ex);
			stopThreadsNow();
			run.reader().close();
			return End.FAILED;
		}
	}

	/**
	 * Stops everything at once after the term was lost: no flush, no checkpoint (the fence would
	 * refuse them anyway), buffers dropped, reader closed. What the run had not checkpointed, the
	 * instance that leads now reads again from the checkpoints.
	 */
	private End abandon() {
		PipelineRuntime run = this.runtime;
		run.requestStop();
		this.snapshots.stopNow();
		this.checksums.stopNow();
		run.applyWorkers.closeNow();
		for (TableRuntime table : run.tables()) {
			BufferedSubscription buffer = table.wiring.subscription();
			if (buffer != null) {
				buffer.close();
				buffer.clear();
			}
		}
		run.reader().close();
		String epoch = (run.fence instanceof LeaderTerm term) ? " at epoch " + term.epoch() : "";
		run.standby("Leadership lost" + epoch + ": " + run.fence.lossReason() + "; standby again");
		logger.warn("Pipeline {} stopped applying and dropped its buffers. {}", run.settings.name(), run.lastError());
		return End.LOST;
	}

	private void stopThreadsNow() {
		this.snapshots.stopNow();
		this.checksums.stopNow();
		this.runtime.applyWorkers.close();
	}

	/** Returns a snapshot of the run's state. */
	PipelineStatus status(PipelineStatus.Leadership leadership, Instant startedAt, String lastError) {
		PipelineRuntime run = this.runtime;
		BinlogChangeSource reader = run.reader();
		Position delivered = reader.delivered();
		List<TableStatus> tableStatus = run.tables().stream()
			.map((table) -> TableReport.status(table, delivered, reader.rowEvents(table.mapping.source())))
			.toList();
		Position confirmed = run.confirmed();
		Position head = knownHead(run.sourceHead(), delivered);
		// Behind only while the reader has not reached the head last seen; an idle source sends
		// heartbeats, not events, so the newest event's age alone would read as growing lag.
		long lastEvent = reader.lastEventTimestamp();
		boolean behind = head != null && delivered != null && reader.isPositioned() && delivered.compareTo(head) < 0;
		long lag = (behind && lastEvent > 0) ? Math.max(0, System.currentTimeMillis() - lastEvent) : 0;
		ServerInfo info = run.server();
		PipelineSettings settings = run.settings;
		// Until it is prepared the pipeline has no reader; its failed attempts to prepare stand for one.
		Instant disconnectedSince = (run.state() == PipelineStatus.State.STARTING) ? run.preparingFailedSince()
				: reader.disconnectedSince();
		return new PipelineStatus(settings.name(), run.state(),
				new PipelineStatus.Source(settings.source().host(), settings.source().port(),
						settings.source().serverId(), (info != null) ? info.flavor().name() : null,
						(info != null) ? info.version() : null, (info != null) ? info.gtidMode() : null,
						reader.isConnected(), disconnectedSince, reader.reconnects(), reader.eventsRead(),
						reader.lastError()),
				new PipelineStatus.Positions((delivered != null) ? delivered.toString() : null,
						(confirmed != null) ? confirmed.toString() : null, (head != null) ? head.toString() : null),
				lag, lagBytes(confirmed, head), tableStatus, (startedAt != null) ? startedAt : run.startedAt(),
				(lastError != null) ? lastError : run.lastError(), reader.positionsByGtid(),
				new PipelineStatus.Counters(reader.transactions(), reader.decodeErrors(), reader.schemaMismatches(),
						run.checkpointWrites(), run.checkpointFailures()),
				leadership, new PipelineStatus.Buffers(run.bufferBudget.limitBytes(), run.bufferBudget.heldBytes(),
						run.bufferBudget.parks(), run.bufferBudget.parkedMillis()));
	}

	/**
	 * Returns the source's head as far as it is known: the one read about once a second, or what
	 * the reader has been delivered since in the same file, which the source had written before it
	 * sent it. Without this a busy source's head would read as behind the delivered position.
	 */
	static Position knownHead(Position sampled, Position delivered) {
		if (sampled == null || delivered == null || !delivered.file().equals(sampled.file())
				|| delivered.offset() <= sampled.offset()) {
			return sampled;
		}
		return Position.of(delivered.file(), delivered.offset());
	}

	/**
	 * Returns the binlog bytes between a position and the head when both are in the same file,
	 * 0 when the position is at or past the head, and {@code null} when they are in different files.
	 */
	static Long lagBytes(Position position, Position head) {
		if (position == null || head == null) {
			return null;
		}
		if (position.compareTo(head) >= 0) {
			return 0L;
		}
		return position.file().equals(head.file()) ? head.offset() - position.offset() : null;
	}

}
