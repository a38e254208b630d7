package io.tributary.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.tributary.apply.ParallelApplier;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.TableId;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.TestDatabaseServer;

/**
 * One run of the apply scenario ({@link ApplyScenario}): how fast a backlog of single-row UPDATE transactions on a sysbench-shaped table is
 * applied by Tributary's catch-up, against a native MariaDB replica with parallel appliers
 * consuming the same stretch of binlog on the same machine, and how many target writes Tributary
 * saves on hot rows. Target: at least 12x the native replica's rate. MariaDB only.
 *
 * <p>Two servers run: the run's embedded MariaDB is the source; a second embedded MariaDB
 * ({@link ReplicaServer}: no binary log, {@code replicaThreads} parallel appliers, optimistic mode,
 * {@code innodb_flush_log_at_trx_commit=1}) is both the native replica (schema {@code sbtest}) and
 * Tributary's target (schema {@code tributary_target}), used by one system at a time.
 *
 * <ol>
 *   <li>{@code sbtest.sbtest1} is loaded with {@code rows} rows on the source. The replica
 *       replicates the load from the binlog position before it and stops; a Tributary pipeline
 *       snapshots the table, catches up and stops, which saves its checkpoint. Both copies of the
 *       table are saved aside on the replica server.
 *   <li>With both stopped, {@code backlog} transactions, each one
 *       {@code UPDATE sbtest1 SET k = k + 1 WHERE id = ?} on a uniformly random id in auto-commit
 *       mode, are run from {@code clients} connections.
 *   <li>For each worker count, the target table and the checkpoint are put back to where they were
 *       before the backlog; a pipeline with that apply concurrency is started and timed until
 *       {@link Pipeline#awaitCaughtUp(Duration)} returns. One more run at the default concurrency
 *       detects caught up by polling the status instead, which does not wake the catch-up loop.
 *   <li>The replica's table and position are put back likewise; {@code START SLAVE} is timed until
 *       its SQL thread has executed the source's head.
 *   <li>Hot rows: {@code hotUpdates} transactions over {@code hotKeys} ids, once as a backlog
 *       (for a stopped pipeline and for the replica) and once while a pipeline streams; events
 *       read against rows written.
 * </ol>
 *
 * <p>In the full mode, before each timed run the scenario waits up to 90 s for other processes to
 * use less than 10% of the CPU, and records how much they used during the run.
 */
final class ApplyBacklogRun implements AutoCloseable {

	static final String REPLICA_MODE = "optimistic";

	static final int REPLICA_FLUSH = 1;

	private static final double OTHERS_LIMIT = 0.10;

	/** The target: Tributary's catch-up at least this multiple of the native replica's rate. */
	private static final double REPLICA_TARGET = 12;

	/** Hot rows: at least this many events per target write. */
	private static final double HOT_TARGET = 100;

	/** The engine's default apply concurrency, which the hot-row runs keep. */
	private static final int DEFAULT_WORKERS = ParallelApplier.DEFAULT_CONCURRENCY;

	private static final TableId SOURCE_TABLE = new TableId("sbtest", "sbtest1");

	private static final TableId REPLICA_COPY = new TableId("replica_base", "sbtest1");

	private static final TableId TARGET_TABLE = new TableId("tributary_target", "sbtest1");

	private static final TableId TARGET_COPY = new TableId("tributary_target", "sbtest1_base");

	private static final TableId CHECKPOINTS = new TableId("tributary_meta", "checkpoints");

	private static final Duration LONG_WAIT = Duration.ofMinutes(30);

	private final int rows;

	private final int backlog;

	private final int clients;

	private final int[] workerCounts;

	private final int replicaThreads;

	private final int hotKeys;

	private final int hotUpdates;

	private final Duration quietWait;

	private final ScenarioContext context;

	private final TestDatabaseServer server;

	private final ReplicaServer replica;

	private final CpuMeter meter;

	private final DataSource admin;

	private final DataSource target;

	private final HikariDataSource sourcePool;

	private final StringBuilder log = new StringBuilder();

	private int nextServerId = 1001;

	ApplyBacklogRun(ScenarioContext context, ReplicaServer replica) {
		this.context = context;
		this.server = context.server();
		this.replica = replica;
		this.meter = new CpuMeter(this.server.port(), replica.port());
		this.admin = this.server.dataSource(null);
		this.target = replica.dataSource();
		this.sourcePool = pool(this.server.jdbcUrl(null), this.server.username(), this.server.password(), 4, "source");
		BenchSettings settings = context.settings();
		this.rows = settings.number("applyRows");
		this.backlog = settings.number("applyBacklog");
		this.clients = settings.number("applyClients");
		this.workerCounts = settings.numbers("applyWorkers");
		this.replicaThreads = settings.number("replicaThreads");
		this.hotKeys = settings.number("hotKeys");
		this.hotUpdates = settings.number("hotUpdates");
		this.quietWait = Duration.ofSeconds(settings.mode().equals("smoke") ? 0 : 90);
	}

	/** Closes the source pool; the servers belong to the caller. */
	@Override
	public void close() {
		this.sourcePool.close();
	}

	/** Runs every measurement and records the figures. */
	void measureAll(long benchStarted) throws Exception {
		say("Replica server: " + this.replica.variable("version") + ", slave_parallel_threads="
				+ this.replica.variable("slave_parallel_threads") + ", slave_parallel_mode="
				+ this.replica.variable("slave_parallel_mode") + ", innodb_flush_log_at_trx_commit="
				+ this.replica.variable("innodb_flush_log_at_trx_commit") + "; CPU accounting over "
				+ this.meter.pids().size() + " own processes");

		Position beforeLoad = SourceQueries.head(this.admin);
		double loadSeconds = load();
		Position afterLoad = SourceQueries.head(this.admin);
		say(String.format("Loaded %,d rows in %.1f s; binlog %s to %s", this.rows, loadSeconds, beforeLoad, afterLoad));

		this.replica.replicateFrom(this.server.host(), this.server.port(), this.server.username(),
				this.server.password(), beforeLoad);
		long started = System.nanoTime();
		this.replica.startReplica();
		this.replica.awaitExecuted(afterLoad, LONG_WAIT);
		this.replica.stopReplica();
		Position replicaStart = this.replica.status().executed();
		copyTable(SOURCE_TABLE, REPLICA_COPY);
		say(String.format("Replica applied the load in %.1f s and stopped at %s", seconds(started), replicaStart));

		started = System.nanoTime();
		try (HikariDataSource targetPool = targetPool(8)) {
			Pipeline snapshot = new Pipeline(settings(DEFAULT_WORKERS), this.sourcePool, targetPool);
			snapshot.start();
			snapshot.awaitCaughtUp(LONG_WAIT);
			snapshot.close();
		}
		String checkpoint = checkpoint();
		copyTable(TARGET_TABLE, TARGET_COPY);
		say(String.format("Tributary snapshot and catch-up in %.1f s; checkpoint %s", seconds(started), checkpoint));

		// The backlog: every update is its own auto-commit transaction.
		Position beforeBacklog = SourceQueries.head(this.admin);
		long gtidBefore = gtidSequence();
		double generateSeconds = generate(this.backlog, false, 1000);
		Position afterBacklog = SourceQueries.head(this.admin);
		long transactions = gtidSequence() - gtidBefore;
		long backlogBytes = IngestionBacklogs.bytesBetween(beforeBacklog, afterBacklog, SourceQueries.binaryLogs(this.admin));
		say(String.format("Backlog: %,d single-row UPDATE transactions (%,d GTIDs) from %d clients in %.1f s "
				+ "(%.0f/s); binlog %s to %s, %,d bytes", this.backlog, transactions, this.clients, generateSeconds,
				this.backlog / generateSeconds, beforeBacklog, afterBacklog, backlogBytes));
		if (!replicaStart.equals(beforeBacklog) || !Position.parse(checkpoint).equals(beforeBacklog)) {
			say("Note: replica start " + replicaStart + ", checkpoint " + checkpoint + " and backlog start "
					+ beforeBacklog + " differ");
		}

		List<Run> runs = new ArrayList<>();
		for (int workers : this.workerCounts) {
			runs.add(measure("Tributary, " + workers + " workers", () -> {
				restoreTarget(checkpoint);
				return tributary("Tributary", workers, this.backlog, false);
			}));
		}
		Run passive = measure("Tributary, " + DEFAULT_WORKERS + " workers, status polling", () -> {
			restoreTarget(checkpoint);
			return tributary("Tributary, status polled", DEFAULT_WORKERS, this.backlog, true);
		});
		Run replicaRun = measure("MariaDB replica", () -> {
			restoreReplica(replicaStart);
			return replicaApply(afterBacklog, this.backlog);
		});

		String sourceSum = checksum(this.admin, SOURCE_TABLE);
		String replicaSum = checksum(this.target, SOURCE_TABLE);
		String tributarySum = checksum(this.target, TARGET_TABLE);
		say("Checksums after the backlog: source " + sourceSum + ", replica " + replicaSum + ", Tributary target "
				+ tributarySum);

		// Hot rows as a backlog: the pipeline (checkpoint) and the replica both stopped at the head.
		Position beforeHot = SourceQueries.head(this.admin);
		double hotGenerate = generate(this.hotUpdates, true, 2000);
		Position afterHot = SourceQueries.head(this.admin);
		say(String.format("Hot backlog: %,d transactions over %d ids in %.1f s; binlog %s to %s", this.hotUpdates,
				this.hotKeys, hotGenerate, beforeHot, afterHot));
		Run hotBacklog = tributary("Tributary, hot backlog", DEFAULT_WORKERS, this.hotUpdates, true);
		say(hotBacklog.describe());
		Run replicaHot = replicaApply(afterHot, this.hotUpdates);
		say("Hot backlog: " + replicaHot.describe());

		Run hotLive = live();
		say(hotLive.describe());
		String finalSource = checksum(this.admin, SOURCE_TABLE);
		String finalTarget = checksum(this.target, TARGET_TABLE);
		say("Checksums at the end: source " + finalSource + ", Tributary target " + finalTarget);

		Report report = new Report(this.server, generateSeconds, transactions, backlogBytes, runs, passive,
				replicaRun, hotBacklog, replicaHot, hotLive, sourceSum, replicaSum, tributarySum, finalSource,
				finalTarget, this.log, seconds(benchStarted));
		record(report);
		this.context.detail(report.render(String.format("%,d rows, a backlog of %,d single-row update transactions "
				+ "from %d clients; replica `slave_parallel_threads=%d`, `slave_parallel_mode=%s`, "
				+ "`innodb_flush_log_at_trx_commit=%d`; hot rows: %,d transactions over %d ids", this.rows,
				this.backlog, this.clients, this.replicaThreads, REPLICA_MODE, REPLICA_FLUSH, this.hotUpdates,
				this.hotKeys)));
	}

	/** Records the figures: every catch-up run, the replica, and the ratios against the replica. */
	private void record(Report report) {
		String shape = String.format("%,d single-row transactions on %,d rows", this.backlog, this.rows);
		List<Run> all = new ArrayList<>(report.runs());
		all.add(report.polled());
		all.add(report.replicaRun());
		for (Run run : all) {
			this.context.record(ResultRow.measured("apply", "mariadb", shape, run.system() + ", " + run.workers()
					+ " worker(s)", run.rate(), "changes/s", run.describe()));
		}
		Run best = report.runs().stream().max(java.util.Comparator.comparingDouble(Run::rate)).orElseThrow();
		this.context.record(ResultRow.compared("apply", "mariadb", shape, best.system() + ", " + best.workers()
				+ " worker(s)", best.rate(), "changes/s", "native replica, " + this.replicaThreads + " threads",
				report.replicaRun().rate(), REPLICA_TARGET, ""));
		String hotShape = String.format("%,d hot-row transactions over %d ids", this.hotUpdates, this.hotKeys);
		for (Run run : List.of(report.hotBacklog(), report.hotLive(), report.replicaHot())) {
			this.context.record(ResultRow.measured("apply", "mariadb", hotShape, run.system() + ", events per write",
					(double) run.events() / Math.max(1, run.writes()), "events/write", String.format("%,d events, %,d "
							+ "target writes in %.2f s", run.events(), run.writes(), run.seconds())));
		}
	}

	/** Runs a measured stretch once, under Flight Recorder when the run asks for it, and logs it. */
	private Run measure(String name, Callable<Run> attempt) throws Exception {
		String label = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
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

	/** Creates {@code sbtest.sbtest1} as sysbench does and fills it with 1,000-row inserts. */
	private double load() throws SQLException {
		this.server.createSchema(SOURCE_TABLE.schema());
		long started = System.nanoTime();
		Random random = new Random(7);
		try (Connection connection = this.admin.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + SOURCE_TABLE.quoted() + " (id INT NOT NULL AUTO_INCREMENT, "
					+ "k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', "
					+ "PRIMARY KEY (id), KEY k_1 (k)) ENGINE = InnoDB");
			for (int from = 1; from <= this.rows; from += 1000) {
				StringBuilder insert = new StringBuilder("INSERT INTO ").append(SOURCE_TABLE.quoted())
					.append(" (id, k, c, pad) VALUES ");
				for (int id = from; id < from + 1000 && id <= this.rows; id++) {
					insert.append((id > from) ? "," : "")
						.append('(')
						.append(id)
						.append(',')
						.append(1 + random.nextInt(this.rows))
						.append(",'")
						.append(digits(random, 10))
						.append("','")
						.append(digits(random, 5))
						.append("')");
				}
				statement.execute(insert.toString());
			}
		}
		return seconds(started);
	}

	/** Groups of 11 random digits joined by dashes, like sysbench's {@code c} and {@code pad}. */
	private static String digits(Random random, int groups) {
		StringBuilder out = new StringBuilder(groups * 12);
		for (int group = 0; group < groups; group++) {
			if (group > 0) {
				out.append('-');
			}
			for (int i = 0; i < 11; i++) {
				out.append((char) ('0' + random.nextInt(10)));
			}
		}
		return out.toString();
	}

	private int hotId(int index) {
		return 1 + index * (this.rows / this.hotKeys);
	}

	/**
	 * Runs {@code count} auto-commit {@code UPDATE ... SET k = k + 1 WHERE id = ?} statements from
	 * {@code applyClients} connections without batching, so each is one transaction in the binlog.
	 * @param hot whether ids are drawn from the {@code hotKeys} hot ids rather than all rows
	 * @param seed seed of the clients' random ids
	 * @return seconds taken
	 */
	private double generate(int count, boolean hot, long seed) throws Exception {
		String url = "jdbc:mysql://" + this.server.host() + ":" + this.server.port() + "/?useSSL=false";
		String sql = "UPDATE " + SOURCE_TABLE.quoted() + " SET k = k + 1 WHERE id = ?";
		ExecutorService clients = Executors.newFixedThreadPool(this.clients);
		long started = System.nanoTime();
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int client = 0; client < this.clients; client++) {
				int mine = count / this.clients + ((client < count % this.clients) ? 1 : 0);
				Random random = new Random(seed + client);
				done.add(clients.submit(() -> {
					try (Connection connection = DriverManager.getConnection(url, this.server.username(),
							this.server.password()); PreparedStatement update = connection.prepareStatement(sql)) {
						connection.setAutoCommit(true);
						for (int i = 0; i < mine; i++) {
							update.setInt(1, hot ? hotId(random.nextInt(this.hotKeys)) : 1 + random.nextInt(this.rows));
							update.executeUpdate();
						}
					}
					return null;
				}));
			}
			for (Future<?> future : done) {
				future.get();
			}
		}
		finally {
			clients.shutdown();
		}
		return seconds(started);
	}

	/**
	 * Applies the backlog with a fresh pipeline of the given concurrency and times it from
	 * {@link Pipeline#start()} until caught up with the head read just before.
	 * @param polled detect caught up by polling the status, which leaves the pipeline's flush
	 * cadence alone; otherwise by {@link Pipeline#awaitCaughtUp(Duration)}, which wakes the
	 * catch-up loop every 20 ms while it waits
	 */
	private Run tributary(String system, int workers, int transactions, boolean polled) throws Exception {
		try (HikariDataSource targetPool = targetPool(workers + 4)) {
			flushDirtyPages();
			awaitQuiet();
			Position head = SourceQueries.head(this.sourcePool);
			Pipeline pipeline = new Pipeline(settings(workers), this.sourcePool, targetPool);
			CpuMeter.Sample cpu = this.meter.sample();
			ThreadCpu threads = ThreadCpu.now();
			long started = System.nanoTime();
			pipeline.start();
			if (polled) {
				awaitConfirmed(pipeline, head);
			}
			else {
				pipeline.awaitCaughtUp(LONG_WAIT);
			}
			double elapsed = seconds(started);
			CpuMeter.Share share = cpu.untilNow(this.meter);
			String breakdown = threads.since();
			TableStatus table = pipeline.status().tables().get(0);
			pipeline.close();
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

	/** Times {@code START SLAVE} until the SQL thread has executed {@code head}, then stops it. */
	private Run replicaApply(Position head, int transactions) throws Exception {
		flushDirtyPages();
		awaitQuiet();
		long retriedBefore = Long.parseLong(globalStatus(this.target, "Slave_retried_transactions"));
		CpuMeter.Sample cpu = this.meter.sample();
		long started = System.nanoTime();
		this.replica.startReplica();
		this.replica.awaitExecuted(head, LONG_WAIT);
		double elapsed = seconds(started);
		CpuMeter.Share share = cpu.untilNow(this.meter);
		this.replica.stopReplica();
		long retried = Long.parseLong(globalStatus(this.target, "Slave_retried_transactions")) - retriedBefore;
		return new Run("MariaDB replica", this.replicaThreads, transactions, elapsed, transactions, transactions, -1,
				retried, share, null);
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
			double generated = generate(this.hotUpdates, true, 3000);
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
		return PipelineSettings.of(source, List.of(new TableMapping(SOURCE_TABLE, TARGET_TABLE)), CHECKPOINTS)
			.withApplyConcurrency(workers)
			.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false));
	}

	private HikariDataSource targetPool(int size) {
		return pool(this.replica.jdbcUrl(), ReplicaServer.USER, ReplicaServer.PASSWORD, size, "target");
	}

	private static HikariDataSource pool(String url, String user, String password, int size, String name) {
		HikariConfig config = new HikariConfig();
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
						+ " WHERE pipeline = 'default' AND source_table = '" + SOURCE_TABLE + "'")) {
			if (!rs.next()) {
				throw new IllegalStateException("No checkpoint saved for " + SOURCE_TABLE);
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
		try (Connection connection = this.target.getConnection();
				PreparedStatement update = connection.prepareStatement("UPDATE " + CHECKPOINTS.quoted()
						+ " SET binlog_position = ? WHERE pipeline = 'default' AND source_table = ?")) {
			update.setString(1, checkpoint);
			update.setString(2, SOURCE_TABLE.toString());
			if (update.executeUpdate() != 1) {
				throw new IllegalStateException("Checkpoint row of " + SOURCE_TABLE + " not found");
			}
		}
	}

	/**
	 * Puts the replica's table and position back to where they were before the backlog. Changing
	 * the position drops the relay logs, so the backlog is fetched from the source again.
	 */
	private void restoreReplica(Position from) throws SQLException {
		copyTable(REPLICA_COPY, SOURCE_TABLE);
		this.replica.replicateFrom(this.server.host(), this.server.port(), this.server.username(),
				this.server.password(), from);
	}

	/**
	 * Lets InnoDB on the replica server write its dirty pages before a measurement, so no run pays
	 * for the page writes of a restore or of the run before it. Waits at most a minute.
	 */
	private void flushDirtyPages() throws SQLException, InterruptedException {
		String previous = globalVariable(this.target, "innodb_max_dirty_pages_pct");
		execute(this.target, "SET GLOBAL innodb_max_dirty_pages_pct = 0");
		try {
			long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
			while (Long.parseLong(globalStatus(this.target, "Innodb_buffer_pool_pages_dirty")) > 200
					&& System.nanoTime() < deadline) {
				Thread.sleep(200);
			}
		}
		finally {
			execute(this.target, "SET GLOBAL innodb_max_dirty_pages_pct = " + previous);
		}
	}

	private static String checksum(DataSource pool, TableId table) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COUNT(*), SUM(CRC32(CONCAT_WS('#', id, k, c, pad))) FROM "
						+ table.quoted())) {
			rs.next();
			return rs.getLong(1) + "/" + rs.getLong(2);
		}
	}

	/** Returns the sequence number of the source's last GTID in domain 0. */
	private long gtidSequence() throws SQLException {
		for (String gtid : globalVariable(this.admin, "gtid_binlog_pos").split(",")) {
			String[] parts = gtid.trim().split("-");
			if (parts.length == 3 && parts[0].equals("0")) {
				return Long.parseLong(parts[2]);
			}
		}
		return 0;
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

	/**
	 * One timed apply of a backlog.
	 *
	 * @param system what applied it
	 * @param workers apply workers or replica threads
	 * @param transactions transactions in the backlog
	 * @param seconds wall time until caught up
	 * @param events row changes read from the binlog
	 * @param writes row images written to the target
	 * @param statements statements that wrote them, or -1 when not counted
	 * @param contention Tributary: deadlocks and lock wait timeouts met; replica: transactions
	 * retried by the optimistic parallel applier
	 * @param cpu how the machine's CPU was used during the run
	 * @param threadCpu CPU seconds of the benchmark JVM's threads during the run by thread name, or
	 * {@code null} when not measured
	 */
	record Run(String system, int workers, long transactions, double seconds, long events, long writes, long statements,
			long contention, CpuMeter.Share cpu, String threadCpu) {

		double rate() {
			return this.transactions / this.seconds;
		}

		String describe() {
			StringBuilder out = new StringBuilder(String.format("%s, %d worker(s): %,d transactions in %.2f s = %.0f "
					+ "changes/s; %,d events, %,d writes", this.system, this.workers, this.transactions, this.seconds,
					rate(), this.events, this.writes));
			if (this.statements >= 0) {
				out.append(String.format(", %,d statements, %d contention events", this.statements, this.contention));
			}
			else {
				out.append(String.format(", %d retried transactions", this.contention));
			}
			out.append("; ").append(this.cpu);
			if (this.threadCpu != null) {
				out.append("; JVM CPU seconds ").append(this.threadCpu);
			}
			return out.toString();
		}

	}

	/** CPU time of this JVM's threads, to tell where a run's time went. */
	private record ThreadCpu(Map<Long, Long> nanos) {

		static ThreadCpu now() {
			ThreadMXBean bean = ManagementFactory.getThreadMXBean();
			Map<Long, Long> nanos = new HashMap<>();
			for (long id : bean.getAllThreadIds()) {
				nanos.put(id, bean.getThreadCpuTime(id));
			}
			return new ThreadCpu(nanos);
		}

		/**
		 * Returns the CPU seconds used since this sample by threads still alive: the total, then by
		 * thread name without trailing numbers, largest first.
		 */
		String since() {
			ThreadMXBean bean = ManagementFactory.getThreadMXBean();
			Map<String, Long> byName = new HashMap<>();
			long total = 0;
			for (ThreadInfo info : bean.getThreadInfo(bean.getAllThreadIds())) {
				if (info == null) {
					continue;
				}
				long now = bean.getThreadCpuTime(info.getThreadId());
				long used = now - this.nanos.getOrDefault(info.getThreadId(), 0L);
				if (now < 0 || used <= 0) {
					continue;
				}
				String name = info.getThreadName().replaceAll("-127\\.0\\.0\\.1$", "").replaceAll("[-#]?\\d+$", "");
				byName.merge(name, used, Long::sum);
				total += used;
			}
			String top = byName.entrySet()
				.stream()
				.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
				.filter((entry) -> entry.getValue() >= 50_000_000L)
				.map((entry) -> String.format("%s %.1f", entry.getKey(), entry.getValue() / 1e9))
				.collect(Collectors.joining(", "));
			return String.format("%.1f", total / 1e9) + (top.isEmpty() ? "" : " (" + top + ")");
		}

	}

	/** Renders the results file. */
	private record Report(TestDatabaseServer server, double generateSeconds, long transactions, long backlogBytes,
			List<Run> runs, Run polled, Run replicaRun, Run hotBacklog, Run replicaHot, Run hotLive, String sourceSum,
			String replicaSum, String tributarySum, String finalSource, String finalTarget, StringBuilder log,
			double totalSeconds) {

		String render(String setup) {
			StringBuilder out = new StringBuilder();
			out.append("### Apply backlog (" + this.server.flavor() + " " + this.server.version() + ")\n\n")
				.append(String.format("Replica and Tributary target: a second embedded MariaDB without binary log, 2 GB "
						+ "buffer pool, 512 MB redo log. %s. Backlog generated in %.1f s (%,d GTIDs, %,d binlog bytes); "
						+ "%.0f s in all.%n%n", setup, this.generateSeconds, this.transactions, this.backlogBytes,
						this.totalSeconds))
				.append("| system | workers | backlog | seconds | changes/s | ratio vs replica | "
						+ "target writes | statements | CPU busy | CPU of other processes |\n")
				.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
			for (Run run : this.runs) {
				row(out, run);
			}
			row(out, this.polled);
			row(out, this.replicaRun);
			out.append("\nchanges/s = backlog transactions / seconds from start until caught up with the source head ")
				.append("(Tributary: `Pipeline.start()` until `awaitCaughtUp` returns; \"status polled\": until the ")
				.append("status shows the head confirmed, without `awaitCaughtUp`'s wake-ups of the catch-up loop; ")
				.append("replica: `START SLAVE` until `Exec_Master_Log_Pos` is at the head). Target writes are the ")
				.append("pipeline's `rowsUpserted`; the replica writes one row per event. CPU columns are shares of ")
				.append("both cores during the run; \"other processes\" is what processes other than this JVM and ")
				.append("the two servers used. Replica transactions retried by the optimistic applier: ")
				.append(this.replicaRun.contention())
				.append(".\n\n#### Hot rows\n\n")
				.append("| run | events | target writes | events / writes | seconds |\n")
				.append("| --- | --- | --- | --- | --- |\n");
			hot(out, "Tributary, backlog, " + this.hotBacklog.workers() + " workers", this.hotBacklog);
			hot(out, "Tributary, while streaming, " + this.hotLive.workers() + " workers", this.hotLive);
			hot(out, "MariaDB replica, backlog, " + this.replicaHot.workers() + " threads", this.replicaHot);
			out.append("\nTributary runs with its defaults (apply concurrency 4, flush every 250 ms or at 10,000 ")
				.append("buffered keys); caught up is detected by polling the status, which leaves the flush cadence ")
				.append("alone. While streaming, seconds run from the first update until caught up, so they include ")
				.append("generating the updates.\n\n#### Checks\n\n")
				.append("`COUNT(*)/SUM(CRC32(CONCAT_WS('#', id, k, c, pad)))` after the backlog: source ")
				.append(this.sourceSum)
				.append(", replica ")
				.append(this.replicaSum)
				.append(", Tributary target ")
				.append(this.tributarySum)
				.append("; after the hot rows: source ")
				.append(this.finalSource)
				.append(", Tributary target ")
				.append(this.finalTarget)
				.append(".\n\n#### Log\n\n")
				.append(this.log);
			return out.toString();
		}

		private void row(StringBuilder out, Run run) {
			out.append(String.format("| %s | %d | %,d | %.1f | %,.0f | %.2fx | %,d | %s | %s | %s |%n",
					run.system(), run.workers(), run.transactions(), run.seconds(), run.rate(),
					run.rate() / this.replicaRun.rate(), run.writes(),
					(run.statements() >= 0) ? String.format("%,d", run.statements()) : "-", percent(run.cpu().busy()),
					percent(run.cpu().others())));
		}

		private static String percent(double share) {
			return (share >= 0) ? String.format("%.0f%%", share * 100) : "-";
		}

		private static void hot(StringBuilder out, String name, Run run) {
			out.append(String.format("| %s | %,d | %,d | %.0fx | %.2f |%n", name, run.events(), run.writes(),
					(double) run.events() / Math.max(1, run.writes()), run.seconds()));
		}

	}

}
