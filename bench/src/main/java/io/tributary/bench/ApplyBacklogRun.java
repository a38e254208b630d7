package io.tributary.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.tributary.apply.ParallelApplier;
import io.tributary.apply.TargetDriverProperties;
import io.tributary.bench.ApplyReport.Limits;
import io.tributary.bench.ApplyReport.Run;
import io.tributary.bench.ApplyReport.Shape;
import io.tributary.bench.ApplyReport.ThreadCpu;
import io.tributary.checkpoint.JdbcCheckpointStore;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.TestDatabaseServer;

/**
 * One run of the apply scenario ({@link ApplyScenario}): how fast backlogs of single-row UPDATE
 * transactions on a sysbench-shaped table are applied by Tributary's catch-up, against the native
 * replica with parallel appliers consuming the same stretch of binlog on the same machine, and
 * against the physical limits measured in the same run; and how many target writes Tributary saves
 * on hot rows. Targets: at least 12x the native replica's rate, and a catch-up time of at most 2x
 * max(raw read time, the target's own write time).
 *
 * <p>Two servers run: the run's embedded server is the source; the {@link NativeReplica} (a second
 * server of the same flavour, {@code innodb_flush_log_at_trx_commit=1}) is both the native replica
 * (schema {@code sbtest}) and Tributary's target (schema {@code tributary_target}), used by one
 * system at a time.
 *
 * <ol>
 *   <li>{@code sbtest.sbtest1} is loaded with {@code applyRows} rows on the source
 *       ({@link ApplyWorkload}). The replica replicates the load and stops; a Tributary pipeline
 *       snapshots the table, catches up and stops, which saves its checkpoint. When the ingestion
 *       backlogs serve ({@link #standAtSharedBacklog()}), their table is the source table instead
 *       and both stand at the start of their one-row backlog, already written.
 *   <li>Per backlog shape, Tributary's target table is copied aside (for the first shape only:
 *       later shapes start from the copy the target's own write left), then the backlog is written
 *       with both systems stopped at the head: {@code applyBacklog} uniform transactions, then
 *       {@code applyMixBacklog} of which {@code applyMixHotPercent} percent hit the {@code hotKeys}
 *       hot ids (the hot-row mix).
 *   <li>For each worker count (the mix: the default), a pipeline with that apply concurrency is
 *       timed from start until {@link Pipeline#awaitCaughtUp(Duration)} returns; before the second
 *       and later counts the target table and the checkpoint are put back. The replica is timed
 *       once from where it stopped, until its SQL thread has executed the head.
 *   <li>The physical limits: the raw read of the backlog's stretch of binlog (binlog client, bodies
 *       skipped, fastest of {@code 1 + warmRounds} rounds in a JVM of its own; for the shared
 *       backlog, the ingestion scenario's rounds of it), and the target's own
 *       {@code REPLACE INTO t SELECT * FROM staging} into the copy of the table as it was before the
 *       backlog, staging holding exactly the backlog's final rows (the distinct ids it updated).
 *   <li>Hot rows: {@code hotUpdates} transactions over the hot ids, once as a backlog (for a
 *       stopped pipeline and for the replica) and once while a pipeline streams; events read
 *       against rows written.
 * </ol>
 *
 * <p>In the full mode, before each timed run the scenario waits up to 90 s for other processes to
 * use less than 10% of the CPU, and records how much they used during the run.
 */
final class ApplyBacklogRun implements AutoCloseable {

	private static final double OTHERS_LIMIT = 0.10;

	/** The target: Tributary's catch-up at least this multiple of the native replica's rate. */
	private static final double REPLICA_TARGET = 12;

	/** The target: a catch-up takes at most this multiple of the physical floor. */
	private static final double FLOOR_TARGET = 2;

	/** The engine's default apply concurrency, which the hot-row and mix runs keep. */
	private static final int DEFAULT_WORKERS = ParallelApplier.DEFAULT_CONCURRENCY;

	private static final TableId TARGET_TABLE = new TableId("tributary_target", "sbtest1");

	private static final TableId TARGET_COPY = new TableId("tributary_target", "sbtest1_base");

	private static final TableId STAGING = new TableId("tributary_target", "sbtest1_staging");

	private static final TableId STAGING_IDS = new TableId("tributary_target", "sbtest1_staging_ids");

	private static final TableId CHECKPOINTS = new TableId("tributary_meta", "checkpoints");

	private static final Duration LONG_WAIT = Duration.ofMinutes(30);

	/** Share of all cores below which the target server counts as idle after its own write. */
	private static final double IDLE_LIMIT = 0.05;

	/** {@code innodb_io_capacity} while dirty pages are flushed between measurements. */
	private static final int FLUSH_CAPACITY = 50_000;

	private final ApplyWorkload workload;

	/** The source table the backlogs update. */
	private final TableId sourceTable;

	/** The ingestion backlogs, whose one-update-per-transaction backlog is the uniform one; or null. */
	private final IngestionBacklogs shared;

	private final int backlog;

	private final int mixBacklog;

	private final int mixHotPercent;

	private final int[] workerCounts;

	private final int hotUpdates;

	private final int rawRounds;

	private final Duration quietWait;

	private final ScenarioContext context;

	private final TestDatabaseServer server;

	private final NativeReplica replica;

	private final CpuMeter meter;

	private final DataSource admin;

	private final DataSource target;

	private final HikariDataSource sourcePool;

	private final StringBuilder log = new StringBuilder();

	private int nextServerId = 1001;

	/** Whether {@link #TARGET_COPY} holds what {@link #TARGET_TABLE} holds, so a shape need not copy it. */
	private boolean baseCurrent;

	/**
	 * Prepares a run.
	 * @param shared the ingestion backlogs of the server, when the uniform backlog is their
	 * one-update-per-transaction one (same size, same table size), or {@code null} to write a
	 * backlog of its own on {@code sbtest.sbtest1}
	 */
	ApplyBacklogRun(ScenarioContext context, NativeReplica replica, IngestionBacklogs shared) {
		this.context = context;
		this.server = context.server();
		this.replica = replica;
		this.meter = new CpuMeter(this.server.port(), replica.port());
		this.admin = this.server.dataSource(null);
		this.target = replica.dataSource();
		this.sourcePool = pool(this.server.jdbcUrl(null), this.server.username(), this.server.password(), 4, "source");
		BenchSettings settings = context.settings();
		this.shared = shared;
		this.sourceTable = (shared != null) ? shared.table() : ApplyWorkload.SOURCE_TABLE;
		this.workload = new ApplyWorkload(this.server, this.sourceTable,
				(shared != null) ? shared.rows() : settings.number("applyRows"), settings.number("applyClients"),
				settings.number("hotKeys"));
		this.backlog = settings.number("applyBacklog");
		this.mixBacklog = settings.number("applyMixBacklog");
		this.mixHotPercent = settings.number("applyMixHotPercent");
		this.workerCounts = settings.numbers("applyWorkers");
		this.hotUpdates = settings.number("hotUpdates");
		this.rawRounds = 1 + settings.number("warmRounds");
		this.quietWait = Duration.ofSeconds(settings.mode().equals("smoke") ? 0 : 90);
	}

	/** Closes the source pool; the servers belong to the caller. */
	@Override
	public void close() {
		this.sourcePool.close();
	}

	/** Runs every measurement and records the figures. */
	void measureAll(long benchStarted) throws Exception {
		say(this.replica.name() + ": " + this.replica.describe() + "; CPU accounting over " + this.meter.pids().size()
				+ " own processes");
		int rows = this.workload.rows();
		if (this.shared == null) {
			loadAndCopy();
		}
		else {
			standAtSharedBacklog();
		}

		List<Shape> shapes = new ArrayList<>();
		shapes.add(shape(String.format("%,d single-row transactions on %,d rows", this.backlog, rows), this.backlog, 0,
				1000, this.workerCounts));
		shapes.add(shape(String.format("%,d single-row transactions, %d%% on %d hot ids, on %,d rows", this.mixBacklog,
				this.mixHotPercent, this.workload.hotKeys(), rows), this.mixBacklog, this.mixHotPercent / 100.0, 4000,
				new int[] { DEFAULT_WORKERS }));

		// Hot rows as a backlog: the pipeline (checkpoint) and the replica both stopped at the head.
		Position beforeHot = SourceQueries.head(this.admin);
		ApplyWorkload.Backlog hot = this.workload.write(this.hotUpdates, 1, 2000);
		Position afterHot = SourceQueries.head(this.admin);
		say(String.format("Hot backlog: %,d transactions over %d ids in %.1f s; binlog %s to %s", this.hotUpdates,
				this.workload.hotKeys(), hot.seconds(), beforeHot, afterHot));
		Run hotBacklog = tributary("Tributary, hot backlog", DEFAULT_WORKERS, this.hotUpdates);
		say(hotBacklog.describe());
		Run replicaHot = replicaApply(beforeHot, afterHot, this.hotUpdates, hot.touched());
		say("Hot backlog: " + replicaHot.describe());
		Run hotLive = live();
		say(hotLive.describe());
		String finalSource = checksum(this.admin, this.sourceTable);
		String finalTarget = checksum(this.target, TARGET_TABLE);
		say("Checksums at the end: source " + finalSource + ", Tributary target " + finalTarget);

		List<Run> hotRuns = List.of(hotBacklog, hotLive, replicaHot);
		record(shapes, hotRuns);
		String setup = String.format("Source %s %s; %s and Tributary's target: %s. %,d rows; backlogs from %d "
				+ "clients; hot rows: %,d transactions over %d ids. %.0f s in all.", this.server.flavor(),
				this.server.version(), this.replica.name(), this.replica.describe(), rows,
				this.context.settings().number("applyClients"), this.hotUpdates, this.workload.hotKeys(),
				seconds(benchStarted));
		this.context.detail(ApplyReport.render(this.server.flavor() + " " + this.server.version(), setup, shapes,
				hotRuns, "`COUNT(*)/SUM(CRC32(CONCAT_WS('#', id, k, c, pad)))` at the end: source " + finalSource
						+ ", Tributary target " + finalTarget, this.log));
	}

	/**
	 * Loads the table on the source, lets the replica apply the load and stop, and lets Tributary
	 * snapshot the table and stop: both stand at the head.
	 */
	private void loadAndCopy() throws Exception {
		Position beforeLoad = SourceQueries.head(this.admin);
		double loadSeconds = this.workload.load();
		Position afterLoad = SourceQueries.head(this.admin);
		say(String.format("Loaded %,d rows in %.1f s; binlog %s to %s", this.workload.rows(), loadSeconds, beforeLoad,
				afterLoad));
		this.replica.replicateFrom(this.server.host(), this.server.port(), this.server.username(),
				this.server.password(), beforeLoad);
		long started = System.nanoTime();
		this.replica.startReplica();
		this.replica.awaitExecuted(afterLoad, LONG_WAIT);
		this.replica.stopReplica();
		say(String.format("%s applied the load in %.1f s and stopped at %s", this.replica.name(), seconds(started),
				this.replica.status().executed()));
		snapshotToHead();
	}

	/** Lets a Tributary pipeline snapshot the table into its target, catch up and stop, saving its checkpoint. */
	private void snapshotToHead() throws Exception {
		long started = System.nanoTime();
		try (HikariDataSource targetPool = targetPool(8)) {
			Pipeline snapshot = new Pipeline(settings(DEFAULT_WORKERS), this.sourcePool, targetPool);
			snapshot.start();
			snapshot.awaitCaughtUp(LONG_WAIT);
			snapshot.close();
		}
		say(String.format("Tributary snapshot and catch-up in %.1f s; checkpoint %s", seconds(started), checkpoint()));
	}

	/**
	 * Puts the replica and Tributary at the start of the ingestion scenario's backlog of one update
	 * per transaction, which the source has already written, so the uniform shape reads it rather
	 * than a backlog of its own. The replica replays only the copy of the table that the source made
	 * right before that backlog ({@link IngestionBacklogs#startCopy()}: {@code START ... UNTIL} the
	 * backlog's start, committing without syncing meanwhile), renames it to the table's name and
	 * forgets what it fetched beyond; the source drops its copy without logging it. Tributary's
	 * target table is the replica's copy, and its checkpoint, written as a pipeline writes it when
	 * its snapshot is done, is the backlog's start: the first pipeline resumes there.
	 */
	private void standAtSharedBacklog() throws Exception {
		IngestionBacklogs.Backlog uniform = this.shared.onePerTransaction();
		Position start = uniform.from();
		Position copied = this.shared.startCopy();
		if (copied == null) {
			throw new IllegalStateException("The ingestion backlogs were written without the copy of the table at the "
					+ "one-row backlog's start");
		}
		TableId copy = new TableId(this.sourceTable.schema(), IngestionBacklogs.START_COPY);
		long started = System.nanoTime();
		Map<String, String> durability = new LinkedHashMap<>();
		for (String name : List.of("innodb_flush_log_at_trx_commit", "sync_binlog")) {
			durability.put(name, this.replica.variable(name));
		}
		this.replica.execute("SET GLOBAL innodb_flush_log_at_trx_commit = 2", "SET GLOBAL sync_binlog = 0",
				"CREATE DATABASE IF NOT EXISTS " + TableId.quote(this.sourceTable.schema()),
				"DROP TABLE IF EXISTS " + this.sourceTable.quoted(), "DROP TABLE IF EXISTS " + copy.quoted());
		try {
			this.replica.replicateFrom(this.server.host(), this.server.port(), this.server.username(),
					this.server.password(), copied);
			this.replica.startReplicaUntil(start);
			this.replica.awaitExecuted(start, LONG_WAIT);
			this.replica.stopReplica();
		}
		finally {
			for (Map.Entry<String, String> variable : durability.entrySet()) {
				this.replica.execute("SET GLOBAL " + variable.getKey() + " = " + variable.getValue());
			}
		}
		Position at = this.replica.status().executed();
		if (at == null || !sameOffset(at, start)) {
			throw new IllegalStateException(this.replica.name() + " stopped at " + at + ", not at the backlog's start "
					+ start);
		}
		this.replica.execute("RENAME TABLE " + copy.quoted() + " TO " + this.sourceTable.quoted());
		String sourceSum = checksum(this.admin, copy);
		String replicaSum = checksum(this.target, this.sourceTable);
		if (!sourceSum.equals(replicaSum)) {
			throw new IllegalStateException(this.replica.name() + "'s table at the backlog's start " + replicaSum
					+ " differs from the source's copy " + sourceSum);
		}
		this.replica.replicateFrom(this.server.host(), this.server.port(), this.server.username(),
				this.server.password(), start);
		try (Connection connection = this.admin.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION sql_log_bin = 0");
			try {
				statement.execute("DROP TABLE " + copy.quoted());
			}
			finally {
				statement.execute("SET SESSION sql_log_bin = 1");
			}
		}
		say(String.format("%s replayed the source's copy of the table from %s to the start of the ingestion "
				+ "scenario's backlog %s in %.1f s; both hold %s", this.replica.name(), copied, start, seconds(started),
				sourceSum));
		started = System.nanoTime();
		String gtids = uniform.fromGtids().isEmpty() ? null : uniform.fromGtids();
		Position checkpoint = Position.of(start.file(), start.offset(), gtids, sourceServerId());
		copyTable(this.sourceTable, TARGET_TABLE);
		JdbcCheckpointStore store = new JdbcCheckpointStore(this.target, CHECKPOINTS, "default");
		store.initialize();
		store.save(List.of(new TableCheckpoint(this.sourceTable, new Destination.Table(TARGET_TABLE), true, checkpoint, null,
				Instant.now())));
		say(String.format("Tributary's target table is the replica's copy, and its checkpoint (table copied, "
				+ "position %s) was written in %.1f s", checkpoint, seconds(started)));
	}

	/** The source's {@code server_id}, which a checkpoint's position names. */
	private long sourceServerId() throws SQLException {
		try (Connection connection = this.admin.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT @@server_id")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	private static boolean sameOffset(Position a, Position b) {
		return a.file().equals(b.file()) && a.offset() == b.offset();
	}

	/**
	 * Writes one backlog with the pipeline and the replica stopped at the head, and applies it with
	 * each system from the same start; then measures its physical limits.
	 * @param hotShare share of the transactions that hit a hot id
	 * @param seed seed of the clients' ids
	 * @param workerCounts apply concurrencies of the timed Tributary runs
	 */
	private Shape shape(String name, int count, double hotShare, long seed, int[] workerCounts) throws Exception {
		// Both stand at the head: Tributary's target table and checkpoint, and the replica's table and
		// position. Each system applies the backlog once from there, so only Tributary's second and
		// later runs need the table put back, from a copy that the target's own write then reuses.
		String checkpoint = checkpoint();
		if (!this.baseCurrent) {
			copyTable(TARGET_TABLE, TARGET_COPY);
		}
		Position replicaStart = this.replica.status().executed();

		Position before;
		Position after;
		ApplyWorkload.Backlog backlog;
		long logged;
		long bytes;
		if (this.shared != null && hotShare == 0) {
			IngestionBacklogs.Backlog uniform = this.shared.onePerTransaction();
			before = uniform.from();
			after = uniform.to();
			backlog = new ApplyWorkload.Backlog(count, 0, uniform.seconds(), this.shared.touched());
			logged = uniform.transactions();
			bytes = uniform.bytes();
			say(String.format("Backlog %s: the ingestion scenario's backlog of one update per transaction, written in "
					+ "%.1f s (%.0f/s) by %d clients, %,d transactions, %,d distinct ids; binlog %s to %s, %,d bytes",
					name, backlog.seconds(), count / backlog.seconds(), this.context.settings().number("clients"),
					logged, backlog.distinctKeys(), before, after, bytes));
		}
		else {
			before = SourceQueries.head(this.admin);
			long transactionsBefore = ServerSideUpdates.transactionsLogged(this.server);
			backlog = this.workload.write(count, hotShare, seed);
			after = SourceQueries.head(this.admin);
			logged = ServerSideUpdates.transactionsLogged(this.server) - transactionsBefore;
			bytes = IngestionBacklogs.bytesBetween(before, after, SourceQueries.binaryLogs(this.admin));
			say(String.format("Backlog %s: written in %.1f s (%.0f/s), %,d transactions logged, %,d distinct ids; "
					+ "binlog %s to %s, %,d bytes", name, backlog.seconds(), count / backlog.seconds(), logged,
					backlog.distinctKeys(), before, after, bytes));
		}
		if (replicaStart == null || !sameOffset(replicaStart, before) || !sameOffset(Position.parse(checkpoint), before)) {
			say("Note: replica start " + replicaStart + ", checkpoint " + checkpoint + " and backlog start " + before
					+ " differ");
		}

		// Names the recordings of this shape's runs apart from the other shape's.
		String shapeTag = (hotShare > 0) ? "mix" : "uniform";
		List<Run> runs = new ArrayList<>();
		for (int i = 0; i < workerCounts.length; i++) {
			int workers = workerCounts[i];
			boolean restore = i > 0;
			runs.add(measure(shapeTag, "Tributary, " + workers + " workers", () -> {
				if (restore) {
					restoreTarget(checkpoint);
				}
				return tributary("Tributary", workers, count);
			}));
		}
		Run replicaRun = measure(shapeTag, this.replica.name(),
				() -> replicaApply(before, after, count, backlog.touched()));
		String sourceSum = checksum(this.admin, this.sourceTable);
		String replicaSum = checksum(this.target, this.sourceTable);
		String tributarySum = checksum(this.target, TARGET_TABLE);

		// The ingestion scenario read the shared backlog raw already, in the same way: its rounds stand.
		Optional<List<ReaderMain.Round>> earlier = (this.shared != null && hotShare == 0)
				? this.context.rawRead(this.shared.onePerTransaction()) : Optional.empty();
		List<ReaderMain.Round> raw = earlier.isPresent() ? earlier.get()
				: this.context.readers().run("raw-" + (hotShare > 0 ? "mix" : "uniform"), "raw", rawReadArgs(before, after));
		String rawWhere = earlier.isPresent() ? "the ingestion scenario's raw read of this backlog, in one JVM of its own"
				: "in one JVM of its own";
		double rawSeconds = raw.stream().mapToDouble(ReaderMain.Round::seconds).min().orElseThrow();
		String rawRounds = raw.stream().map((round) -> String.format("%.2f", round.seconds()))
			.reduce((a, b) -> a + ", " + b).orElse("");
		OwnWrite write = targetWrite(backlog.touched());
		Limits limits = new Limits(rawSeconds, rawRounds, rawWhere, write.seconds(), backlog.distinctKeys(),
				write.busyAfterSeconds());
		String writtenSum = checksum(this.target, TARGET_COPY);
		String checks = String.format("source %s, %s %s, Tributary target %s, after the target's own write %s",
				sourceSum, this.replica.name(), replicaSum, tributarySum, writtenSum);
		if (!replicaSum.equals(sourceSum) || !tributarySum.equals(sourceSum) || !writtenSum.equals(sourceSum)) {
			throw new IllegalStateException("The copies of " + this.sourceTable + " differ after " + name + ": " + checks);
		}
		say("Physical limits: " + limits.describe() + "; checksums " + checks);
		return new Shape(name, backlog, logged, bytes, runs, replicaRun, limits, checks);
	}

	/** Records the figures of every shape and of the hot rows, and what bounds them. */
	private void record(List<Shape> shapes, List<Run> hot) {
		String flavor = this.context.flavor();
		for (Shape shape : shapes) {
			List<Run> all = new ArrayList<>(shape.runs());
			all.add(shape.replica());
			for (Run run : all) {
				this.context.record(ResultRow.measured("apply", flavor, shape.name(), run.system() + ", " + run.workers()
						+ " worker(s)", run.rate(), "changes/s", run.describe()));
			}
			Limits limits = shape.limits();
			this.context.record(ResultRow.measured("apply", flavor, shape.name(), "raw read of the backlog",
					limits.rawSeconds(), "s", "fastest of rounds " + limits.rawRounds() + " s, " + limits.rawWhere()));
			this.context.record(ResultRow.measured("apply", flavor, shape.name(), "target's own write of the final rows",
					limits.writeSeconds(), "s", String.format("REPLACE INTO t SELECT * FROM staging, %,d rows; the "
							+ "target server busy %s more after it, purging old row versions and writing pages",
							limits.finalRows(), limits.busyAfter())));
			Run best = shape.best();
			String measure = best.system() + ", " + best.workers() + " worker(s)";
			this.context.record(ResultRow.compared("apply", flavor, shape.name(), measure, best.rate(), "changes/s",
					this.replica.name() + ", " + shape.replica().workers() + " threads", shape.replica().rate(),
					REPLICA_TARGET, ""));
			this.context.record(ResultRow.bounded("apply", flavor, shape.name(), measure + ", catch-up time",
					best.seconds(), "s", "max(raw read, target's own write)", limits.floor(), FLOOR_TARGET,
					limits.describe()));
			this.context.bound(String.format("%s: Tributary's catch-up %.1f s is %.1fx the floor of %.1f s set by %s "
					+ "(raw read %.1f s, target's own write %.1f s, after which the target purged for %s more, "
					+ "work a catch-up does while it runs); its JVM's CPU seconds: %s", shape.name(), best.seconds(),
					best.seconds() / limits.floor(), limits.floor(), limits.floorName(), limits.rawSeconds(),
					limits.writeSeconds(), limits.busyAfter(), best.threadCpu()));
		}
		String hotShape = String.format("%,d hot-row transactions over %d ids", this.hotUpdates, this.workload.hotKeys());
		for (Run run : hot) {
			this.context.record(ResultRow.measured("apply", flavor, hotShape, run.system() + ", events per write",
					(double) run.events() / Math.max(1, run.writes()), "events/write", String.format("%,d events, %,d "
							+ "target writes in %.2f s", run.events(), run.writes(), run.seconds())));
		}
	}

	/** The arguments of a reader JVM that reads the backlog's stretch raw. */
	private Map<String, String> rawReadArgs(Position from, Position to) {
		Map<String, String> args = new LinkedHashMap<>();
		args.put("host", this.server.host());
		args.put("port", Integer.toString(this.server.port()));
		args.put("user", this.server.username());
		args.put("password", this.server.password());
		args.put("from", Position.of(from.file(), from.offset()).toString());
		args.put("to", Position.of(to.file(), to.offset()).toString());
		args.put("rounds", Integer.toString(this.rawRounds));
		return args;
	}

	/**
	 * Times the target server's own write of a backlog's final rows: staging is filled with the
	 * target table's rows of the touched ids (the table holds the final state after the catch-up
	 * runs), and {@code REPLACE INTO t SELECT * FROM staging} is timed on the copy of the table as it
	 * was before the backlog, of the same definition and in the same buffer pool. The copy holds the
	 * final state afterwards, as the table does, so the next shape starts from it without copying.
	 * @return how long the statement took, and how long the target server stayed busy after it
	 */
	private OwnWrite targetWrite(BitSet touched) throws Exception {
		execute(this.target, "DROP TABLE IF EXISTS " + STAGING.quoted(),
				"CREATE TABLE " + STAGING.quoted() + " LIKE " + TARGET_TABLE.quoted());
		fillIds(touched);
		execute(this.target, "INSERT INTO " + STAGING.quoted() + " SELECT t.* FROM " + TARGET_TABLE.quoted()
				+ " t JOIN " + STAGING_IDS.quoted() + " s ON s.id = t.id");
		flushDirtyPages();
		awaitQuiet();
		long started = System.nanoTime();
		execute(this.target, "REPLACE INTO " + TARGET_COPY.quoted() + " SELECT * FROM " + STAGING.quoted());
		double elapsed = seconds(started);
		// The statement has returned; what keeps the target server busy is purging what it replaced.
		double busyAfter = CpuMeter.awaitServerIdle(this.replica.port(), IDLE_LIMIT, Duration.ofMinutes(2));
		execute(this.target, "DROP TABLE " + STAGING.quoted(), "DROP TABLE " + STAGING_IDS.quoted());
		this.baseCurrent = true;
		return new OwnWrite(elapsed, busyAfter);
	}

	/** Creates the table of ids on the target afresh and fills it with the given ones. */
	private void fillIds(BitSet ids) throws SQLException {
		execute(this.target, "DROP TABLE IF EXISTS " + STAGING_IDS.quoted(),
				"CREATE TABLE " + STAGING_IDS.quoted() + " (id INT NOT NULL PRIMARY KEY)");
		try (Connection connection = this.target.getConnection();
				PreparedStatement insert = connection.prepareStatement("INSERT INTO " + STAGING_IDS.quoted()
						+ " (id) VALUES (?)")) {
			int batched = 0;
			for (int id = ids.nextSetBit(0); id >= 0; id = ids.nextSetBit(id + 1)) {
				insert.setInt(1, id);
				insert.addBatch();
				if (++batched % 10_000 == 0) {
					insert.executeBatch();
				}
			}
			insert.executeBatch();
		}
	}

	/**
	 * The target server's own write of a backlog's final rows.
	 *
	 * @param seconds the statement's time
	 * @param busyAfterSeconds how long the target server stayed busy after it returned; -1 when it
	 * was not quiet within two minutes
	 */
	private record OwnWrite(double seconds, double busyAfterSeconds) {

	}

	/**
	 * Runs a measured stretch once, under Flight Recorder and perf when the run asks for them, and
	 * logs it; the recordings are named after the shape ({@code uniform} or {@code mix}) and the run.
	 */
	private Run measure(String shapeTag, String name, Callable<Run> attempt) throws Exception {
		String label = shapeTag + "-" + name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
		Run run = this.context.profiled(label, attempt);
		say(name + ": " + run.describe());
		return run;
	}

	/** Waits a while for other processes to go quiet. */
	private void awaitQuiet() throws InterruptedException {
		if (this.quietWait.isZero()) {
			return;
		}
		double waited = this.meter.awaitQuiet(OTHERS_LIMIT, this.quietWait);
		if (waited > 5) {
			say(String.format("Waited %.0f s for other processes to go quiet", waited));
		}
	}

	/**
	 * Applies the backlog with a fresh pipeline of the given concurrency and times it from
	 * {@link Pipeline#start()} until {@link Pipeline#awaitCaughtUp(Duration)} returns.
	 */
	private Run tributary(String system, int workers, int transactions) throws Exception {
		try (HikariDataSource targetPool = targetPool(workers + 4)) {
			flushDirtyPages();
			awaitQuiet();
			Pipeline pipeline = new Pipeline(settings(workers), this.sourcePool, targetPool);
			long loadsBefore = Long.parseLong(globalStatus(targetPool, "Com_load"));
			CpuMeter.Sample cpu = this.meter.sample();
			ThreadCpu threads = ThreadCpu.now();
			long started = System.nanoTime();
			pipeline.start();
			pipeline.awaitCaughtUp(LONG_WAIT);
			double elapsed = seconds(started);
			CpuMeter.Share share = cpu.untilNow(this.meter);
			String breakdown = threads.since();
			TableStatus table = pipeline.status().tables().get(0);
			pipeline.close();
			say(String.format("%s: %,d of its %,d batches were streamed loads (the target's Com_load)", system,
					Long.parseLong(globalStatus(targetPool, "Com_load")) - loadsBefore, table.apply().batchesApplied()));
			return new Run(system, workers, transactions, elapsed, table.keysAdded(), table.apply().rowsUpserted(),
					table.apply().batchesApplied(), table.apply().contentionEvents(), share, breakdown);
		}
	}

	/** Waits until the pipeline has confirmed a position and holds nothing, polling its status. */
	private static void awaitConfirmed(Pipeline pipeline, Position head) throws InterruptedException {
		long deadline = System.nanoTime() + LONG_WAIT.toNanos();
		while (true) {
			PipelineStatus status = pipeline.status();
			String confirmed = status.position().confirmed();
			if (confirmed != null && Position.parse(confirmed).compareTo(head) >= 0
					&& status.tables().get(0).bufferedKeys() == 0) {
				return;
			}
			if (status.state() == PipelineStatus.State.FAILED || System.nanoTime() > deadline) {
				throw new IllegalStateException("Pipeline not at " + head + ": " + status.state() + ", confirmed "
						+ confirmed + ", " + status.lastError());
			}
			Thread.sleep(20);
		}
	}

	/**
	 * Times starting the replica until its SQL thread has executed {@code head}, or until
	 * {@code replicaSeconds} have passed, then stops it. A replica stopped short is credited with the
	 * backlog's transactions in proportion to the binlog bytes it executed: the backlog's
	 * transactions are all alike, so that is the count it applied, and its rate is that over the time.
	 * It then gets Tributary's copy of the rows of {@code touched} (the ids the backlog updated), or
	 * of the whole table when they are many, and goes on from the head.
	 */
	private Run replicaApply(Position from, Position head, int transactions, BitSet touched) throws Exception {
		flushDirtyPages();
		awaitQuiet();
		long retriedBefore = this.replica.retriedTransactions();
		CpuMeter.Sample cpu = this.meter.sample();
		long started = System.nanoTime();
		this.replica.startReplica();
		NativeReplica.Status status = this.replica.awaitExecutedWithin(head,
				Duration.ofSeconds(this.context.settings().number("replicaSeconds")));
		double elapsed = seconds(started);
		CpuMeter.Share share = cpu.untilNow(this.meter);
		this.replica.stopReplica();
		long retriedAfter = this.replica.retriedTransactions();
		long retried = (retriedBefore >= 0 && retriedAfter >= 0) ? retriedAfter - retriedBefore : -1;
		long applied = transactions;
		if (status.executed() == null || status.executed().compareTo(head) < 0) {
			Map<String, Long> files = SourceQueries.binaryLogs(this.admin);
			Position at = (status.executed() != null) ? status.executed() : from;
			double part = (double) IngestionBacklogs.bytesBetween(from, at, files)
					/ IngestionBacklogs.bytesBetween(from, head, files);
			applied = Math.round(transactions * part);
			say(String.format("%s stopped after %.0f s at %s, %.1f%% of the backlog's binlog: credited with %,d of "
					+ "%,d transactions; it goes on from the head with Tributary's copy of the rows",
					this.replica.name(), elapsed, at, 100 * part, applied, transactions));
			// Tributary's target, which caught up before, holds the source's rows at the head: the
			// replica goes on from there, so the next backlog is measured from its own start. Only
			// the rows the backlog touched can differ, and when they are few, only those are
			// replaced; a whole copy is an insert into an empty table, cheaper per row than a
			// replace of an existing one. The checksums after the shape check the result.
			long copyStarted = System.nanoTime();
			if (touched.cardinality() < this.workload.rows() / 2) {
				fillIds(touched);
				execute(this.target, "REPLACE INTO " + this.sourceTable.quoted() + " SELECT t.* FROM "
						+ TARGET_TABLE.quoted() + " t JOIN " + STAGING_IDS.quoted() + " s ON s.id = t.id",
						"DROP TABLE " + STAGING_IDS.quoted());
				say(String.format("Replaced the %,d rows the backlog touched in the %s's table with Tributary's in %.1f s",
						touched.cardinality(), this.replica.name(), seconds(copyStarted)));
			}
			else {
				copyTable(TARGET_TABLE, this.sourceTable);
				say(String.format("Copied Tributary's target table into the %s's in %.1f s", this.replica.name(),
						seconds(copyStarted)));
			}
			this.replica.replicateFrom(this.server.host(), this.server.port(), this.server.username(),
					this.server.password(), head);
		}
		return new Run(this.replica.name(), this.context.settings().number("replicaThreads"), applied, elapsed,
				applied, applied, -1, retried, share, null);
	}

	/** Hot rows while a caught-up pipeline with default settings streams. */
	private Run live() throws Exception {
		try (HikariDataSource targetPool = targetPool(DEFAULT_WORKERS + 4)) {
			Pipeline pipeline = new Pipeline(settings(DEFAULT_WORKERS), this.sourcePool, targetPool);
			pipeline.start();
			pipeline.awaitCaughtUp(LONG_WAIT);
			flushDirtyPages();
			awaitQuiet();
			TableStatus before = pipeline.status().tables().get(0);
			CpuMeter.Sample cpu = this.meter.sample();
			long started = System.nanoTime();
			double generated = this.workload.stream(this.hotUpdates, 1, 3000).seconds();
			awaitConfirmed(pipeline, SourceQueries.head(this.sourcePool));
			double elapsed = seconds(started);
			CpuMeter.Share share = cpu.untilNow(this.meter);
			TableStatus after = pipeline.status().tables().get(0);
			pipeline.close();
			say(String.format("Hot rows while streaming: %,d transactions generated in %.1f s", this.hotUpdates, generated));
			return new Run("Tributary, hot rows streaming", DEFAULT_WORKERS, this.hotUpdates, elapsed,
					after.keysAdded() - before.keysAdded(), after.apply().rowsUpserted() - before.apply().rowsUpserted(),
					after.apply().batchesApplied() - before.apply().batchesApplied(),
					after.apply().contentionEvents() - before.apply().contentionEvents(), share, null);
		}
	}

	private PipelineSettings settings(int workers) {
		// Plain connections, as the native replica's: no TLS on either side.
		SourceSettings source = new SourceSettings(this.server.host(), this.server.port(), this.server.username(),
				this.server.password(), this.nextServerId++, Duration.ofSeconds(10), Duration.ofSeconds(5),
				SslMode.DISABLED, null);
		return PipelineSettings.of(source, List.of(new TableMapping(this.sourceTable, TARGET_TABLE)), CHECKPOINTS)
			.withApplyConcurrency(workers)
			.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false));
	}

	private HikariDataSource targetPool(int size) throws SQLException {
		return targetPool(this.replica.jdbcUrl(), ReplicaServer.USER, ReplicaServer.PASSWORD, size, "target");
	}

	/** A small Hikari pool; the kafka scenario's too. */
	static HikariDataSource pool(String url, String user, String password, int size, String name) {
		return pool(url, user, password, size, name, Map.of());
	}

	/**
	 * A small Hikari pool to a target with the driver properties Tributary's own target pool gives
	 * that server by default (server-side statements on MariaDB and streamed snapshot loads, see
	 * {@link TargetDriverProperties}),
	 * after one connection of its own has asked the server what it is.
	 */
	static HikariDataSource targetPool(String url, String user, String password, int size, String name)
			throws SQLException {
		String version;
		try (Connection probe = DriverManager.getConnection(url, user, password)) {
			version = probe.getMetaData().getDatabaseProductVersion();
		}
		Map<String, String> properties = new LinkedHashMap<>(TargetDriverProperties.forServer(version));
		properties.putAll(TargetDriverProperties.streamedLoads());
		return pool(url, user, password, size, name, properties);
	}

	private static HikariDataSource pool(String url, String user, String password, int size, String name,
			Map<String, String> driverProperties) {
		HikariConfig config = new HikariConfig();
		driverProperties.forEach(config::addDataSourceProperty);
		config.setJdbcUrl(url);
		config.setUsername(user);
		config.setPassword(password);
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(0);
		config.setPoolName("bench-" + name);
		return new HikariDataSource(config);
	}

	private String checkpoint() throws SQLException {
		try (Connection connection = this.target.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT binlog_position FROM " + CHECKPOINTS.quoted()
						+ " WHERE pipeline = 'default' AND source_table = '" + this.sourceTable + "'")) {
			if (!rs.next()) {
				throw new IllegalStateException("No checkpoint saved for " + this.sourceTable);
			}
			return rs.getString(1);
		}
	}

	/** Copies a table of the replica server into a new table of the same definition. */
	private void copyTable(TableId from, TableId to) throws SQLException {
		execute(this.target, "CREATE DATABASE IF NOT EXISTS " + TableId.quote(to.schema()),
				"DROP TABLE IF EXISTS " + to.quoted(), "CREATE TABLE " + to.quoted() + " LIKE " + from.quoted(),
				"INSERT INTO " + to.quoted() + " SELECT * FROM " + from.quoted());
	}

	/** Puts Tributary's target table and checkpoint back to where they were before the backlog. */
	private void restoreTarget(String checkpoint) throws SQLException {
		copyTable(TARGET_COPY, TARGET_TABLE);
		setCheckpoint(checkpoint);
	}

	/** Sets the binlog position of Tributary's checkpoint of the table. */
	private void setCheckpoint(String checkpoint) throws SQLException {
		try (Connection connection = this.target.getConnection();
				PreparedStatement update = connection.prepareStatement("UPDATE " + CHECKPOINTS.quoted()
						+ " SET binlog_position = ? WHERE pipeline = 'default' AND source_table = ?")) {
			update.setString(1, checkpoint);
			update.setString(2, this.sourceTable.toString());
			if (update.executeUpdate() != 1) {
				throw new IllegalStateException("Checkpoint row of " + this.sourceTable + " not found");
			}
		}
	}

	/**
	 * Lets InnoDB on the replica server write its dirty pages before a measurement, so no run pays
	 * for the page writes of a restore or of the run before it. Waits at most a minute.
	 */
	private void flushDirtyPages() throws SQLException, InterruptedException {
		double seconds = flushDirtyPages(this.target);
		if (seconds > 2) {
			say(String.format("Waited %.0f s for the target server to write its dirty pages", seconds));
		}
	}

	/**
	 * Lets InnoDB on a server write its dirty pages, waiting at most a minute; the kafka scenario's
	 * too. Its flushing settings are what they were afterwards.
	 * @return seconds waited
	 */
	static double flushDirtyPages(DataSource server) throws SQLException, InterruptedException {
		String previous = globalVariable(server, "innodb_max_dirty_pages_pct");
		String capacity = globalVariable(server, "innodb_io_capacity");
		String capacityMax = globalVariable(server, "innodb_io_capacity_max");
		long started = System.nanoTime();
		// The page cleaner writes at most innodb_io_capacity_max pages a second when behind (2,000 by
		// default, minutes for a restored table); the servers' files are local, so let it write at
		// the disk's pace while nothing is measured. The maximum is raised first: it may not be below
		// the capacity.
		execute(server, "SET GLOBAL innodb_io_capacity_max = " + FLUSH_CAPACITY,
				"SET GLOBAL innodb_io_capacity = " + FLUSH_CAPACITY, "SET GLOBAL innodb_max_dirty_pages_pct = 0");
		try {
			long deadline = started + Duration.ofMinutes(1).toNanos();
			while (Long.parseLong(globalStatus(server, "Innodb_buffer_pool_pages_dirty")) > 200
					&& System.nanoTime() < deadline) {
				Thread.sleep(100);
			}
		}
		finally {
			execute(server, "SET GLOBAL innodb_max_dirty_pages_pct = " + previous,
					"SET GLOBAL innodb_io_capacity = " + capacity, "SET GLOBAL innodb_io_capacity_max = " + capacityMax);
		}
		return seconds(started);
	}

	/** {@code COUNT(*)/SUM(CRC32(...))} of a sysbench-shaped table; the kafka scenario's check too. */
	static String checksum(DataSource pool, TableId table) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COUNT(*), SUM(CRC32(CONCAT_WS('#', id, k, c, pad))) FROM "
						+ table.quoted())) {
			rs.next();
			return rs.getLong(1) + "/" + rs.getLong(2);
		}
	}

	private static String globalVariable(DataSource pool, String name) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT @@GLOBAL." + name)) {
			rs.next();
			return rs.getString(1);
		}
	}

	private static String globalStatus(DataSource pool, String name) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW GLOBAL STATUS LIKE '" + name + "'")) {
			return rs.next() ? rs.getString(2) : "0";
		}
	}

	private static void execute(DataSource pool, String... sql) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			for (String s : sql) {
				statement.execute(s);
			}
		}
	}

	private static double seconds(long startedNanos) {
		return (System.nanoTime() - startedNanos) / 1e9;
	}

	private void say(String line) {
		this.log.append("- ").append(line).append('\n');
		this.context.say(line);
	}

}
