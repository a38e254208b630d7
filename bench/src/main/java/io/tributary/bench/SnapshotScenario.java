package io.tributary.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.TestDatabaseServer;

/**
 * Snapshot: how fast a Tributary snapshot copies a sysbench-shaped table into another schema of
 * the same server, side by side in one run with {@code INSERT INTO target SELECT * FROM source}
 * and with a {@code mariadb-dump | mariadb} pipe. Targets: at least 0.7x the rows/s of
 * {@code INSERT ... SELECT} and 1.5x the dump pipe's. MariaDB only: the dump pipe uses the client
 * programs of the embedded MariaDB distribution.
 *
 * <p>The table is sysbench's {@code sbtest1} filled with {@code snapshotRows} rows
 * ({@link SysbenchRows}). Each round times, on a fresh target schema each time:
 *
 * <ol>
 *   <li>{@code CREATE TABLE ... LIKE} and {@code INSERT ... SELECT} on one JDBC connection;
 *   <li>{@code mariadb-dump --single-transaction --skip-ssl src sbtest1 | mariadb --skip-ssl tgt},
 *       the server's own client binaries, over TCP to {@code 127.0.0.1}, dump defaults otherwise
 *       (table definition included, extended inserts);
 *   <li>a Tributary pipeline with each of {@code snapshotThreads} copy threads and the engine's
 *       default chunk sizing, timed from {@link Pipeline#start()} until the table has left
 *       {@link TableStatus.Phase#STARTING} and {@link TableStatus.Phase#SNAPSHOTTING}, status
 *       polled every 20 ms.
 * </ol>
 *
 * <p>Even rounds run the methods in reverse order. Between measurements the target schema is
 * dropped, the binary logs before the current one are purged and dirty InnoDB pages are flushed,
 * so that each measurement starts from the same state. Every copy is checked afterwards: row count
 * and {@code CHECKSUM TABLE} must match the source, or the scenario fails. The server's buffer pool
 * is resized to 1 GiB first, so that the source and one copy stay in memory.
 */
public final class SnapshotScenario implements Scenario {

	private static final long BUFFER_POOL = 1L << 30;

	private static final String SOURCE_SCHEMA = "snap_src";

	private static final String TABLE = "sbtest1";

	/** The target: at least this share of the rows/s of {@code INSERT ... SELECT}. */
	private static final double INSERT_SELECT_TARGET = 0.7;

	/** The target: at least this multiple of the rows/s of the dump pipe. */
	private static final double DUMP_TARGET = 1.5;

	private static final Duration SNAPSHOT_TIMEOUT = Duration.ofMinutes(10);

	private static final Random RANDOM = new Random();

	private int rows;

	private int targets;

	@Override
	public String name() {
		return "snapshot";
	}

	@Override
	public boolean runsOn(String server) {
		return server.equals("mariadb");
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		BenchSettings settings = context.settings();
		this.rows = settings.number("snapshotRows");
		int rounds = settings.number("snapshotRounds");
		TestDatabaseServer server = context.server();
		DataSource admin = server.dataSource(null);
		resizeBufferPool(admin);
		Path bin = Path.of(Preflight.basedir(server)).resolve("bin");
		StringBuilder log = new StringBuilder();
		say(context, log, "Server settings: " + variables(admin, "innodb_buffer_pool_size", "innodb_log_file_size",
				"innodb_flush_log_at_trx_commit", "sync_binlog", "log_bin", "binlog_format", "binlog_row_image",
				"local_infile"));
		server.createSchema(SOURCE_SCHEMA);
		long started = System.nanoTime();
		load(admin);
		String sourceChecksum = checksum(admin, SOURCE_SCHEMA);
		say(context, log, String.format("Loaded %,d rows into %s.%s in %.1f s; %s", this.rows, SOURCE_SCHEMA, TABLE,
				seconds(started), tableSize(admin, SOURCE_SCHEMA)));
		List<String> methods = new ArrayList<>(List.of("insert-select", "dump-pipe"));
		for (int threads : settings.numbers("snapshotThreads")) {
			methods.add("tributary-" + threads);
		}
		Map<String, List<Measurement>> results = new LinkedHashMap<>();
		methods.forEach((method) -> results.put(method, new ArrayList<>()));
		for (int round = 1; round <= rounds; round++) {
			List<String> order = new ArrayList<>(methods);
			if (round % 2 == 0) {
				Collections.reverse(order);
			}
			for (String method : order) {
				Measurement measurement = measure(context, admin, bin, method, round, sourceChecksum);
				results.get(method).add(measurement);
				say(context, log, String.format("%s round %d %-13s %,10d rows in %6.2f s = %,9.0f rows/s (CPU %3.0f%% "
						+ "busy%s)", measurement.at(), round, method, measurement.rows(), measurement.seconds(),
						measurement.rowsPerSecond(), 100 * measurement.cpuBusy(),
						measurement.detail().isEmpty() ? "" : ", " + measurement.detail()));
			}
		}
		for (Map.Entry<String, List<Measurement>> entry : results.entrySet()) {
			for (Measurement m : entry.getValue()) {
				context.record(ResultRow.measured(name(), context.flavor(), "round " + m.round(), label(entry.getKey()),
						m.rowsPerSecond(), "rows/s", String.format("%,d rows in %.2f s, CPU %.0f%% busy%s; count and "
								+ "checksum match", m.rows(), m.seconds(), 100 * m.cpuBusy(),
								m.detail().isEmpty() ? "" : ", " + m.detail())));
			}
		}
		double insertSelect = best(results.get("insert-select"));
		double dump = best(results.get("dump-pipe"));
		String shape = String.format("%,d rows, best of %d round(s)", this.rows, rounds);
		for (Map.Entry<String, List<Measurement>> entry : results.entrySet()) {
			if (!entry.getKey().startsWith("tributary")) {
				continue;
			}
			double best = best(entry.getValue());
			context.record(ResultRow.compared(name(), context.flavor(), shape, label(entry.getKey()), best, "rows/s",
					"INSERT ... SELECT", insertSelect, INSERT_SELECT_TARGET, ""));
			context.record(ResultRow.compared(name(), context.flavor(), shape, label(entry.getKey()), best, "rows/s",
					"mariadb-dump | mariadb", dump, DUMP_TARGET, ""));
		}
		context.detail("### Snapshot log (" + context.flavor() + ")\n\n```\n" + log + "```\n");
	}

	/** Times one copy into a fresh schema, checks it and drops the schema again. */
	private Measurement measure(ScenarioContext context, DataSource admin, Path bin, String method, int round,
			String sourceChecksum) throws Exception {
		TestDatabaseServer server = context.server();
		String target = "snap_tgt_" + (++this.targets);
		server.createSchema(target);
		settle(admin);
		String at = LocalTime.now().truncatedTo(ChronoUnit.SECONDS).toString();
		CpuSample cpu = CpuSample.now();
		Measurement measurement;
		if (method.equals("insert-select")) {
			measurement = insertSelect(admin, target);
		}
		else if (method.equals("dump-pipe")) {
			measurement = dumpPipe(server, bin, target);
		}
		else {
			int threads = Integer.parseInt(method.substring("tributary-".length()));
			measurement = context.profiled(threads + "-threads-round-" + round,
					() -> tributary(server, admin, threads, target));
		}
		double busy = cpu.busySince();
		verify(admin, target, sourceChecksum);
		execute(admin, "DROP DATABASE `" + target + "`");
		return measurement.with(round, at, busy);
	}

	private void load(DataSource admin) throws SQLException {
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + SOURCE_SCHEMA + "." + TABLE + " (id INT NOT NULL AUTO_INCREMENT, "
					+ "k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', "
					+ "PRIMARY KEY (id), KEY k_1 (k)) ENGINE=InnoDB");
		}
		SysbenchRows.load(admin, SOURCE_SCHEMA + "." + TABLE, this.rows, 42);
		execute(admin, "ANALYZE TABLE " + SOURCE_SCHEMA + "." + TABLE);
	}

	private static Measurement insertSelect(DataSource admin, String target) throws SQLException {
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement()) {
			long started = System.nanoTime();
			statement.execute("CREATE TABLE " + target + "." + TABLE + " LIKE " + SOURCE_SCHEMA + "." + TABLE);
			long rows = statement.executeUpdate(
					"INSERT INTO " + target + "." + TABLE + " SELECT * FROM " + SOURCE_SCHEMA + "." + TABLE);
			return new Measurement(rows, seconds(started), "one statement");
		}
	}

	private Measurement dumpPipe(TestDatabaseServer server, Path bin, String target)
			throws IOException, InterruptedException {
		List<String> connect = List.of("--protocol=TCP", "--host=" + server.host(), "--port=" + server.port(),
				"--user=" + server.username(), "--password=" + server.password(), "--skip-ssl");
		List<String> dump = new ArrayList<>();
		dump.add(bin.resolve("mariadb-dump").toString());
		dump.addAll(connect);
		dump.addAll(List.of("--single-transaction", SOURCE_SCHEMA, TABLE));
		List<String> restore = new ArrayList<>();
		restore.add(bin.resolve("mariadb").toString());
		restore.addAll(connect);
		restore.add(target);
		Path dumpErrors = Files.createTempFile("snapshot-bench-dump", ".log");
		Path restoreErrors = Files.createTempFile("snapshot-bench-restore", ".log");
		try {
			ProcessBuilder dumper = new ProcessBuilder(dump).redirectError(dumpErrors.toFile());
			ProcessBuilder restorer = new ProcessBuilder(restore).redirectErrorStream(true)
				.redirectOutput(restoreErrors.toFile());
			long started = System.nanoTime();
			List<Process> processes = ProcessBuilder.startPipeline(List.of(dumper, restorer));
			for (Process process : processes) {
				if (!process.waitFor(SNAPSHOT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
					processes.forEach(Process::destroyForcibly);
					throw new IllegalStateException("The dump pipe did not finish in " + SNAPSHOT_TIMEOUT);
				}
			}
			double seconds = seconds(started);
			int dumpExit = processes.get(0).exitValue();
			int restoreExit = processes.get(1).exitValue();
			if (dumpExit != 0 || restoreExit != 0) {
				throw new IllegalStateException("The dump pipe failed: mariadb-dump exit " + dumpExit + " ("
						+ Files.readString(dumpErrors).strip() + "), mariadb exit " + restoreExit + " ("
						+ Files.readString(restoreErrors).strip() + ")");
			}
			return new Measurement(this.rows, seconds, "");
		}
		finally {
			Files.deleteIfExists(dumpErrors);
			Files.deleteIfExists(restoreErrors);
		}
	}

	private Measurement tributary(TestDatabaseServer server, DataSource admin, int threads, String target)
			throws Exception {
		long loadsBefore = Long.parseLong(status(admin, "Com_load"));
		// Plain connections on every path, as for the command-line tools: no TLS.
		SourceSettings source = new SourceSettings(server.host(), server.port(), server.username(), server.password(),
				100_000 + RANDOM.nextInt(1_000_000), Duration.ofSeconds(10), Duration.ofSeconds(5), SslMode.DISABLED,
				null);
		PipelineSettings defaults = PipelineSettings.of(source,
				List.of(new TableMapping(new TableId(SOURCE_SCHEMA, TABLE), new TableId(target, TABLE))),
				new TableId(target, "tributary_checkpoints"))
			.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false));
		CopySizing copy = defaults.copy();
		PipelineSettings settings = defaults.withCopy(new CopySizing(threads, copy.initialChunkRows(),
				copy.minChunkRows(), copy.maxChunkRows(), copy.targetChunkTime()));
		try (HikariDataSource sourcePool = pool(server, threads + 2, "source");
				HikariDataSource targetPool = ApplyBacklogRun.targetPool(server.jdbcUrl(null), server.username(),
						server.password(), threads + 4, "snapshot-target")) {
			Pipeline pipeline = new Pipeline(settings, sourcePool, targetPool);
			try {
				long started = System.nanoTime();
				pipeline.start();
				long deadline = started + SNAPSHOT_TIMEOUT.toNanos();
				TableStatus table = pipeline.status().tables().get(0);
				// STARTING until the pipeline has connected and set the table up, then SNAPSHOTTING.
				while (table.phase() == TableStatus.Phase.STARTING || table.phase() == TableStatus.Phase.SNAPSHOTTING) {
					if (System.nanoTime() > deadline) {
						throw new IllegalStateException("Snapshot not done after " + SNAPSHOT_TIMEOUT);
					}
					Thread.sleep(20);
					table = pipeline.status().tables().get(0);
				}
				double seconds = seconds(started);
				PipelineStatus status = pipeline.status();
				if (table.phase() == TableStatus.Phase.FAILED || status.state() == PipelineStatus.State.FAILED) {
					throw new IllegalStateException("Snapshot failed: " + table.lastError() + " / " + status.lastError());
				}
				long loads = Long.parseLong(status(admin, "Com_load")) - loadsBefore;
				return new Measurement(table.rowsCopied(), seconds,
						String.format("%,d chunks, %,d streamed loads", table.chunksCopied(), loads));
			}
			finally {
				pipeline.close();
			}
		}
	}

	private static HikariDataSource pool(TestDatabaseServer server, int size, String name) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(server.jdbcUrl(null));
		config.setUsername(server.username());
		config.setPassword(server.password());
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(0);
		config.setPoolName("bench-snapshot-" + name);
		return new HikariDataSource(config);
	}

	/**
	 * Resizes the buffer pool to 1 GiB, where the scenario's tables fit, and waits for the resize,
	 * which the server does in the background; the ingestion backlogs' writer and the apply and
	 * kafka scenarios too. A resize already under way (the server's own, just after it started)
	 * is waited for first, since the server refuses a second one meanwhile.
	 */
	static void resizeBufferPool(DataSource admin) throws SQLException, InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
		awaitNoResize(admin, deadline);
		if (Long.parseLong(query(admin, "SELECT @@innodb_buffer_pool_size")) >= BUFFER_POOL) {
			return;
		}
		execute(admin, "SET GLOBAL innodb_buffer_pool_size = " + BUFFER_POOL);
		while (Long.parseLong(query(admin, "SELECT @@innodb_buffer_pool_size")) < BUFFER_POOL) {
			pauseBefore(deadline);
		}
		awaitNoResize(admin, deadline);
	}

	private static void awaitNoResize(DataSource admin, long deadline) throws SQLException, InterruptedException {
		while (true) {
			String resize = status(admin, "Innodb_buffer_pool_resize_status").toLowerCase(java.util.Locale.ROOT);
			if (resize.contains("completed") || !resize.contains("resiz")) {
				return;
			}
			pauseBefore(deadline);
		}
	}

	private static void pauseBefore(long deadline) throws InterruptedException {
		if (System.nanoTime() > deadline) {
			throw new IllegalStateException("The buffer pool did not reach " + BUFFER_POOL + " bytes in 120 s");
		}
		Thread.sleep(200);
	}

	/**
	 * Brings the server to the same state before every measurement: a fresh binary log with the
	 * older ones purged, and no dirty pages left from the copy before.
	 */
	private static void settle(DataSource admin) throws SQLException, InterruptedException {
		execute(admin, "FLUSH BINARY LOGS");
		String current = query(admin, "SHOW MASTER STATUS");
		execute(admin, "PURGE BINARY LOGS TO '" + current + "'");
		String dirtyLwm = query(admin, "SELECT @@innodb_max_dirty_pages_pct_lwm");
		execute(admin, "SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0");
		try {
			ApplyBacklogRun.flushDirtyPages(admin);
		}
		finally {
			execute(admin, "SET GLOBAL innodb_max_dirty_pages_pct_lwm = " + dirtyLwm);
		}
		Thread.sleep(1_000);
	}

	/** Checks the copy against the source: same row count and same {@code CHECKSUM TABLE}. */
	private void verify(DataSource admin, String target, String sourceChecksum) throws SQLException {
		String count = query(admin, "SELECT COUNT(*) FROM " + target + "." + TABLE);
		String checksum = checksum(admin, target);
		if (Long.parseLong(count) != this.rows || !checksum.equals(sourceChecksum)) {
			throw new IllegalStateException("The copy in " + target + " differs from the source: " + count + " rows of "
					+ this.rows + ", checksum " + checksum + " against " + sourceChecksum);
		}
	}

	private static String checksum(DataSource admin, String schema) throws SQLException {
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("CHECKSUM TABLE " + schema + "." + TABLE)) {
			rs.next();
			return rs.getString(2);
		}
	}

	private static String tableSize(DataSource admin, String schema) throws SQLException {
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT data_length, index_length FROM information_schema.tables "
						+ "WHERE table_schema = '" + schema + "' AND table_name = '" + TABLE + "'")) {
			// Read after ANALYZE TABLE in load(): InnoDB's persistent statistics lag behind a bulk load.
			rs.next();
			return String.format("data %d MiB, secondary index %d MiB", rs.getLong(1) >> 20, rs.getLong(2) >> 20);
		}
	}

	private static String label(String method) {
		return switch (method) {
			case "insert-select" -> "INSERT ... SELECT";
			case "dump-pipe" -> "mariadb-dump | mariadb";
			default -> "Tributary, " + method.substring("tributary-".length()) + " thread(s)";
		};
	}

	private static double best(List<Measurement> measurements) {
		return measurements.stream().mapToDouble(Measurement::rowsPerSecond).max().orElse(Double.NaN);
	}

	private static String variables(DataSource admin, String... names) throws SQLException {
		StringBuilder out = new StringBuilder();
		for (String name : names) {
			out.append((out.length() > 0) ? ", " : "").append(name).append('=')
				.append(query(admin, "SELECT @@GLOBAL." + name));
		}
		return out.toString();
	}

	private static String status(DataSource admin, String name) throws SQLException {
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW GLOBAL STATUS LIKE '" + name + "'")) {
			return rs.next() ? rs.getString(2) : "0";
		}
	}

	private static String query(DataSource admin, String sql) throws SQLException {
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			rs.next();
			return rs.getString(1);
		}
	}

	private static void execute(DataSource admin, String... sql) throws SQLException {
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement()) {
			for (String s : sql) {
				statement.execute(s);
			}
		}
	}

	private static void say(ScenarioContext context, StringBuilder log, String line) {
		context.say(line);
		log.append(line).append('\n');
	}

	private static double seconds(long startedNanos) {
		return (System.nanoTime() - startedNanos) / 1e9;
	}

	/**
	 * One timed copy.
	 *
	 * @param rows rows copied
	 * @param seconds wall-clock time of the copy
	 * @param detail what the method reported about the copy, or empty
	 * @param round the round it ran in
	 * @param at time of day the copy started
	 * @param cpuBusy share of the machine's CPU time that was not idle during the copy
	 */
	private record Measurement(long rows, double seconds, String detail, int round, String at, double cpuBusy) {

		Measurement(long rows, double seconds, String detail) {
			this(rows, seconds, detail, 0, "", Double.NaN);
		}

		Measurement with(int round, String at, double cpuBusy) {
			return new Measurement(this.rows, this.seconds, this.detail, round, at, cpuBusy);
		}

		double rowsPerSecond() {
			return this.rows / this.seconds;
		}

	}

	/** Share of the machine's CPU time that was not idle since a sample, from {@code /proc/stat}. */
	private record CpuSample(long busy, long total) {

		static CpuSample now() {
			try {
				String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
				long total = 0;
				for (int i = 1; i < fields.length; i++) {
					total += Long.parseLong(fields[i]);
				}
				long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
				return new CpuSample(total - idle, total);
			}
			catch (IOException | RuntimeException ex) {
				return new CpuSample(0, 0);
			}
		}

		double busySince() {
			CpuSample now = now();
			long total = now.total - this.total;
			return (total > 0) ? (double) (now.busy - this.busy) / total : Double.NaN;
		}

	}

}
