package io.tributary.pipeline;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.tributary.apply.ApplyWorkers;
import io.tributary.apply.ListenerSink;
import io.tributary.apply.TableSink;
import io.tributary.checkpoint.CheckpointStore;
import io.tributary.copy.Copier;
import io.tributary.ha.TargetFence;
import io.tributary.name.TableId;
import io.tributary.source.Position;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.source.binlog.ServerInfo;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus.Phase;

/**
 * What the parts of one pipeline share: its settings and connections, its tables, the binlog
 * reader, the state the control thread publishes, and the signal that wakes the catch-up loop.
 * Fields written by one thread and read by others are volatile.
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

	private final Map<TableId, TableRuntime> tables = new LinkedHashMap<>();

	private final Object signal = new Object();

	/** Set by {@link #wake()}, cleared by the wait it ends; guarded by {@link #signal}. */
	private boolean woken;

	/**
	 * Set by {@link #readerIdle()}, cleared by the wait it ends; written under {@link #signal},
	 * read without it by the reader to skip the lock while a flush is already due.
	 */
	private volatile boolean idle;

	/** Set once by the pipeline's constructor, before any thread starts. */
	BinlogChangeSource reader;

	volatile PipelineStatus.State state = PipelineStatus.State.STOPPED;

	volatile boolean stopRequested;

	/**
	 * When a graceful stop must be done ({@link System#nanoTime()}): the copy and checksum in
	 * progress get until shortly before it to end, so the final flush and checkpoint fit in.
	 */
	volatile long stopDeadlineNanos = Long.MAX_VALUE;

	volatile String lastError;

	volatile Instant startedAt;

	/**
	 * When the first of the failed attempts to prepare in a row happened; {@code null} before any
	 * failure and once an attempt succeeds. Tells how long a starting pipeline has been stuck.
	 */
	volatile Instant preparingFailedSince;

	volatile ServerInfo server;

	/** Cycles that took everything they could: at the interval or on request, not early ones. */
	volatile long fullCycles;

	/** Checkpoint writes that succeeded and failed; written by the control thread only. */
	volatile long checkpointWrites;

	volatile long checkpointFailures;

	/** Cycles that read the delivered position after the reader knew its place in the binlog. */
	volatile long positionedCycles;

	/**
	 * The source's binlog head, refreshed by the catch-up loop about once a second. Read as file and
	 * offset only: on MariaDB the GTID list at the head costs a read of the binlog file up to it,
	 * which grows with the file, and comparisons need only the offset.
	 */
	volatile Position sourceHead;

	/**
	 * Counts the times a table became active again after an action. A cycle reads it before the
	 * delivered position and leaves out tables activated after that read, whose changes the
	 * delivered position it read may not cover.
	 */
	volatile long activations;

	/** Asks the next cycle to write the checkpoints whatever the interval, after an action. */
	volatile boolean checkpointSoon;

	volatile Copier.ChunkObserver chunkObserver;

	volatile Pipeline.ConfirmObserver confirmObserver;

	volatile Pipeline.ApplyObserver applyObserver;

	PipelineRuntime(PipelineSettings settings, DataSource source, DataSource target, CheckpointStore checkpoints,
			TargetFence fence) {
		this.settings = settings;
		this.source = source;
		this.target = target;
		this.fence = fence;
		this.checkpoints = fence.active() ? checkpoints.fencedBy(fence) : checkpoints;
		this.applyWorkers = new ApplyWorkers(settings.name(), settings.applyConcurrency());
		for (TableMapping mapping : settings.tables()) {
			// In listener mode every table without a sink of its own goes to the listener.
			TableSink sink = mapping.hasSink() ? mapping.sink()
					: settings.listenerMode() ? new ListenerSink(settings.listener()) : null;
			this.tables.put(mapping.source(), new TableRuntime((sink != null) ? mapping.withSink(sink) : mapping));
		}
	}

	/** Returns the next value of {@link #activations}, for a table becoming active now. */
	synchronized long nextActivation() {
		return ++this.activations;
	}

	/** Returns the table replicated from {@code id}, or {@code null} when it is not configured. */
	TableRuntime table(TableId id) {
		return this.tables.get(id);
	}

	/**
	 * Returns the table replicated from {@code id}.
	 * @throws IllegalArgumentException when the table is not in {@code cdc.tables}
	 */
	TableRuntime requireTable(TableId id) {
		TableRuntime table = this.tables.get(id);
		if (table == null) {
			throw new IllegalArgumentException("Table " + id + " is not in cdc.tables; the replicated tables are "
					+ this.tables.keySet());
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
			if (table.phase() != Phase.FAILED && table.confirmed != null) {
				oldest = Position.min(oldest, table.confirmed);
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
		synchronized (this.signal) {
			if (this.stopRequested) {
				return false;
			}
			boolean asked;
			try {
				long deadline = System.nanoTime() + timeout.toNanos();
				while (!this.woken && !this.idle && !this.stopRequested) {
					long left = deadline - System.nanoTime();
					if (left <= 0) {
						break;
					}
					TimeUnit.NANOSECONDS.timedWait(this.signal, left);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.stopRequested = true;
			}
			asked = this.woken;
			this.woken = false;
			this.idle = false;
			return asked;
		}
	}

	/** Starts the next catch-up cycle now rather than at the flush interval. */
	void wake() {
		synchronized (this.signal) {
			this.woken = true;
			this.signal.notifyAll();
		}
	}

	/**
	 * The reader has read everything the source sent: with {@code cdc.flush.when-idle}, an early
	 * cycle applies what is buffered now. Called by the reader after each transaction it has nothing
	 * to follow; cheap while a cycle is already due.
	 */
	void readerIdle() {
		if (this.idle || !this.settings.flushWhenIdle()) {
			return;
		}
		synchronized (this.signal) {
			this.idle = true;
			this.signal.notifyAll();
		}
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
