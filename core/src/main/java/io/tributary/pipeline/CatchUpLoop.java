package io.tributary.pipeline;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplyException;
import io.tributary.apply.ChangeOrigin;
import io.tributary.apply.ListenerApplier;
import io.tributary.apply.SinkApplier;
import io.tributary.apply.SinkRefusedException;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.copy.Copier;
import io.tributary.jdbc.PermanentFailure;
import io.tributary.source.Position;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.TableDetail;
import io.tributary.status.TableStatus.Phase;
import io.tributary.subscription.BufferedChange;
import io.tributary.subscription.BufferedSubscription;
import io.tributary.subscription.SubscriptionCounters;
import io.tributary.subscription.Drain;
import io.tributary.subscription.OrderedReplay;

/**
 * The catch-up loop: each cycle reads the delivered position, drains every active table's buffer
 * against its copier's watermarks, applies what it drained, puts back what failed, confirms
 * {@code min(delivered, oldest pending)} per table, moves tables to their next phase and writes
 * checkpoints after the data they cover. Runs on the pipeline's control thread only.
 */
final class CatchUpLoop {

	private static final Logger logger = LoggerFactory.getLogger(CatchUpLoop.class);

	private final PipelineRuntime runtime;

	private final ChecksumRuns checksums;

	private long lastCheckpointNanos;

	private long headReadNanos;

	CatchUpLoop(PipelineRuntime runtime, ChecksumRuns checksums) {
		this.runtime = runtime;
		this.checksums = checksums;
	}

	/** One full catch-up cycle: drain everything, apply, requeue, confirm. */
	void cycle() {
		cycle(false);
	}

	/**
	 * One catch-up cycle: drain, apply, requeue, confirm.
	 * @param early whether the cycle runs ahead of the interval because the reader is idle; keys
	 * written recently then stay buffered until the next full cycle
	 */
	void cycle(boolean early) {
		// Read before the delivered position: a table activated after this read may need changes
		// before that position, so it sits this cycle out.
		long activations = this.runtime.activations();
		// Read before any drain: every change added after this read has a resume position at or
		// after it, so min(delivered, oldest pending) never passes a change still held.
		boolean positioned = this.runtime.reader().isPositioned();
		Position delivered = this.runtime.reader().delivered();
		boolean phaseChanged = this.runtime.takeCheckpointRequest();
		for (TableRuntime table : this.runtime.tables()) {
			if (this.runtime.leadershipLost()) {
				// Another instance leads: apply nothing more and leave the checkpoints to it.
				return;
			}
			if (!table.isActive() || table.intake.activatedAfter(activations)) {
				continue;
			}
			Position handed = table.intake.delivered(delivered);
			if (handed == delivered) {
				table.intake.replayPassed();
			}
			Copier copier = table.wiring.copier();
			boolean copyDone = copier == null || copier.isDone();
			BufferedSubscription buffer = table.wiring.subscription();
			SubscriptionCounters pressure = buffer.counters();
			table.timeline.observeParks(pressure.parks(), pressure.parkedMillis(), System.nanoTime());
			Drain drain;
			Position oldestPending;
			table.flushLock.lock();
			try {
				drain = buffer.drain(table::watermarks, early);
				try {
					if (!drain.isEmpty()) {
						apply(table, drain, handed);
					}
				}
				finally {
					// Its changes count against the soft limit until here, what failed now as requeued.
					buffer.settle(drain);
				}
				if (!table.isActive()) {
					// Failed, paused or held while applying: its confirmed position stays where it was.
					continue;
				}
				// Under the lock, so a pause cannot empty the buffer between this read and the confirm.
				oldestPending = buffer.oldestPending();
				table.confirm(Position.min(handed, oldestPending));
			}
			finally {
				table.flushLock.unlock();
			}
			Pipeline.ConfirmObserver observer = this.runtime.observers.confirms();
			if (observer != null) {
				observer.confirmed(table.mapping.source(), handed, oldestPending, table.confirmed());
			}
			phaseChanged |= advancePhase(table, copyDone, drain.deferred(), positioned, handed);
			phaseChanged |= endIfCopied(table, handed);
		}
		refreshHead();
		this.runtime.cycleEnded(!early, positioned);
		saveCheckpoints(phaseChanged);
	}

	private void apply(TableRuntime table, Drain drain, Position delivered) {
		long started = System.nanoTime();
		// Queued changes (a key that is not memory-comparable) follow the merged ones in the binlog:
		// they are applied after them, run after run, one statement at a time.
		OrderedReplay inOrder = new OrderedReplay(drain.runs());
		boolean mergedApplied = false;
		Pipeline.ApplyObserver observer = this.runtime.observers.applies();
		if (observer != null) {
			observer.beforeApply(table.mapping.source(), drain.size());
		}
		try {
			List<Object[]> upserts = drain.upserts().stream().map(BufferedChange::image).toList();
			List<Object[]> deletes = drain.deletes().stream().map((entry) -> entry.key().values()).toList();
			SinkApplier sink = table.wiring.sink();
			if (sink != null) {
				sink.apply(upserts, drain.upserts().stream()
					.map((entry) -> new ChangeOrigin(entry.resumeFrom(), entry.sourceMillis()))
					.toList(), deletes, delivered);
			}
			else {
				Applier merged = (table.wiring.writer() != null) ? table.wiring.writer() : table.wiring.applier();
				merged.apply(upserts, deletes, delivered);
			}
			mergedApplied = true;
			inOrder.applyTo(table.wiring.applier());
			table.recordFlush(drain.size(), started);
		}
		catch (ApplyException ex) {
			if (!mergedApplied) {
				List<BufferedChange> failed = new ArrayList<>(drain.deletes());
				failed.addAll(drain.upserts());
				table.wiring.subscription().requeue(failed);
			}
			table.wiring.subscription().requeueAtFront(inOrder.remaining());
			int applied = (mergedApplied ? drain.mergedSize() : 0) + inOrder.applied();
			boolean sameEachTime = table.recordFailedFlush(applied, started, ex);
			PermanentFailure permanent = (table.wiring.writer() != null) ? PermanentFailure.of(ex) : null;
			if (permanent != null || ex instanceof SinkRefusedException) {
				// Retrying cannot help; the other tables go on, and this one keeps its checkpoint.
				table.fail(ex.getMessage() + ((permanent != null) ? ". " + permanent.advice() : ""));
				logger.error("Table {} stopped: {}", table.mapping.source(), table.lastError());
			}
			else if (this.runtime.leadershipLost()) {
				logger.debug("Flush of {} refused: {}", table.mapping.source(), ex.getMessage());
			}
			else if (ex instanceof ListenerApplier.Paused) {
				// The failure itself was logged when the listener threw; do not repeat it every cycle.
				logger.debug("Flush of {} waits: {}", table.mapping.source(), ex.getMessage());
			}
			else if (table.wiring.writer() != null && sameEachTime) {
				table.fail("Every flush failed with the same error " + table.sameFailures() + " times in a row "
						+ "over " + FailureStreak.SPAN.toSeconds() + " s or more, so retrying does not cure it: "
						+ ex.getMessage() + ". Fix the cause on the target, then restart the table");
				logger.error("Table {} stopped: {}", table.mapping.source(), table.lastError());
			}
			else {
				logger.warn("Flush of {} failed, will retry: {}", table.mapping.source(), ex.getMessage());
			}
		}
	}

	private boolean advancePhase(TableRuntime table, boolean copyDone, int deferred, boolean positioned,
			Position delivered) {
		Copier copier = table.wiring.copier();
		if (table.phase() == Phase.SNAPSHOTTING && copyDone && copier != null && copier.isDone()) {
			Position head;
			try {
				head = SourceQueries.headFileOffset(this.runtime.source);
			}
			catch (SQLException ex) {
				head = delivered;
			}
			table.copyFinished(head);
			logger.info("Table {} snapshot done ({} rows); catching up to {}", table.mapping.source(),
					copier.rowsCopied(), head);
			if (this.runtime.settings.checksum().enabled() && !table.mapping.hasSink()) {
				this.checksums.start(table);
			}
			return true;
		}
		// Caught up once the reader has passed the head seen when catching up began and no change
		// waits on the copy; changes arriving meanwhile are ordinary streaming.
		if (table.phase() == Phase.CATCHING_UP && deferred == 0 && positioned
				&& delivered.compareTo(table.catchUpTarget()) >= 0) {
			table.enter(Phase.STREAMING);
			logger.info((table.mapping.snapshot() == SnapshotMode.ONLY)
					? "Table {} is copied and caught up; it ends once its checksum is done (snapshot only)"
					: "Table {} is streaming", table.mapping.source());
			return true;
		}
		return false;
	}

	/**
	 * Stops a table copied once (snapshot mode only), caught up and checksummed, at the next
	 * transaction boundary once everything before it is applied: its checkpoint says so first, so
	 * that a restart finds it ended, then it is {@code COPIED}.
	 */
	private boolean endIfCopied(TableRuntime table, Position handed) {
		if (table.mapping.snapshot() != SnapshotMode.ONLY || table.phase() != Phase.STREAMING) {
			return false;
		}
		if (table.checksums.running()) {
			// The checksum after the copy compares a table that still streams; it ends after it.
			return false;
		}
		table.intake.endSoon();
		Position end = table.intake.endBy(handed);
		if (end == null || !end.equals(table.confirmed())) {
			return false;
		}
		try {
			this.runtime.checkpoints.save(List.of(new TableCheckpoint(table.mapping.source(),
					table.mapping.destination(), true, end, null, Instant.now(), true)));
		}
		catch (RuntimeException ex) {
			this.runtime.checkpointFailed(ex.getMessage());
			logger.warn("Checkpoint write of {} at its end failed, will retry: {}", table.mapping.source(),
					ex.getMessage());
			return false;
		}
		table.flushLock.lock();
		try {
			table.copied(end, "copied once (snapshot only); its target equals the source table at " + end);
		}
		finally {
			table.flushLock.unlock();
		}
		this.runtime.reader().unsubscribe(table.mapping.source());
		logger.info("Table {} is copied and stops at {} (snapshot only)", table.mapping.source(), end);
		return true;
	}

	private void refreshHead() {
		long now = System.nanoTime();
		if (now - this.headReadNanos < 1_000_000_000L) {
			return;
		}
		this.headReadNanos = now;
		try {
			this.runtime.headRead(SourceQueries.headFileOffset(this.runtime.source));
		}
		catch (SQLException ex) {
			logger.debug("Cannot read the source head for lag", ex);
		}
	}

	/**
	 * Writes the tables' checkpoints when the checkpoint interval has passed, or at once when
	 * {@code force}. A failed table keeps the checkpoint it had, so a restart reads its changes again.
	 */
	void saveCheckpoints(boolean force) {
		if (this.runtime.leadershipLost()) {
			return;
		}
		long now = System.nanoTime();
		if (!force && now - this.lastCheckpointNanos < this.runtime.settings.checkpointInterval().toNanos()) {
			return;
		}
		List<TableCheckpoint> rows = new ArrayList<>();
		List<TableRuntime> saved = new ArrayList<>();
		Instant at = Instant.now();
		for (TableRuntime table : this.runtime.tables()) {
			Position confirmed = table.confirmed();
			if (confirmed != null && !table.phase().isStopped() && !table.intake.isHeld()) {
				Copier copier = table.wiring.copier();
				boolean snapshotDone = table.snapshotDone();
				Object[] copiedUpTo = (!snapshotDone && copier != null) ? copier.copiedUpTo() : null;
				rows.add(new TableCheckpoint(table.mapping.source(), table.mapping.destination(), snapshotDone, confirmed,
						copiedUpTo, at));
				saved.add(table);
			}
		}
		try {
			this.runtime.checkpoints.save(rows);
			this.lastCheckpointNanos = now;
			for (int i = 0; i < rows.size(); i++) {
				TableCheckpoint row = rows.get(i);
				saved.get(i).checkpointSaved(new TableDetail.Checkpoint(row.position().toString(),
						row.snapshotDone(), at));
			}
			if (!rows.isEmpty()) {
				this.runtime.checkpointWritten();
			}
		}
		catch (RuntimeException ex) {
			this.runtime.checkpointFailed(ex.getMessage());
			logger.warn("Checkpoint write failed, will retry: {}", ex.getMessage());
		}
	}

}
