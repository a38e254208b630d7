package io.tributary.pipeline;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.checkpoint.CheckpointStore;
import io.tributary.checkpoint.JdbcCheckpointStore;
import io.tributary.copy.Copier;
import io.tributary.ha.Leadership;
import io.tributary.name.TableId;
import io.tributary.source.Position;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableDetail;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

/**
 * Replicates the configured tables of one source server into a target.
 *
 * <p>On start it reads each table's layout, prepares its target table and loads the checkpoints.
 * Tables with a finished snapshot resume from their checkpoint; the others are snapshotted while
 * the binlog streams. The binlog is read from the oldest checkpoint of a resuming table, or from
 * the head captured before any snapshot starts when none resumes.
 *
 * <p>A catch-up loop runs every flush interval: it reads the delivered position, drains each
 * table's buffer against its copier's watermarks, applies what it drained, puts back what failed,
 * and confirms {@code min(delivered, oldest pending)} per table. Checkpoints are written after
 * the data they cover.
 *
 * <p>In listener mode ({@link PipelineSettings#withListener}) the changes go to a
 * {@link io.tributary.apply.ChangeListener} instead: no target table is created or checked, each
 * drain of a table is one call of the listener, snapshot chunks the listener refuses are
 * delivered again until it accepts them, and the target pool holds only the checkpoint table.
 *
 * <p>With HA ({@link PipelineSettings#withHa}) several instances with the same settings run the
 * pipeline and one leads: the others are {@link PipelineStatus.State#STANDBY} and read nothing until
 * they lead (see {@link io.tributary.ha}). A leader that loses its leadership stops applying at once,
 * drops its buffers and becomes a standby again; every target write of its term is refused from then
 * on.
 */
public final class Pipeline implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(Pipeline.class);

	private final PipelineSettings settings;

	/** Competes with the other instances of this pipeline; {@code null} without HA. */
	private Leadership leadership;

	private final CurrentRun runs;

	private Thread controlThread;

	/**
	 * Creates a pipeline; nothing happens until {@link #start()}.
	 * @param settings what to replicate
	 * @param source pool of connections to the source server (snapshot reads, layouts)
	 * @param target pool of connections to the target (rows and checkpoints; only checkpoints in
	 * listener mode); give Tributary a pool of its own, since it sets session variables on its
	 * connections
	 */
	public Pipeline(PipelineSettings settings, DataSource source, DataSource target) {
		this(settings, source, target, new JdbcCheckpointStore(target,
				Objects.requireNonNull(settings.checkpointTable(), "checkpointTable"), settings.name(),
				settings.settingNames()));
	}

	/**
	 * Creates a pipeline that keeps its checkpoints in a store of the caller's instead of the
	 * checkpoint table; nothing happens until {@link #start()}.
	 * @param settings what to replicate; its checkpoint table, which may be {@code null} without HA,
	 * goes unused except for the leader table next to it with HA
	 * @param source pool of connections to the source server (snapshot reads, layouts)
	 * @param target pool of connections to the target (rows; unused in listener mode)
	 * @param checkpoints where this pipeline's checkpoints are kept, apart from any other pipeline's
	 */
	public Pipeline(PipelineSettings settings, DataSource source, DataSource target, CheckpointStore checkpoints) {
		this.settings = settings;
		this.leadership = settings.ha().enabled()
				? new Leadership(target, settings.checkpointTable(), settings.name(), settings.ha()) : null;
		this.runs = new CurrentRun(settings, source, target, checkpoints);
	}

	/** Sets an observer on every snapshot's chunks; call before {@link #start()}. */
	void observeChunks(Copier.ChunkObserver observer) {
		this.runs.observeChunks(observer);
	}

	/** Sets an observer on every position the catch-up loop confirms. */
	void observeConfirms(ConfirmObserver observer) {
		this.runs.observeConfirms(observer);
	}

	/** Sets an observer that sees each drain of a table just before it is applied. */
	void observeApplies(ApplyObserver observer) {
		this.runs.observeApplies(observer);
	}

	/** Holds the leader lock on a connection of {@code pool} rather than the target's; call before {@link #start()}. */
	void holdLeaderLockOn(DataSource pool) {
		this.leadership = new Leadership(pool, this.settings.checkpointTable(), this.settings.name(),
				this.settings.ha());
	}

	/**
	 * Starts the pipeline on threads of its own and returns at once. With HA it starts as
	 * {@link PipelineStatus.State#STANDBY} and replicates once it leads.
	 */
	public synchronized void start() {
		if (this.controlThread != null) {
			throw new IllegalStateException("Pipeline " + this.settings.name() + " was already started");
		}
		ReplicationRun run = this.runs.startAt(Instant.now());
		run.runtime.moveTo((this.leadership != null) ? PipelineStatus.State.STANDBY : PipelineStatus.State.STARTING);
		Runnable body = (this.leadership != null) ? new LeaderLoop(this.runs, this.leadership)::run : run::run;
		this.controlThread = new Thread(body, "tributary-pipeline-" + this.settings.name());
		this.controlThread.setDaemon(true);
		this.controlThread.start();
	}

	/** Returns the pipeline's name, under which its checkpoints are kept. */
	public String name() {
		return this.settings.name();
	}

	/** Returns the oldest position any active table would resume from. */
	public Position confirmed() {
		return current().runtime.confirmed();
	}

	/**
	 * Waits until every change the source had written when this method was called is applied:
	 * captures the source head, then waits for the confirmed position to reach it.
	 * @param timeout how long to wait
	 * @throws TimeoutException when the position does not get there in time
	 * @throws SQLException when the source head cannot be read
	 * @throws InterruptedException when interrupted
	 */
	public void awaitCaughtUp(Duration timeout) throws TimeoutException, SQLException, InterruptedException {
		current().flushes.awaitCaughtUp(timeout);
	}

	/**
	 * Applies what is buffered now: returns after a whole catch-up cycle that started after this
	 * call. Changes of a chunk still being copied stay buffered until it lands.
	 * @param timeout how long to wait
	 * @throws TimeoutException when no such cycle completes in time
	 * @throws InterruptedException when interrupted
	 */
	public void flush(Duration timeout) throws TimeoutException, InterruptedException {
		current().flushes.flush(timeout);
	}

	/**
	 * As {@link #flush(Duration)}, noting the flush in the timeline of every table it applied, with
	 * who asked ({@code null} when unknown).
	 */
	public void flush(Duration timeout, String requestedBy) throws TimeoutException, InterruptedException {
		current().flushes.flush(timeout, requestedBy);
	}

	/**
	 * Returns whether nothing is buffered and every active table's confirmed position equals the
	 * delivered one.
	 */
	public boolean allChangesFlushed() {
		return current().flushes.allChangesFlushed();
	}

	/**
	 * Makes a table's target equal to its source and keeps it so while {@code whileLocked} runs:
	 * flushes without a lock first (to keep the locked part short), then takes
	 * {@code LOCK TABLES ... READ} on the source table, which holds off its writers, waits until
	 * every change up to the source head is applied, runs the callback, and unlocks. The source user
	 * needs the LOCK TABLES privilege.
	 * @param table the source table
	 * @param timeout how long to wait for each of the two flushes; give up rather than hold the
	 * lock long
	 * @param whileLocked what to do while source and target are equal, for example a cutover
	 * @return what the callback returned
	 * @param <T> what the callback returns
	 * @throws Exception what the callback threw, a {@link TimeoutException}, or a database error
	 */
	public <T> T flushUnderLock(TableId table, Duration timeout, Callable<T> whileLocked) throws Exception {
		return current().flushes.flushUnderLock(table, timeout, whileLocked);
	}

	/**
	 * Compares a table with its target chunk by chunk on a background thread, and repairs chunks
	 * that still differ once the stream has caught up with them (when
	 * {@link io.tributary.checksum.ChecksumSettings#fixDifferences()}). Returns at once; the
	 * progress shows in {@link TableStatus#checksum()}. A pass already queued for the table and not
	 * yet started is shared: its future is returned. A pass already comparing began before the call,
	 * so another is queued to follow it.
	 * @param table the source table
	 * @return completes with the counters when the pass ends, or exceptionally when it fails
	 * @throws IllegalArgumentException when the table is not replicated by this pipeline
	 * @throws IllegalStateException when the pipeline is not running or the table is not streaming
	 * or catching up
	 */
	public CompletableFuture<TableStatus.Checksum> checksum(TableId table) {
		return checksum(table, null);
	}

	/**
	 * As {@link #checksum(TableId)}, noting in the table's timeline who asked ({@code null} when
	 * unknown).
	 */
	public CompletableFuture<TableStatus.Checksum> checksum(TableId table, String requestedBy) {
		CompletableFuture<TableStatus.Checksum> pass = current().checksums.request(table);
		current().runtime.requireTable(table).recordAction("checksum", "comparing source and target", requestedBy);
		return pass;
	}

	/**
	 * Stops applying a table's changes while the others keep streaming. The table drops what it has
	 * buffered and takes no changes until resumed, so it never holds the shared binlog reader, and
	 * its confirmed position and checkpoint stay where they were. Its phase becomes
	 * {@link Phase#PAUSED}. A pause lasts until {@link #resume} or the next start of the pipeline,
	 * which resumes the table from its checkpoint.
	 * @param table the source table
	 * @throws IllegalArgumentException when the table is not replicated by this pipeline
	 * @throws IllegalStateException when the pipeline is not running, or the table is paused,
	 * failed, snapshotting or not started
	 */
	public void pause(TableId table) {
		current().control.pause(table, null);
	}

	/** As {@link #pause(TableId)}, naming who asked ({@code null} when unknown) in its last action. */
	public void pause(TableId table, String requestedBy) {
		current().control.pause(table, requestedBy);
	}

	/**
	 * Applies a paused table's changes again: the shared binlog reader goes back to the table's
	 * confirmed position and replays from there (the other tables skip what they already hold), and
	 * the table catches up and streams. Returns at once; the table shows {@link Phase#CATCHING_UP}
	 * once the reader has gone back.
	 * @param table the source table
	 * @throws IllegalArgumentException when the table is not replicated by this pipeline
	 * @throws IllegalStateException when the pipeline is not running, the table is not paused, or
	 * its position is no longer in the source's binary logs (resnapshot it then)
	 * @throws SQLException when the source cannot be asked for its binary logs
	 */
	public void resume(TableId table) throws SQLException {
		current().control.resume(table, null);
	}

	/** As {@link #resume(TableId)}, naming who asked ({@code null} when unknown) in its last action. */
	public void resume(TableId table, String requestedBy) throws SQLException {
		current().control.resume(table, requestedBy);
	}

	/**
	 * Copies a table again while the others stream: its target rows are replaced chunk by chunk
	 * from the source, rows deleted at the source meanwhile are deleted from the target, and the
	 * table then catches up and streams. Works on a streaming, paused or failed table; the layout
	 * and the target table are read again first. Returns at once.
	 * @param table the source table
	 * @throws IllegalArgumentException when the table is not replicated by this pipeline
	 * @throws IllegalStateException when the pipeline is not running, the table is snapshotting
	 * already, or its changes go to a {@code ChangeListener}
	 * @throws SQLException when the layout or the target table cannot be read; the table is then
	 * {@link Phase#FAILED} with the reason
	 */
	public void resnapshot(TableId table) throws SQLException {
		current().control.resnapshot(table, null);
	}

	/** As {@link #resnapshot(TableId)}, naming who asked ({@code null} when unknown) in its last action. */
	public void resnapshot(TableId table, String requestedBy) throws SQLException {
		current().control.resnapshot(table, requestedBy);
	}

	/**
	 * Adds a table to the running pipeline and copies it while the others stream, as a resnapshot
	 * copies; it then streams. It lasts as long as the pipeline runs: list it in the settings to keep
	 * it after a restart (its checkpoint is kept either way, so it then resumes).
	 * @param source the source table
	 * @param target its target table; {@code null} when the pipeline sends every table to its
	 * {@code ChangeListener}
	 * @param requestedBy who asked, for the table's last action; {@code null} when unknown
	 * @throws IllegalArgumentException when the source table does not exist, or a target is missing
	 * or given where the listener takes the changes
	 * @throws IllegalStateException when the pipeline is not running, the table is replicated
	 * already, or its target is another table's or the checkpoint table
	 * @throws SQLException when a database cannot be read; the table is then {@link Phase#FAILED}
	 * with the reason
	 */
	public void addTable(TableId source, TableId target, String requestedBy) throws SQLException {
		current().control.addOnRequest(source, target, requestedBy);
	}

	/**
	 * Starts a failed table again once its cause is fixed, without restarting the pipeline: its
	 * layout and target are read again, and it resumes from its checkpoint (the shared reader goes
	 * back there), or is snapshotted when it has none, as at start.
	 * @param table the source table
	 * @throws IllegalArgumentException when the table is not replicated by this pipeline
	 * @throws IllegalStateException when the pipeline is not running or the table has not failed
	 * @throws SQLException when a database cannot be read; the table stays {@link Phase#FAILED}
	 */
	public void restart(TableId table) throws SQLException {
		current().control.restart(table, null);
	}

	/** As {@link #restart(TableId)}, naming who asked ({@code null} when unknown) in its last action. */
	public void restart(TableId table, String requestedBy) throws SQLException {
		current().control.restart(table, requestedBy);
	}

	/**
	 * Returns what a table's own page shows: its counters, layout, partitioning, last checkpoint and
	 * recent events.
	 * @param table the source table
	 * @throws IllegalArgumentException when the table is not replicated by this pipeline
	 */
	public TableDetail detail(TableId table) {
		PipelineRuntime run = current().runtime;
		BinlogChangeSource reader = run.reader();
		return TableReport.detail(run.requireTable(table), reader.delivered(), reader.rowEvents(table));
	}

	/** Returns a snapshot of the pipeline's state. */
	public PipelineStatus status() {
		ReplicationRun run = current();
		if (this.leadership == null) {
			return run.status(null, this.runs.startedAt(), null);
		}
		String error = (run.runtime.state() == PipelineStatus.State.STANDBY) ? this.leadership.lastError() : null;
		return run.status(LeaderLoop.describe(this.leadership, run), this.runs.startedAt(), error);
	}

	/**
	 * Stops gracefully, waiting at most a minute: see {@link #close(Duration)}.
	 */
	@Override
	public void close() {
		close(Duration.ofMinutes(1));
	}

	/**
	 * Stops gracefully: ends the snapshot chunk and checksum in progress, stops reading, applies
	 * what can be applied and writes a final checkpoint. The chunk and checksum get until shortly
	 * before the timeout, so the flush and checkpoint fit in it; a chunk cut short is copied again
	 * on the next start, and changes not applied are read again from the checkpoint.
	 * @param timeout how long the stop may take
	 */
	public void close(Duration timeout) {
		Thread thread;
		synchronized (this) {
			thread = this.controlThread;
			if (thread == null || this.runs.stopping()) {
				return;
			}
			this.runs.stop();
		}
		PipelineRuntime run = current().runtime;
		run.stopBy(System.nanoTime() + timeout.toNanos());
		run.wake();
		if (this.leadership != null) {
			this.leadership.wake();
		}
		if (run.reader().delivered() == null) {
			// Still preparing, possibly blocked on a connection attempt: nothing to flush yet.
			thread.interrupt();
		}
		try {
			thread.join(Math.max(1, timeout.toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (thread.isAlive()) {
			logger.warn("Pipeline {} did not stop within {}; changes not yet checkpointed are read again on the next "
					+ "start", this.settings.name(), timeout);
		}
	}

	private ReplicationRun current() {
		return this.runs.get();
	}

	/** Sees what each cycle confirmed for a table and the two positions it was bounded by. */
	interface ConfirmObserver {

		void confirmed(TableId table, Position delivered, Position oldestPending, Position confirmed);

	}

	/** Sees each drain of a table on the control thread, after it was drained and before it is applied. */
	interface ApplyObserver {

		void beforeApply(TableId table, int changes);

	}

}
