package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.ApplyException;
import io.tributary.apply.ApplyWorkers;
import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.ListenerApplier;
import io.tributary.apply.ParallelApplier;
import io.tributary.apply.TargetTables;
import io.tributary.checkpoint.CheckpointStore;
import io.tributary.checkpoint.JdbcCheckpointStore;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.copy.Copier;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.SchemaException;
import io.tributary.schema.TableLayout;
import io.tributary.source.ChangeHandler;
import io.tributary.source.Position;
import io.tributary.source.RowChange;
import io.tributary.source.TableId;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.source.binlog.Preflight;
import io.tributary.source.binlog.ServerInfo;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.subscription.BufferedSubscription;

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
 */
public final class Pipeline implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(Pipeline.class);

	private final PipelineSettings settings;

	private final DataSource source;

	private final DataSource target;

	private final CheckpointStore checkpoints;

	private final Map<TableId, TableRuntime> tables = new LinkedHashMap<>();

	private final BinlogChangeSource reader;

	private final Object signal = new Object();

	private volatile PipelineStatus.State state = PipelineStatus.State.STOPPED;

	private volatile boolean stopRequested;

	private volatile String lastError;

	private volatile Instant startedAt;

	private volatile ServerInfo server;

	private volatile long cycles;

	/** Cycles that read the delivered position after the reader knew its place in the binlog. */
	private volatile long positionedCycles;

	private Thread control;

	private volatile Copier.ChunkObserver chunkObserver;

	private volatile ConfirmObserver confirmObserver;

	private final ApplyWorkers applyWorkers;

	/** Runs checksum passes one at a time, off the control thread. */
	private final java.util.concurrent.ExecutorService checksums;

	private Thread copyThread;

	private long lastCheckpointNanos;

	/**
	 * The source's binlog head, refreshed by the catch-up loop about once a second. Read as file and
	 * offset only: on MariaDB the GTID list at the head costs a read of the binlog file up to it,
	 * which grows with the file, and comparisons need only the offset.
	 */
	private volatile Position sourceHead;

	private long headReadNanos;

	/**
	 * Creates a pipeline; nothing happens until {@link #start()}.
	 * @param settings what to replicate
	 * @param source pool of connections to the source server (snapshot reads, layouts)
	 * @param target pool of connections to the target (rows and checkpoints; only checkpoints in
	 * listener mode); give Tributary a pool of its own, since it sets session variables on its
	 * connections
	 */
	public Pipeline(PipelineSettings settings, DataSource source, DataSource target) {
		this.settings = settings;
		this.source = source;
		this.target = target;
		this.checkpoints = new JdbcCheckpointStore(target, settings.checkpointTable(), settings.name());
		for (TableMapping mapping : settings.tables()) {
			this.tables.put(mapping.source(), new TableRuntime(settings.listenerMode() ? mapping.toListener() : mapping));
		}
		this.reader = new BinlogChangeSource(settings.source(), new Router());
		this.applyWorkers = new ApplyWorkers(settings.name(), settings.applyConcurrency());
		this.checksums = java.util.concurrent.Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, "tributary-checksum-" + settings.name());
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Sets an observer on every snapshot's chunks; call before {@link #start()}. */
	void observeChunks(Copier.ChunkObserver observer) {
		this.chunkObserver = observer;
	}

	/** Sets an observer on every position the catch-up loop confirms. */
	void observeConfirms(ConfirmObserver observer) {
		this.confirmObserver = observer;
	}

	/** Starts the pipeline on threads of its own and returns at once. */
	public synchronized void start() {
		if (this.control != null) {
			throw new IllegalStateException("Pipeline " + this.settings.name() + " was already started");
		}
		this.state = PipelineStatus.State.STARTING;
		this.startedAt = Instant.now();
		this.control = new Thread(this::run, "tributary-pipeline-" + this.settings.name());
		this.control.setDaemon(true);
		this.control.start();
	}

	private void run() {
		try {
			Position from = prepareWithRetry();
			if (from == null) {
				return;
			}
			this.reader.start(from);
			startSnapshots();
			this.state = PipelineStatus.State.RUNNING;
			while (!this.stopRequested) {
				cycle();
				awaitSignal(this.settings.flushInterval());
			}
			stopSnapshots();
			stopChecksums();
			// A reader waiting for buffer room keeps its change and ends; nothing is dropped.
			this.tables.values().stream().map((t) -> t.subscription).filter(java.util.Objects::nonNull)
				.forEach(BufferedSubscription::close);
			this.reader.close();
			cycle();
			saveCheckpoints(true);
			this.applyWorkers.close();
			this.state = PipelineStatus.State.STOPPED;
			logger.info("Pipeline {} stopped at {}", this.settings.name(), confirmed());
		}
		catch (RuntimeException ex) {
			this.lastError = ex.getMessage();
			this.state = PipelineStatus.State.FAILED;
			logger.error("Pipeline {} failed", this.settings.name(), ex);
			this.checksums.shutdownNow();
			this.reader.close();
			this.applyWorkers.close();
		}
	}

	/** Prepares tables and finds the start position, retrying while the databases are unreachable. */
	private Position prepareWithRetry() {
		long backoff = 500;
		while (!this.stopRequested) {
			try {
				return prepare();
			}
			catch (SQLException | RuntimeException ex) {
				// Unreachable databases and missing privileges heal without a restart; keep trying.
				this.lastError = "Cannot prepare replication: " + ex.getMessage();
				logger.warn("{}; retrying in {} ms", this.lastError, backoff);
				awaitSignal(Duration.ofMillis(backoff));
				backoff = Math.min(backoff * 2, 30_000);
			}
		}
		this.state = PipelineStatus.State.STOPPED;
		this.checksums.shutdownNow();
		this.applyWorkers.close();
		return null;
	}

	private Position prepare() throws SQLException {
		ServerInfo info = Preflight.check(this.source, this.settings.source(), this.tables.keySet().stream().toList(),
				this.settings.tables().stream().filter((t) -> !t.key().isEmpty()).map(TableMapping::source)
					.collect(java.util.stream.Collectors.toSet()));
		this.server = info;
		// Server-wide problems are retried like an unreachable server: a SET GLOBAL fixes most of them.
		info.requireUsable();
		logger.info("Source {} is {} {} (GTID mode {})", this.settings.source(), info.flavor(), info.version(),
				info.gtidMode());
		this.checkpoints.initialize();
		Map<TableId, TableCheckpoint> saved = this.checkpoints.load();
		java.util.LinkedHashMap<String, Long> binaryLogs = SourceQueries.binaryLogs(this.source);
		Position resumeFrom = null;
		int snapshots = 0;
		for (TableRuntime table : this.tables.values()) {
			TableMapping mapping = table.mapping;
			if (!info.accepts(mapping.source())) {
				table.fail(info.tableProblems().get(mapping.source()));
				logger.error("Table {} cannot be replicated: {}", mapping.source(), table.lastError);
				continue;
			}
			try {
				TableLayout layout;
				try (Connection connection = this.source.getConnection()) {
					layout = LayoutReader.read(connection, mapping.source(), mapping.key());
				}
				table.layout = layout;
				Copier.TargetKeys targetKeys = null;
				if (this.settings.listenerMode()) {
					// No target table: each drain is one call of the listener, serialized per table.
					table.applier = new ListenerApplier(this.settings.listener(), layout);
					table.writer = null;
				}
				else {
					boolean targetHadRows = TargetTables.prepare(this.source, this.target, layout, mapping.target(),
							"the target of " + mapping.source() + " in cdc.tables");
					JdbcReplaceApplier statements = new JdbcReplaceApplier(this.target, mapping.target(), layout,
							this.settings.batchRows(), this.settings.batchBytes());
					table.applier = statements;
					table.writer = ParallelApplier.create(statements, this.applyWorkers,
							this.settings.applyConcurrency());
					targetKeys = targetHadRows ? statements::keysIn : null;
				}
				TableCheckpoint checkpoint = saved.get(mapping.source());
				boolean usable = mapping.snapshot() != SnapshotMode.ALWAYS && checkpoint != null
						&& checkpoint.position() != null && checkpoint.target().equals(mapping.target());
				String unavailable = usable ? SourceQueries.unavailable(checkpoint.position(), binaryLogs, this.source)
						: null;
				if (unavailable != null) {
					if (this.settings.invalidCheckpointBehavior() == InvalidCheckpointBehavior.ERROR) {
						throw new SchemaException("The checkpoint of " + mapping.source() + " is at "
								+ checkpoint.position() + ", but " + unavailable + ". Changes made since cannot be "
								+ "read. Either set cdc.checkpoint.invalid-behavior=restart to snapshot the table "
								+ "again automatically, or delete its row from the checkpoint table and restart");
					}
					logger.warn("The checkpoint of {} is at {}, but {}; snapshotting the table again",
							mapping.source(), checkpoint.position(), unavailable);
					usable = false;
				}
				if (usable && checkpoint.snapshotDone()) {
					table.snapshotDone = true;
					table.confirmed = checkpoint.position();
					table.phase = Phase.CATCHING_UP;
					resumeFrom = Position.min(resumeFrom, checkpoint.position());
					logger.info("Table {} resumes from checkpoint {}", mapping.source(), checkpoint.position());
				}
				else if (mapping.snapshot() == SnapshotMode.NEVER && !usable) {
					// Streams from the head read below; rows that exist already are not copied.
					table.snapshotDone = true;
					table.phase = Phase.CATCHING_UP;
					logger.info("Table {} is not snapshotted (snapshot mode never)", mapping.source());
				}
				else {
					table.phase = Phase.SNAPSHOTTING;
					table.copier = new Copier(this.source, layout, table.applier, this.settings.copy(), targetKeys);
					if (this.settings.listenerMode()) {
						// A listener that throws is given the chunk again, however long it takes; the
						// snapshot never moves past rows the listener has not accepted.
						table.copier.retryFailedWrites(new Copier.WriteRetries() {

							@Override
							public void failed(ApplyException failure, Duration pause) {
								table.lastError = "Snapshot chunk not delivered, retrying in " + pause.toMillis()
										+ " ms: " + failure.getMessage();
							}

							@Override
							public void recovered() {
								if (table.phase != Phase.FAILED) {
									table.lastError = null;
								}
							}

						});
					}
					if (usable && checkpoint.copiedUpTo() != null) {
						// A copy cut short: continue after its last landed chunk, streaming from its position.
						table.copier.resumeAfter(checkpoint.copiedUpTo());
						table.confirmed = checkpoint.position();
						resumeFrom = Position.min(resumeFrom, checkpoint.position());
					}
					if (this.chunkObserver != null) {
						table.copier.observe(this.chunkObserver);
					}
					snapshots++;
				}
				table.subscription = new BufferedSubscription(layout, this.settings.bufferSoftLimitBytes(),
						this.settings.flushMaxChanges(), this::wake);
				if (table.phase != Phase.SNAPSHOTTING) {
					table.subscription.endCopyPhase();
				}
				this.reader.subscribe(layout);
			}
			catch (RuntimeException ex) {
				// Schema problems stop this table only.
				table.fail(ex.getMessage());
				logger.error("Table {} cannot be replicated: {}", mapping.source(), ex.getMessage());
			}
		}
		Position head = SourceQueries.head(this.source);
		for (TableRuntime table : this.tables.values()) {
			if (table.phase == Phase.CATCHING_UP) {
				table.catchUpTarget = head;
			}
			if (table.confirmed == null && (table.phase == Phase.SNAPSHOTTING || table.phase == Phase.CATCHING_UP)) {
				table.confirmed = (resumeFrom != null) ? resumeFrom : head;
			}
		}
		Position from = (resumeFrom != null) ? resumeFrom : head;
		this.lastError = null;
		logger.info("Pipeline {} starts reading {} at {}; {} of {} table(s) to snapshot", this.settings.name(),
				this.settings.source(), from, snapshots, this.tables.size());
		return from;
	}

	private void startSnapshots() {
		List<TableRuntime> pending = this.tables.values()
			.stream()
			.filter((table) -> table.phase == Phase.SNAPSHOTTING && table.copier != null)
			.toList();
		if (pending.isEmpty()) {
			return;
		}
		this.copyThread = new Thread(() -> {
			for (TableRuntime table : pending) {
				if (this.stopRequested) {
					return;
				}
				try {
					table.copier.run(() -> this.stopRequested || table.phase == Phase.FAILED);
				}
				catch (SQLException | ApplyException ex) {
					table.fail("Snapshot failed: " + ex.getMessage());
					logger.error("Snapshot of {} failed", table.mapping.source(), ex);
				}
				wake();
			}
		}, "tributary-copy-" + this.settings.name());
		this.copyThread.setDaemon(true);
		this.copyThread.start();
	}

	private void stopSnapshots() {
		Thread thread = this.copyThread;
		if (thread != null) {
			try {
				thread.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void stopChecksums() {
		// A pass checks for the stop between chunks and while it waits for the stream.
		this.checksums.shutdown();
		try {
			if (!this.checksums.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)) {
				this.checksums.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			this.checksums.shutdownNow();
			Thread.currentThread().interrupt();
		}
	}

	/** One catch-up cycle: drain, apply, requeue, confirm. Runs on the control thread only. */
	private void cycle() {
		// Read before any drain: every change added after this read has a resume position at or
		// after it, so min(delivered, oldest pending) never passes a change still held.
		boolean positioned = this.reader.isPositioned();
		Position delivered = this.reader.delivered();
		boolean phaseChanged = false;
		for (TableRuntime table : this.tables.values()) {
			if (!table.isActive()) {
				continue;
			}
			Copier copier = table.copier;
			boolean copyDone = copier == null || copier.isDone();
			BufferedSubscription buffer = table.subscription;
			BufferedSubscription.Drain drain;
			table.flushLock.lock();
			try {
				drain = buffer.drain(table::watermarks);
				if (!drain.isEmpty()) {
					apply(table, drain, delivered);
				}
			}
			finally {
				table.flushLock.unlock();
			}
			Position oldestPending = buffer.oldestPending();
			table.confirmed = Position.min(delivered, oldestPending);
			ConfirmObserver observer = this.confirmObserver;
			if (observer != null) {
				observer.confirmed(table.mapping.source(), delivered, oldestPending, table.confirmed);
			}
			phaseChanged |= advancePhase(table, copyDone, drain.deferred(), positioned, delivered);
		}
		refreshHead();
		this.cycles++;
		if (positioned) {
			this.positionedCycles++;
		}
		saveCheckpoints(phaseChanged);
	}

	private void apply(TableRuntime table, BufferedSubscription.Drain drain, Position delivered) {
		long started = System.nanoTime();
		// Queued changes (a key that is not memory-comparable) follow the merged ones in the binlog:
		// they are applied after them, run after run, one statement at a time.
		io.tributary.subscription.OrderedReplay inOrder = new io.tributary.subscription.OrderedReplay(drain.runs());
		boolean mergedApplied = false;
		try {
			io.tributary.apply.Applier merged = (table.writer != null) ? table.writer : table.applier;
			merged.apply(drain.upserts().stream().map(BufferedSubscription.Entry::image).toList(),
					drain.deletes().stream().map((entry) -> entry.key().values()).toList(), delivered);
			mergedApplied = true;
			inOrder.applyTo(table.applier);
			table.changesApplied += drain.size();
			table.recordFlush(drain.size(), started, "ok");
			if (table.lastError != null && table.phase != Phase.FAILED) {
				table.lastError = null;
			}
		}
		catch (ApplyException ex) {
			if (!mergedApplied) {
				List<BufferedSubscription.Entry> failed = new ArrayList<>(drain.deletes());
				failed.addAll(drain.upserts());
				table.subscription.requeue(failed);
			}
			table.subscription.requeueAtFront(inOrder.remaining());
			int applied = (mergedApplied ? drain.mergedSize() : 0) + inOrder.applied();
			table.changesApplied += applied;
			table.recordFlush(applied, started, ex.getMessage());
			table.lastError = ex.getMessage();
			if (ex instanceof ListenerApplier.Paused) {
				// The failure itself was logged when the listener threw; do not repeat it every cycle.
				logger.debug("Flush of {} waits: {}", table.mapping.source(), ex.getMessage());
			}
			else {
				logger.warn("Flush of {} failed, will retry: {}", table.mapping.source(), ex.getMessage());
			}
		}
	}

	private boolean advancePhase(TableRuntime table, boolean copyDone, int deferred, boolean positioned,
			Position delivered) {
		if (table.phase == Phase.SNAPSHOTTING && copyDone && table.copier != null && table.copier.isDone()) {
			table.snapshotDone = true;
			table.subscription.endCopyPhase();
			try {
				table.catchUpTarget = SourceQueries.headFileOffset(this.source);
			}
			catch (SQLException ex) {
				table.catchUpTarget = delivered;
			}
			table.phase = Phase.CATCHING_UP;
			logger.info("Table {} snapshot done ({} rows); catching up to {}", table.mapping.source(),
					table.copier.rowsCopied(), table.catchUpTarget);
			if (this.settings.checksum().enabled() && !this.settings.listenerMode()) {
				startChecksum(table);
			}
			return true;
		}
		// Caught up once the reader has passed the head seen when catching up began and no change
		// waits on the copy; changes arriving meanwhile are ordinary streaming.
		if (table.phase == Phase.CATCHING_UP && deferred == 0 && positioned
				&& delivered.compareTo(table.catchUpTarget) >= 0) {
			table.phase = Phase.STREAMING;
			logger.info("Table {} is streaming", table.mapping.source());
			return true;
		}
		return false;
	}

	private void refreshHead() {
		long now = System.nanoTime();
		if (now - this.headReadNanos < 1_000_000_000L) {
			return;
		}
		this.headReadNanos = now;
		try {
			this.sourceHead = SourceQueries.headFileOffset(this.source);
		}
		catch (SQLException ex) {
			logger.debug("Cannot read the source head for lag", ex);
		}
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

	private void saveCheckpoints(boolean force) {
		long now = System.nanoTime();
		if (!force && now - this.lastCheckpointNanos < this.settings.checkpointInterval().toNanos()) {
			return;
		}
		List<TableCheckpoint> rows = new ArrayList<>();
		Instant at = Instant.now();
		for (TableRuntime table : this.tables.values()) {
			if (table.confirmed != null && table.phase != Phase.FAILED) {
				Copier copier = table.copier;
				Object[] copiedUpTo = (!table.snapshotDone && copier != null) ? copier.copiedUpTo() : null;
				rows.add(new TableCheckpoint(table.mapping.source(), table.mapping.target(), table.snapshotDone,
						table.confirmed, copiedUpTo, at));
			}
		}
		try {
			this.checkpoints.save(rows);
			this.lastCheckpointNanos = now;
		}
		catch (RuntimeException ex) {
			this.lastError = ex.getMessage();
			logger.warn("Checkpoint write failed, will retry: {}", ex.getMessage());
		}
	}

	private void awaitSignal(Duration timeout) {
		synchronized (this.signal) {
			if (this.stopRequested) {
				return;
			}
			try {
				this.signal.wait(Math.max(1, timeout.toMillis()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.stopRequested = true;
			}
		}
	}

	private void wake() {
		synchronized (this.signal) {
			this.signal.notifyAll();
		}
	}

	/** Returns the oldest position any active table would resume from. */
	public Position confirmed() {
		Position oldest = null;
		for (TableRuntime table : this.tables.values()) {
			if (table.phase != Phase.FAILED && table.confirmed != null) {
				oldest = Position.min(oldest, table.confirmed);
			}
		}
		return oldest;
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
		awaitConfirmed(SourceQueries.headFileOffset(this.source), (table) -> true, timeout, false);
	}

	/**
	 * Waits until the given tables have confirmed {@code head}: every change the source had written
	 * up to it is applied. Only a cycle that starts after the head was read, with the reader
	 * positioned, can confirm it.
	 * @param drive whether to start a cycle at every poll rather than let cycles come at the flush
	 * interval; driving shortens the wait but splits a backlog into more, smaller flushes
	 */
	private void awaitConfirmed(Position head, java.util.function.Predicate<TableRuntime> which, Duration timeout,
			boolean drive) throws TimeoutException, InterruptedException {
		long cyclesBefore = this.positionedCycles;
		wake();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			List<TableRuntime> selected = this.tables.values()
				.stream()
				.filter(which)
				.filter((t) -> t.phase != Phase.FAILED && t.phase != Phase.PAUSED)
				.toList();
			boolean snapshotting = selected.stream().anyMatch((t) -> t.phase == Phase.SNAPSHOTTING);
			boolean confirmed = selected.stream().allMatch((t) -> t.confirmed != null && t.confirmed.compareTo(head) >= 0);
			if (!snapshotting && this.positionedCycles > cyclesBefore + 1 && confirmed) {
				return;
			}
			if (this.state == PipelineStatus.State.FAILED || this.state == PipelineStatus.State.STOPPED) {
				throw new IllegalStateException("Pipeline is " + this.state + ": " + this.lastError);
			}
			if (System.nanoTime() > deadline) {
				throw new TimeoutException("Not caught up to " + head + " within " + timeout + "; confirmed " + confirmed());
			}
			if (drive) {
				wake();
			}
			Thread.sleep(20);
		}
	}

	/**
	 * Applies what is buffered now: returns after a whole catch-up cycle that started after this
	 * call. Changes of a chunk still being copied stay buffered until it lands.
	 * @param timeout how long to wait
	 * @throws TimeoutException when no such cycle completes in time
	 * @throws InterruptedException when interrupted
	 */
	public void flush(Duration timeout) throws TimeoutException, InterruptedException {
		long wanted = this.cycles + 2;
		long deadline = System.nanoTime() + timeout.toNanos();
		while (this.cycles < wanted) {
			if (this.state != PipelineStatus.State.RUNNING) {
				throw new IllegalStateException("Pipeline is " + this.state + ": " + this.lastError);
			}
			if (System.nanoTime() > deadline) {
				throw new TimeoutException("No flush completed within " + timeout);
			}
			wake();
			Thread.sleep(5);
		}
	}

	/**
	 * Returns whether nothing is buffered and every active table's confirmed position equals the
	 * delivered one.
	 */
	public boolean allChangesFlushed() {
		Position delivered = this.reader.delivered();
		return this.tables.values()
			.stream()
			.filter((t) -> t.phase != Phase.FAILED && t.phase != Phase.PAUSED)
			.map((t) -> t.status(delivered))
			.allMatch(TableStatus::allChangesFlushed);
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
	 * @throws Exception what the callback threw, a {@link TimeoutException}, or a database error
	 */
	public <T> T flushUnderLock(TableId table, Duration timeout, java.util.concurrent.Callable<T> whileLocked)
			throws Exception {
		TableRuntime runtime = this.tables.get(table);
		if (runtime == null || !runtime.isActive() || runtime.phase == Phase.SNAPSHOTTING) {
			throw new IllegalStateException("Table " + table + " is not streaming"
					+ ((runtime != null) ? " (" + runtime.phase + ")" : "; it is not in cdc.tables"));
		}
		awaitConfirmed(SourceQueries.headFileOffset(this.source), (t) -> t == runtime, timeout, false);
		try (Connection connection = this.source.getConnection();
				java.sql.Statement statement = connection.createStatement()) {
			statement.execute("LOCK TABLES " + table.quoted() + " READ");
			try {
				// Under the lock every millisecond counts: drive the cycles.
				awaitConfirmed(SourceQueries.headFileOffset(this.source), (t) -> t == runtime, timeout, true);
				return whileLocked.call();
			}
			finally {
				statement.execute("UNLOCK TABLES");
			}
		}
	}

	/**
	 * Compares a table with its target chunk by chunk on a background thread, and repairs chunks
	 * that still differ once the stream has caught up with them (when
	 * {@link io.tributary.checksum.ChecksumSettings#fixDifferences()}). Returns at once; the
	 * progress shows in {@link TableStatus#checksum()}. A pass already queued or running for the
	 * table is not started again: its future is returned.
	 * @param table the source table
	 * @return completes with the counters when the pass ends, or exceptionally when it fails
	 * @throws IllegalArgumentException when the table is not replicated by this pipeline
	 * @throws IllegalStateException when the pipeline is not running or the table is not streaming
	 * or catching up
	 */
	public java.util.concurrent.CompletableFuture<TableStatus.Checksum> checksum(TableId table) {
		TableRuntime runtime = this.tables.get(table);
		if (runtime == null) {
			throw new IllegalArgumentException("Table " + table + " is not in cdc.tables");
		}
		if (this.settings.listenerMode()) {
			throw new IllegalStateException("Table " + table + " has no target table to compare with: its changes "
					+ "go to the application's ChangeListener");
		}
		if (this.state != PipelineStatus.State.RUNNING || !runtime.isActive() || !runtime.snapshotDone) {
			throw new IllegalStateException("Table " + table + " cannot be compared now: the pipeline is "
					+ this.state + " and the table " + runtime.phase + "; a checksum needs a running pipeline and a "
					+ "table that is catching up or streaming");
		}
		return startChecksum(runtime);
	}

	private synchronized java.util.concurrent.CompletableFuture<TableStatus.Checksum> startChecksum(
			TableRuntime table) {
		java.util.concurrent.CompletableFuture<TableStatus.Checksum> running = table.checksumDone;
		if (running != null && !running.isDone()) {
			return running;
		}
		io.tributary.checksum.ChecksumProgress progress = new io.tributary.checksum.ChecksumProgress();
		java.util.concurrent.CompletableFuture<TableStatus.Checksum> done = new java.util.concurrent.CompletableFuture<>();
		table.checksum = progress;
		table.checksumDone = done;
		try {
			this.checksums.execute(() -> runChecksum(table, progress, done));
		}
		catch (java.util.concurrent.RejectedExecutionException ex) {
			progress.fail("The pipeline is stopping");
			done.completeExceptionally(ex);
		}
		return done;
	}

	private void runChecksum(TableRuntime table, io.tributary.checksum.ChecksumProgress progress,
			java.util.concurrent.CompletableFuture<TableStatus.Checksum> done) {
		try {
			TableLayout layout = table.layout;
			io.tributary.checksum.TableChecksum pass = new io.tributary.checksum.TableChecksum(this.source, this.target,
					layout, table.mapping.target(), comparedWidth(layout, table.mapping.target()),
					this.settings.checksum(), (head) -> awaitApplied(table, head), (range) -> recopy(table, range),
					progress);
			pass.run(() -> this.stopRequested || !table.isActive());
			done.complete(progress.snapshot());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			progress.fail("Interrupted");
			done.completeExceptionally(ex);
		}
		catch (SQLException | RuntimeException ex) {
			progress.fail(ex.getMessage());
			logger.warn("Checksum of {} failed: {}", table.mapping.source(), ex.getMessage());
			done.completeExceptionally(ex);
		}
	}

	/** Returns how many leading source columns the target has by name; only those are compared. */
	private int comparedWidth(TableLayout layout, TableId targetTable) throws SQLException {
		List<String[]> targetColumns = TargetTables.columns(this.target, targetTable);
		int width = 0;
		while (width < layout.columns().size() && width < targetColumns.size()
				&& targetColumns.get(width)[0].equalsIgnoreCase(layout.columns().get(width).name())) {
			width++;
		}
		return width;
	}

	/**
	 * Waits until a table has applied every change up to {@code head}: its confirmed position is at
	 * or past it. A cycle sets that position from the delivered position it read before draining, so
	 * reaching a head read earlier means every change up to it was drained and applied. Wakes the
	 * loop once, so the wait lasts about one cycle rather than a flush interval.
	 */
	private void awaitApplied(TableRuntime table, Position head) throws InterruptedException {
		wake();
		while (true) {
			if (this.stopRequested || this.state != PipelineStatus.State.RUNNING) {
				throw new IllegalStateException("The pipeline is " + this.state);
			}
			if (!table.isActive()) {
				throw new IllegalStateException("Table " + table.mapping.source() + " is " + table.phase);
			}
			Position confirmed = table.confirmed;
			if (this.positionedCycles > 0 && confirmed != null && confirmed.compareTo(head) >= 0) {
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
	private void recopy(TableRuntime table, io.tributary.copy.KeyRange range) throws SQLException {
		table.flushLock.lock();
		try {
			if (!(table.applier instanceof JdbcReplaceApplier applier)) {
				throw new IllegalStateException("Table " + table.mapping.source() + " has no target table to repair");
			}
			new io.tributary.copy.RangeCopy(this.source, table.layout, applier, applier::keysIn).copy(range);
		}
		finally {
			table.flushLock.unlock();
		}
	}

	/** Returns a snapshot of the pipeline's state. */
	public PipelineStatus status() {
		Position delivered = this.reader.delivered();
		List<TableStatus> tableStatus = this.tables.values().stream().map((table) -> table.status(delivered)).toList();
		Position confirmed = confirmed();
		Position head = this.sourceHead;
		// Behind only while the reader has not reached the head last seen; an idle source sends
		// heartbeats, not events, so the newest event's age alone would read as growing lag.
		long lastEvent = this.reader.lastEventTimestamp();
		boolean behind = head != null && delivered != null && this.reader.isPositioned() && delivered.compareTo(head) < 0;
		long lag = (behind && lastEvent > 0) ? Math.max(0, System.currentTimeMillis() - lastEvent) : 0;
		ServerInfo info = this.server;
		return new PipelineStatus(this.state,
				new PipelineStatus.Source(this.settings.source().host(), this.settings.source().port(),
						this.settings.source().serverId(), (info != null) ? info.flavor().name() : null,
						(info != null) ? info.version() : null, (info != null) ? info.gtidMode() : null,
						this.reader.isConnected(), this.reader.reconnects(), this.reader.eventsRead(),
						this.reader.lastError()),
				new PipelineStatus.Positions((delivered != null) ? delivered.toString() : null,
						(confirmed != null) ? confirmed.toString() : null, (head != null) ? head.toString() : null),
				lag, lagBytes(confirmed, head), tableStatus, this.startedAt, this.lastError);
	}

	/**
	 * Stops gracefully: ends the snapshot in progress, stops reading, applies what can be applied,
	 * writes a final checkpoint and waits for all of it.
	 */
	@Override
	public void close() {
		Thread thread;
		synchronized (this) {
			thread = this.control;
			if (thread == null || this.stopRequested) {
				return;
			}
			this.state = PipelineStatus.State.STOPPING;
			this.stopRequested = true;
		}
		wake();
		if (this.state == PipelineStatus.State.STOPPING && this.reader.delivered() == null) {
			// Still preparing, possibly blocked on a connection attempt: nothing to flush yet.
			thread.interrupt();
		}
		try {
			thread.join(60_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Sees what each cycle confirmed for a table and the two positions it was bounded by. */
	interface ConfirmObserver {

		void confirmed(TableId table, Position delivered, Position oldestPending, Position confirmed);

	}

	/** Routes the reader's changes to the tables' buffers. */
	private final class Router implements ChangeHandler {

		@Override
		public void onChange(RowChange change, Position resumeFrom) {
			TableRuntime table = Pipeline.this.tables.get(change.table());
			if (table != null && table.isActive()) {
				table.subscription.add(change, resumeFrom);
			}
		}

		@Override
		public TableLayout onAlter(TableId id, TableLayout current, String statement) {
			TableRuntime table = Pipeline.this.tables.get(id);
			if (table.phase == Phase.SNAPSHOTTING) {
				throw new SchemaException("Table " + id + " was altered during its snapshot (" + statement
						+ "); restart the application to snapshot it again with its new definition");
			}
			try {
				TableLayout next;
				try (Connection connection = Pipeline.this.source.getConnection()) {
					next = LayoutReader.read(connection, id, table.mapping.key());
				}
				String change = SchemaChanges.incompatibility(current, next);
				if (change != null) {
					throw new SchemaException("Table " + id + " was altered on the source in a way Tributary cannot "
							+ "follow (" + statement + "): " + change + ". Bring the target table to the new definition, "
							+ "delete the table's row from the checkpoint table and restart: it is then snapshotted again");
				}
				if (Pipeline.this.settings.listenerMode()) {
					// Batches from here on carry the new column list.
					table.flushLock.lock();
					try {
						table.layout = next;
						table.applier = ((ListenerApplier) table.applier).withLayout(next);
					}
					finally {
						table.flushLock.unlock();
					}
					if (next.columns().size() != current.columns().size()) {
						logger.info("Table {} gained {} column(s); batches for its listener carry them from now on",
								id, next.columns().size() - current.columns().size());
					}
					return next;
				}
				if (next.columns().size() == current.columns().size()) {
					return next;
				}
				List<String[]> targetColumns = TargetTables.columns(Pipeline.this.target, table.mapping.target());
				int width = SchemaChanges.writableWidth(next, targetColumns, current.columns().size());
				if (width < next.columns().size()) {
					logger.warn("Columns added to {} at the end are not in target {} and are not replicated; add them "
							+ "to the target (same names and types) and they will be from the next change on", id,
							table.mapping.target());
				}
				else {
					logger.info("Table {} gained {} column(s); replicating them into {}", id,
							next.columns().size() - current.columns().size(), table.mapping.target());
				}
				table.flushLock.lock();
				try {
					table.layout = next;
					JdbcReplaceApplier statements = new JdbcReplaceApplier(Pipeline.this.target, table.mapping.target(),
							next, width, Pipeline.this.settings.batchRows(), Pipeline.this.settings.batchBytes());
					table.applier = statements;
					table.writer = table.writer.withStatements(statements);
				}
				finally {
					table.flushLock.unlock();
				}
				return next;
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Cannot re-read the layout of " + id + " after " + statement + ": "
						+ ex.getMessage(), ex);
			}
		}

		@Override
		public void onTruncate(TableId id) {
			TableRuntime table = Pipeline.this.tables.get(id);
			if (table.phase == Phase.SNAPSHOTTING) {
				throw new SchemaException("Table " + id + " was truncated during its snapshot; restart the "
						+ "application to snapshot it again");
			}
			table.flushLock.lock();
			try {
				table.subscription.clear();
				if (table.applier instanceof ListenerApplier listener) {
					truncateForListener(table, listener);
				}
				else {
					((JdbcReplaceApplier) table.applier).truncate();
					logger.info("Table {} was truncated on the source; truncated {}", id, table.mapping.target());
				}
			}
			finally {
				table.flushLock.unlock();
			}
		}

		/**
		 * Hands a TRUNCATE to the listener. One it cannot handle stops the table (the reader fails
		 * it on the exception) with its checkpoint before the truncation, so that a restart with a
		 * fixed listener reads the truncation again.
		 */
		private void truncateForListener(TableRuntime table, ListenerApplier listener) {
			TableId id = table.mapping.source();
			try {
				listener.truncate();
				logger.info("Table {} was truncated on the source; its listener was told", id);
			}
			catch (ApplyException ex) {
				boolean unsupported = ex.getCause() instanceof UnsupportedOperationException;
				throw new SchemaException("Table " + id + " was truncated on the source and its ChangeListener "
						+ (unsupported ? "does not handle truncation" : "failed to handle it: " + ex.getCause())
						+ ". " + (unsupported ? "Implement ChangeListener.onTruncate to forget the table's rows"
								: "Fix the listener or what it depends on")
						+ " and restart: the table resumes from its checkpoint, before the truncation, and the "
						+ "listener is told again. Alternatively delete the table's row from the checkpoint table "
						+ "and restart to snapshot it again");
			}
		}

		@Override
		public void onTableFailed(TableId id, RuntimeException error) {
			TableRuntime table = Pipeline.this.tables.get(id);
			if (table != null) {
				table.fail(error.getMessage());
			}
		}

	}

}
