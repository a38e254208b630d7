package io.tributary.pipeline;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.TargetSlice;
import io.tributary.apply.TargetTables;
import io.tributary.checksum.ChecksumProgress;
import io.tributary.checksum.TableChecksum;
import io.tributary.copy.KeyRange;
import io.tributary.copy.RangeCopy;
import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;
import io.tributary.source.Position;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableEvent;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

/**
 * Runs checksum passes one at a time on a thread of their own, off the control thread: after each
 * snapshot when enabled, and on request. A pass re-checks a differing chunk only once the table
 * has applied every change up to a source head read after the difference was seen, and repairs
 * under the table's flush lock so no drained change is written between the read and the write.
 */
final class ChecksumRuns {

	private static final Logger logger = LoggerFactory.getLogger(ChecksumRuns.class);

	private final PipelineRuntime runtime;

	private final TaskThread thread;

	ChecksumRuns(PipelineRuntime runtime) {
		this.runtime = runtime;
		this.thread = new TaskThread("tributary-checksum-" + runtime.settings.name());
	}

	/** See {@link Pipeline#checksum(TableId)}. */
	CompletableFuture<TableStatus.Checksum> request(TableId id) {
		TableRuntime table = this.runtime.requireTable(id);
		if (table.mapping.hasSink()) {
			throw new IllegalStateException("Table " + id + " has no target table to compare with: its changes "
					+ "go to " + table.mapping.destination().describe());
		}
		if (this.runtime.state() != PipelineStatus.State.RUNNING || !table.isActive() || !table.snapshotDone()) {
			throw new IllegalStateException("Table " + id + " cannot be compared now: the pipeline is "
					+ this.runtime.state() + " and the table " + table.phase() + "; a checksum needs a running pipeline "
					+ "and a table that is catching up or streaming");
		}
		return start(table);
	}

	/**
	 * Queues a pass for the table, or returns the one already queued. A pass already comparing
	 * began before this call and may have read chunks as they were before it, so another pass is
	 * queued to follow it; the status keeps showing the running pass until the next one starts.
	 */
	synchronized CompletableFuture<TableStatus.Checksum> start(TableRuntime table) {
		CompletableFuture<TableStatus.Checksum> queued = table.checksums.queued();
		if (queued != null) {
			return queued;
		}
		ChecksumProgress progress = new ChecksumProgress();
		CompletableFuture<TableStatus.Checksum> done = new CompletableFuture<>();
		table.checksums.queue(progress, done);
		if (!this.thread.submit(() -> run(table, progress, done))) {
			table.checksums.started(null);
			progress.fail("The pipeline is stopping");
			done.completeExceptionally(new IllegalStateException("The pipeline is stopping"));
		}
		return done;
	}

	/** Marks a queued pass as started: a request from now on queues the next one. */
	private synchronized void begin(TableRuntime table, ChecksumProgress progress) {
		table.checksums.started(progress);
	}

	private void run(TableRuntime table, ChecksumProgress progress, CompletableFuture<TableStatus.Checksum> done) {
		begin(table, progress);
		try {
			TableLayout layout = table.wiring.layout();
			TargetSlice slice = table.mapping.slice();
			TableChecksum pass = new TableChecksum(this.runtime.source, this.runtime.target, layout,
					table.mapping.target(), (slice != null) ? slice.predicate() : null,
					comparedTypes(layout, table.mapping.target()),
					this.runtime.settings.checksum(), (head) -> awaitApplied(table, head),
					(range) -> recopy(table, range), progress, this.runtime.settings.settingNames());
			// A table copied again meanwhile is compared by the pass that follows its new snapshot.
			pass.run(() -> this.runtime.stopRequested() || !table.isActive() || table.phase() == Phase.SNAPSHOTTING);
			TableStatus.Checksum result = progress.snapshot();
			table.timeline.add(TableEvent.Kind.CHECKSUM, describe(result), null);
			done.complete(result);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			progress.fail("Interrupted");
			done.completeExceptionally(ex);
		}
		catch (SQLException | RuntimeException ex) {
			progress.fail(ex.getMessage());
			table.timeline.add(TableEvent.Kind.CHECKSUM, "The checksum failed: " + ex.getMessage(), null);
			logger.warn("Checksum of {} failed: {}", table.mapping.source(), ex.getMessage());
			done.completeExceptionally(ex);
		}
	}

	/** Says what a pass found, in a sentence for the table's timeline. */
	static String describe(TableStatus.Checksum result) {
		if (result.state() != TableStatus.Checksum.State.DONE) {
			return "The checksum stopped early after " + result.chunksChecked() + " chunks"
					+ ((result.lastError() != null) ? ": " + result.lastError() : "");
		}
		long differing = result.chunksRecheckedStillDiffering();
		String verdict = (differing == 0) ? "source and target are equal"
				: differing + " chunks differed, " + result.chunksRepaired() + " of them repaired";
		return "The checksum compared " + result.rowsChecked() + " rows in " + result.chunksChecked() + " chunks: "
				+ verdict;
	}

	/**
	 * Returns the target's column types of the leading source columns it has by name, in order; only
	 * those are compared.
	 */
	private List<String> comparedTypes(TableLayout layout, TableId targetTable) throws SQLException {
		List<String[]> targetColumns = TargetTables.columns(this.runtime.target, targetTable);
		List<String> types = new ArrayList<>();
		int shared = Math.min(layout.columns().size(), targetColumns.size());
		for (int i = 0; i < shared && targetColumns.get(i)[0].equalsIgnoreCase(layout.columns().get(i).name()); i++) {
			types.add(targetColumns.get(i)[1]);
		}
		return types;
	}

	/**
	 * Waits until a table has applied every change up to {@code head}: its confirmed position is at
	 * or past it. A cycle sets that position from the delivered position it read before draining, so
	 * reaching a head read earlier means every change up to it was drained and applied. Wakes the
	 * loop once, so the wait lasts about one cycle rather than a flush interval.
	 */
	private void awaitApplied(TableRuntime table, Position head) throws InterruptedException {
		this.runtime.wake();
		while (true) {
			if (this.runtime.stopRequested() || this.runtime.state() != PipelineStatus.State.RUNNING) {
				throw new IllegalStateException("The pipeline is " + this.runtime.state());
			}
			if (!table.isActive()) {
				throw new IllegalStateException("Table " + table.mapping.source() + " is " + table.phase());
			}
			Position confirmed = table.confirmed();
			if (this.runtime.positionedCycles() > 0 && confirmed != null && confirmed.compareTo(head) >= 0) {
				return;
			}
			Thread.sleep(10);
		}
	}

	/**
	 * Recopies a key range of a table while its changes are held back: with the flush lock held no
	 * drained change can be written between the locking read and the write, so the recopy cannot put
	 * an older row over a newer one. Changes that arrive meanwhile stay buffered and are applied
	 * after it, newest last.
	 */
	private void recopy(TableRuntime table, KeyRange range) throws SQLException {
		table.flushLock.lock();
		try {
			JdbcReplaceApplier applier = table.wiring.statements();
			if (applier == null) {
				throw new IllegalStateException("Table " + table.mapping.source() + " has no target table to repair");
			}
			new RangeCopy(this.runtime.source, table.wiring.layout(), applier, applier::keysIn).copy(range);
		}
		finally {
			table.flushLock.unlock();
		}
	}

	/** Lets the pass in progress end between chunks, then stops the thread. */
	void stop() {
		this.thread.stop(Math.min(30_000, this.runtime.stopWaitMillis()));
	}

	/** Stops the thread without waiting, after a failure. */
	void stopNow() {
		this.thread.stopNow();
	}

}
