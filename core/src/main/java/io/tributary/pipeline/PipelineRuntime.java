package io.tributary.pipeline;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import io.tributary.apply.ApplyWorkers;
import io.tributary.apply.ListenerSink;
import io.tributary.apply.TableSink;
import io.tributary.checkpoint.CheckpointStore;
import io.tributary.ha.TargetFence;
import io.tributary.name.TableId;
import io.tributary.settings.Setting;
import io.tributary.source.Position;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.source.binlog.ServerInfo;
import io.tributary.status.PipelineStatus;
import io.tributary.subscription.BufferBudget;

/**
 * What the parts of one pipeline share: its settings and connections, its tables, the binlog
 * reader, the state the control thread publishes, and the signal that wakes the catch-up loop.
 * It owns that state: the other parts change it through the named methods below. Fields written
 * by one thread and read by others are volatile.
 */
final class PipelineRuntime {

	final PipelineSettings settings;

	final DataSource source;

	final DataSource target;

	final CheckpointStore checkpoints;

	/**
	 * What every target write of this run proves before it commits: the term of leadership the run
	 * belongs to, or {@link TargetFence#NONE} without HA. Once it is lost the run writes nothing more.
	 */
	final TargetFence fence;

	final ApplyWorkers applyWorkers;

	/** The budget every buffer of this run counts against; a new run starts from an empty one. */
	final BufferBudget bufferBudget;

	/**
	 * The tables, in the order they were added; replaced whole when one is added, so that a reader
	 * on any thread iterates a set that does not change under it.
	 */
	private volatile Map<TableId, TableRuntime> tables = Map.of();

	private final CycleSignal signal;

	/** Set once by the run's constructor, before any thread starts. */
	private BinlogChangeSource reader;

	private volatile PipelineStatus.State state = PipelineStatus.State.STOPPED;

	private volatile boolean stopRequested;

	/**
	 * When a graceful stop must be done ({@link System#nanoTime()}): the copy and checksum in
	 * progress get until shortly before it to end, so the final flush and checkpoint fit in.
	 */
	private volatile long stopDeadlineNanos = Long.MAX_VALUE;

	private volatile String lastError;

	private volatile Instant startedAt;

	/**
	 * When the first of the failed attempts to prepare in a row happened; {@code null} before any
	 * failure and once an attempt succeeds. Tells how long a starting pipeline has been stuck.
	 */
	private volatile Instant preparingFailedSince;

	private volatile ServerInfo server;

	/** Cycles that took everything they could: at the interval or on request, not early ones. */
	private volatile long fullCycles;

	/** Checkpoint writes that succeeded and failed; written by the control thread only. */
	private volatile long checkpointWrites;

	private volatile long checkpointFailures;

	/** Cycles that read the delivered position after the reader knew its place in the binlog. */
	private volatile long positionedCycles;

	/**
	 * The source's binlog head, refreshed by the catch-up loop about once a second. Read as file and
	 * offset only: on MariaDB the GTID list at the head costs a read of the binlog file up to it,
	 * which grows with the file, and comparisons need only the offset.
	 */
	private volatile Position sourceHead;

	/**
	 * Counts the times a table became active again after an action. A cycle reads it before the
	 * delivered position and leaves out tables activated after that read, whose changes the
	 * delivered position it read may not cover.
	 */
	private volatile long activations;

	/**
	 * Asks the next cycle to write the checkpoints whatever the interval, after an action; set by
	 * actions and taken by the cycle in one step, so no request is lost between its read and clear.
	 */
	private final AtomicBoolean checkpointSoon = new AtomicBoolean();

	/** What tests and tools observe of this run. */
	final RunObservers observers = new RunObservers();

	PipelineRuntime(PipelineSettings settings, DataSource source, DataSource target, CheckpointStore checkpoints,
			TargetFence fence) {
		this.settings = settings;
		this.source = source;
		this.target = target;
		this.fence = fence;
		this.checkpoints = fence.active() ? checkpoints.fencedBy(fence) : checkpoints;
		this.applyWorkers = new ApplyWorkers(settings.name(), settings.applyConcurrency());
		this.bufferBudget = new BufferBudget(settings.bufferBudgetBytes());
		this.signal = new CycleSignal(settings.flushWhenIdle());
		for (TableMapping mapping : settings.tables()) {
			addTable(mapping);
		}
	}

	/**
	 * Adds a table, unless one of that source table is there already.
	 * @return whether the table was added
	 */
	synchronized boolean addTable(TableMapping mapping) {
		if (this.tables.containsKey(mapping.source())) {
			return false;
		}
		// In listener mode every table without a sink of its own goes to the listener.
		TableSink sink = mapping.hasSink() ? mapping.sink()
				: this.settings.listenerMode() ? new ListenerSink(this.settings.listener()) : null;
		Map<TableId, TableRuntime> more = new LinkedHashMap<>(this.tables);
		more.put(mapping.source(), new TableRuntime((sink != null) ? mapping.withSink(sink) : mapping));
		// Never changed once published: the reader looks tables up here for every row, through no wrapper.
		this.tables = more;
		return true;
	}

	/**
	 * Files a table that was renamed on the source under its new name, in the same place among
	 * the tables; the table's mapping already names it.
	 */
	synchronized void renameTable(TableId from, TableId to) {
		Map<TableId, TableRuntime> renamed = new LinkedHashMap<>();
		this.tables.forEach((id, table) -> renamed.put(id.equals(from) ? to : id, table));
		this.tables = renamed;
	}

	/** Returns the next value of {@link #activations}, for a table becoming active now. */
	synchronized long nextActivation() {
		return ++this.activations;
	}

	long activations() {
		return this.activations;
	}

	/** Sets the binlog reader, once, before any thread starts. */
	void readWith(BinlogChangeSource binlogReader) {
		if (this.reader != null) {
			throw new IllegalStateException("The run has its reader already");
		}
		this.reader = binlogReader;
	}

	BinlogChangeSource reader() {
		return this.reader;
	}

	// The pipeline's state.

	PipelineStatus.State state() {
		return this.state;
	}

	void moveTo(PipelineStatus.State next) {
		this.state = next;
	}

	/** Ends the run with an error. */
	void fail(String error) {
		this.lastError = error;
		this.state = PipelineStatus.State.FAILED;
	}

	/** Waits for leadership, having lost it or not had it ({@code reason} null). */
	void standby(String reason) {
		this.lastError = reason;
		this.state = PipelineStatus.State.STANDBY;
	}

	/** Asks for a graceful stop that must be done by {@code deadlineNanos}. */
	void stopBy(long deadlineNanos) {
		this.stopDeadlineNanos = deadlineNanos;
		this.state = PipelineStatus.State.STOPPING;
		this.stopRequested = true;
	}

	/** Asks the run to stop, without a deadline or a change of state. */
	void requestStop() {
		this.stopRequested = true;
	}

	boolean stopRequested() {
		return this.stopRequested;
	}

	String lastError() {
		return this.lastError;
	}

	Instant startedAt() {
		return this.startedAt;
	}

	void startedAt(Instant at) {
		this.startedAt = at;
	}

	// Startup.

	/** Notes a failed attempt to prepare, and why. */
	void preparingFailed(String error) {
		if (this.preparingFailedSince == null) {
			this.preparingFailedSince = Instant.now();
		}
		this.lastError = error;
	}

	/** Notes that preparing succeeded: the errors of earlier attempts are history. */
	void prepared() {
		this.preparingFailedSince = null;
		this.lastError = null;
	}

	Instant preparingFailedSince() {
		return this.preparingFailedSince;
	}

	void serverFound(ServerInfo info) {
		this.server = info;
	}

	ServerInfo server() {
		return this.server;
	}

	// The catch-up loop's counters and requests.

	/** Counts a finished cycle: {@code full} when it took everything, {@code positioned} when the reader knew its place. */
	void cycleEnded(boolean full, boolean positioned) {
		if (full) {
			this.fullCycles++;
		}
		if (positioned) {
			this.positionedCycles++;
		}
	}

	long fullCycles() {
		return this.fullCycles;
	}

	long positionedCycles() {
		return this.positionedCycles;
	}

	void checkpointWritten() {
		this.checkpointWrites++;
	}

	void checkpointFailed(String error) {
		this.checkpointFailures++;
		this.lastError = error;
	}

	long checkpointWrites() {
		return this.checkpointWrites;
	}

	long checkpointFailures() {
		return this.checkpointFailures;
	}

	void headRead(Position head) {
		this.sourceHead = head;
	}

	Position sourceHead() {
		return this.sourceHead;
	}

	/** Asks the next cycle to write the checkpoints whatever the interval. */
	void requestCheckpoint() {
		this.checkpointSoon.set(true);
	}

	/** Returns whether a checkpoint was asked for since the last call, and clears the request. */
	boolean takeCheckpointRequest() {
		return this.checkpointSoon.getAndSet(false);
	}

	/** Returns the table replicated from {@code id}, or {@code null} when it is not configured. */
	TableRuntime table(TableId id) {
		return this.tables.get(id);
	}

	/**
	 * Returns the table replicated from {@code id}.
	 * @throws IllegalArgumentException when the table is not one of the pipeline's tables
	 */
	TableRuntime requireTable(TableId id) {
		TableRuntime table = this.tables.get(id);
		if (table == null) {
			throw new IllegalArgumentException("Table " + id + " is not in " + this.settings.settingNames().of(Setting.TABLES)
					+ "; the replicated tables are " + this.tables.keySet());
		}
		return table;
	}

	Collection<TableRuntime> tables() {
		return this.tables.values();
	}

	/** Returns the oldest position any table that is not failed would resume from. */
	Position confirmed() {
		Position oldest = null;
		for (TableRuntime table : this.tables.values()) {
			if (!table.phase().isStopped() && table.confirmed() != null) {
				oldest = Position.min(oldest, table.confirmed());
			}
		}
		return oldest;
	}

	/**
	 * Waits for {@link #wake()}, {@link #readerIdle()} or the timeout; an interrupt asks the pipeline
	 * to stop. A signal that came while nobody waited is not lost: the next wait returns at once.
	 * @return whether {@link #wake()} ended the wait: someone asked for a flush of everything
	 */
	boolean awaitSignal(Duration timeout) {
		return this.signal.await(timeout, () -> this.stopRequested, () -> this.stopRequested = true);
	}

	/** Starts the next catch-up cycle now rather than at the flush interval. */
	void wake() {
		this.signal.wake();
	}

	/** The reader has read everything the source sent; see {@link CycleSignal#readerIdle()}. */
	void readerIdle() {
		this.signal.readerIdle();
	}

	/**
	 * Returns how long a part may wait for its work to end during a stop: the time left before the
	 * stop deadline, less a reserve for the final flush and checkpoint.
	 */
	long stopWaitMillis() {
		long deadline = this.stopDeadlineNanos;
		if (deadline == Long.MAX_VALUE) {
			return Long.MAX_VALUE;
		}
		long left = (deadline - System.nanoTime()) / 1_000_000;
		return Math.max(0, left - Math.max(1_000, left / 4));
	}

	/** Returns whether the run must stop at once: its term of leadership is lost. */
	boolean leadershipLost() {
		return this.fence.lost();
	}

	/** Throws unless the pipeline runs. */
	void requireRunning(String action) {
		if (this.state != PipelineStatus.State.RUNNING) {
			throw new IllegalStateException("Cannot " + action + ": the pipeline is " + this.state
					+ ((this.lastError != null) ? " (" + this.lastError + ")" : ""));
		}
	}

}
