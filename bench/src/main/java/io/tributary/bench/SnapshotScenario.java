package io.tributary.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import ch.qos.logback.classic.Level;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.slf4j.LoggerFactory;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.TableId;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.TestDatabaseServer;

/**
 * Measures how fast a Tributary snapshot copies a sysbench-shaped table into another schema of the
 * same server, side by side in one run with {@code INSERT INTO target SELECT * FROM source} and
 * with a {@code mariadb-dump | mariadb} pipe.
 *
 * <p>The table is sysbench's {@code sbtest1} ({@code id INT} auto-increment primary key,
 * {@code k INT} with a secondary index, {@code c CHAR(120)}, {@code pad CHAR(60)}) filled with
 * {@code rows} rows whose values follow sysbench's templates. Each round times, on a fresh target
 * schema each time:
 *
 * <ol>
 *   <li>{@code CREATE TABLE ... LIKE} and {@code INSERT ... SELECT} on one JDBC connection;
 *   <li>{@code mariadb-dump --single-transaction --skip-ssl src sbtest1 | mariadb --skip-ssl tgt},
 *       the server's own client binaries, over TCP to {@code 127.0.0.1}, dump defaults otherwise
 *       (table definition included, extended inserts);
 *   <li>a Tributary pipeline with 1, 2 and 4 copy threads and the engine's default chunk sizing,
 *       timed from {@link Pipeline#start()} until the table leaves
 *       {@link TableStatus.Phase#SNAPSHOTTING}, status polled every 20 ms.
 * </ol>
 *
 * <p>The second round runs the methods in reverse order. Between measurements the target schema is
 * dropped, the binary logs before the current one are purged and dirty InnoDB pages are flushed,
 * so that each measurement starts from the same state. Every copy is checked afterwards: row count
 * and {@code CHECKSUM TABLE} must match the source.
 *
 * <p>Other benchmark JVMs share the machine's processors. Before each measurement the benchmark
 * waits while one runs ({@code -DwaitForOthers=SECONDS}, 900 by default, over the whole run); a
 * measurement that one overlapped anyway is marked, repeated once, and left out of the best figures
 * and ratios when a measurement made alone exists.
 *
 * <p>Run: {@code ./mvnw -q -pl bench -am install -DskipTests && ./mvnw -q -pl bench exec:java
 * -Dexec.mainClass=io.tributary.bench.SnapshotBenchmark}. Writes {@code bench/results/snapshot.md}.
 * {@code -Drows=N}, {@code -Drounds=N} and {@code -DbufferPool=BYTES} change the table size, the
 * number of rounds and the InnoDB buffer pool the server is resized to (default 1 GiB, so that the
 * source and one copy stay in memory).
 */
public final class SnapshotBenchmark {

	private static final int ROWS = Integer.getInteger("rows", 1_000_000);

	private static final int ROUNDS = Integer.getInteger("rounds", 2);

	private static final long BUFFER_POOL = Long.getLong("bufferPool", 1L << 30);

	private static final int INSERT_ROWS = 2_000;

	private static final String SOURCE_SCHEMA = "snap_src";

	private static final String TABLE = "sbtest1";

	private static final int[] THREADS = { 1, 2, 4 };

	/** The target: at least this share of the rows/s of {@code INSERT ... SELECT}. */
	private static final double INSERT_SELECT_TARGET = 0.7;

	/** The target: at least this multiple of the rows/s of the dump pipe. */
	private static final double DUMP_TARGET = 1.5;

	private static final Duration SNAPSHOT_TIMEOUT = Duration.ofMinutes(10);

	/** Longest time, over the whole run, spent waiting for other benchmarks to finish. */
	private static final Duration WAIT_FOR_OTHERS = Duration.ofSeconds(Long.getLong("waitForOthers", 900));

	private static final Random RANDOM = new Random();

	/** Held here: the JDK keeps loggers only weakly, and a collected one forgets its level. */
	private static final java.util.logging.Logger BINLOG_CLIENT_LOG = java.util.logging.Logger
		.getLogger("com.github.shyiko");

	private static int targets;

	private static long waitedNanos;

	private SnapshotBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		quietLogs();
		long benchStarted = System.nanoTime();
		TestDatabaseServer server = TestDatabaseServer.shared();
		DataSource admin = server.dataSource(null);
		resizeBufferPool(admin);
		StringBuilder log = new StringBuilder();
		Path bin = Path.of(query(admin, "SELECT @@basedir")).resolve("bin");
		say(log, "Server " + server.flavor() + " " + server.version() + " on " + server.host() + ":" + server.port()
				+ ", binaries in the server's base directory");
		say(log, "Server settings: " + variables(admin, "innodb_buffer_pool_size", "innodb_log_file_size",
				"innodb_flush_log_at_trx_commit", "sync_binlog", "log_bin", "binlog_format", "binlog_row_image"));
		say(log, "Tools: " + version(bin.resolve("mariadb-dump")) + "; " + version(bin.resolve("mariadb")));
		say(log, "Machine: " + Runtime.getRuntime().availableProcessors() + " processors, load average "
				+ loadAverage());

		server.createSchema(SOURCE_SCHEMA);
		long started = System.nanoTime();
		load(admin);
		String sourceChecksum = checksum(admin, SOURCE_SCHEMA);
		say(log, String.format("Loaded %,d rows into %s.%s in %.1f s; %s", ROWS, SOURCE_SCHEMA, TABLE,
				seconds(started), tableSize(admin, SOURCE_SCHEMA)));

		List<String> methods = new ArrayList<>();
		methods.add("insert-select");
		methods.add("dump-pipe");
		for (int threads : THREADS) {
			methods.add("tributary-" + threads);
		}
		Map<String, List<Measurement>> results = new LinkedHashMap<>();
		methods.forEach((method) -> results.put(method, new ArrayList<>()));
		for (int round = 1; round <= ROUNDS; round++) {
			List<String> order = new ArrayList<>(methods);
			if (round % 2 == 0) {
				java.util.Collections.reverse(order);
			}
			for (String method : order) {
				for (int attempt = 1;; attempt++) {
					awaitOthers(log);
					Measurement measurement = measure(server, admin, bin, method, round, sourceChecksum);
					results.get(method).add(measurement);
					say(log, String.format("%s round %d %-13s %,10d rows in %6.2f s = %,9.0f rows/s (CPU %3.0f%% busy, "
							+ "load before %s; %s%s; %s)", measurement.at(), round, method, measurement.rows(),
							measurement.seconds(), measurement.rowsPerSecond(), 100 * measurement.cpuBusy(),
							measurement.loadBefore(), measurement.detail().isEmpty() ? "" : measurement.detail() + ", ",
							measurement.check(), measurement.conditions()));
					if (measurement.alone() || attempt >= 2) {
						break;
					}
					say(log, "Another benchmark ran during that measurement; repeating it once it has finished");
				}
			}
		}
		say(log, String.format("All measurements done in %.1f s after start; load average %s", seconds(benchStarted),
				loadAverage()));
		String report = report(server, log, results);
		Path out = Path.of("bench", "results", "snapshot.md");
		if (!Files.isDirectory(out.getParent())) {
			out = Path.of("results", "snapshot.md");
		}
		Files.createDirectories(out.getParent());
		Files.writeString(out, report);
		System.out.println("Wrote " + out.toAbsolutePath());
		System.exit(0);
	}

	/**
	 * Times one copy into a fresh schema, checks it and drops the schema again; notes any other
	 * benchmark seen on the machine just before, during or just after the copy.
	 */
	private static Measurement measure(TestDatabaseServer server, DataSource admin, Path bin, String method, int round,
			String sourceChecksum) throws Exception {
		String target = "snap_tgt_" + (++targets);
		server.createSchema(target);
		settle(admin);
		Set<String> others = ConcurrentHashMap.newKeySet();
		others.addAll(otherBenchmarks());
		java.util.concurrent.ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "bench-process-sampler");
			thread.setDaemon(true);
			return thread;
		});
		sampler.scheduleWithFixedDelay(() -> others.addAll(otherBenchmarks()), 1, 1, TimeUnit.SECONDS);
		String at = LocalTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString();
		String loadBefore = loadAverage();
		CpuSample cpu = CpuSample.now();
		Measurement measurement;
		try {
			if (method.equals("insert-select")) {
				measurement = insertSelect(admin, target);
			}
			else if (method.equals("dump-pipe")) {
				measurement = dumpPipe(server, bin, target);
			}
			else {
				measurement = tributary(server, Integer.parseInt(method.substring("tributary-".length())), target);
			}
		}
		finally {
			sampler.shutdownNow();
		}
		double busy = cpu.busySince();
		others.addAll(otherBenchmarks());
		String check = verify(admin, target, sourceChecksum);
		execute(admin, "DROP DATABASE `" + target + "`");
		return measurement.with(round, at, busy, loadBefore, check, new TreeSet<>(others));
	}

	/**
	 * Waits while another benchmark runs on the machine, for at most {@code waitForOthers} seconds
	 * over the whole run; once that is spent, measures at once.
	 */
	private static void awaitOthers(StringBuilder log) throws InterruptedException {
		List<String> others = otherBenchmarks();
		if (others.isEmpty() || waitedNanos >= WAIT_FOR_OTHERS.toNanos()) {
			return;
		}
		say(log, "Waiting for " + new TreeSet<>(others) + " to finish (at most "
				+ (WAIT_FOR_OTHERS.toNanos() - waitedNanos) / 1_000_000_000 + " s more)");
		long started = System.nanoTime();
		long deadline = started + WAIT_FOR_OTHERS.toNanos() - waitedNanos;
		while (!otherBenchmarks().isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(5_000);
		}
		waitedNanos += System.nanoTime() - started;
		say(log, String.format("Waited %.0f s; %s", seconds(started),
				otherBenchmarks().isEmpty() ? "the machine is free of other benchmarks" : "measuring anyway"));
		Thread.sleep(5_000);
	}

	/** Creates {@code sbtest1} as sysbench does and fills it with multi-row inserts. */
	private static void load(DataSource admin) throws SQLException {
		Random random = new Random(42);
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + SOURCE_SCHEMA + "." + TABLE + " (id INT NOT NULL AUTO_INCREMENT, "
					+ "k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', "
					+ "PRIMARY KEY (id), KEY k_1 (k)) ENGINE=InnoDB");
			for (int from = 1; from <= ROWS; from += INSERT_ROWS) {
				StringBuilder insert = new StringBuilder(INSERT_ROWS * 200);
				insert.append("INSERT INTO ").append(SOURCE_SCHEMA).append('.').append(TABLE)
					.append(" (id, k, c, pad) VALUES ");
				for (int id = from; id < from + INSERT_ROWS && id <= ROWS; id++) {
					insert.append((id > from) ? "," : "").append('(').append(id).append(',')
						.append(1 + random.nextInt(ROWS)).append(",'");
					digitGroups(insert, random, 10);
					insert.append("','");
					digitGroups(insert, random, 5);
					insert.append("')");
				}
				statement.execute(insert.toString());
			}
			statement.execute("ANALYZE TABLE " + SOURCE_SCHEMA + "." + TABLE);
		}
	}

	/** Appends sysbench's value template: groups of 11 random digits joined by dashes. */
	private static void digitGroups(StringBuilder out, Random random, int groups) {
		for (int group = 0; group < groups; group++) {
			if (group > 0) {
				out.append('-');
			}
			for (int digit = 0; digit < 11; digit++) {
				out.append((char) ('0' + random.nextInt(10)));
			}
		}
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

	private static Measurement dumpPipe(TestDatabaseServer server, Path bin, String target)
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
			return new Measurement(ROWS, seconds, "");
		}
		finally {
			Files.deleteIfExists(dumpErrors);
			Files.deleteIfExists(restoreErrors);
		}
	}

	private static Measurement tributary(TestDatabaseServer server, int threads, String target) throws Exception {
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
				HikariDataSource targetPool = pool(server, threads + 4, "target")) {
			Pipeline pipeline = new Pipeline(settings, sourcePool, targetPool);
			try {
				long started = System.nanoTime();
				pipeline.start();
				long deadline = started + SNAPSHOT_TIMEOUT.toNanos();
				TableStatus table = pipeline.status().tables().get(0);
				while (table.phase() == TableStatus.Phase.SNAPSHOTTING) {
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
				return new Measurement(table.rowsCopied(), seconds, table.chunksCopied() + " chunks");
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

	/** Resizes the buffer pool and waits for the resize, which the server does in the background. */
	private static void resizeBufferPool(DataSource admin) throws SQLException, InterruptedException {
		execute(admin, "SET GLOBAL innodb_buffer_pool_size = " + BUFFER_POOL);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
		while (System.nanoTime() < deadline) {
			String resize = status(admin, "Innodb_buffer_pool_resize_status");
			if (Long.parseLong(query(admin, "SELECT @@innodb_buffer_pool_size")) >= BUFFER_POOL
					&& (resize.contains("Completed") || !resize.toLowerCase(java.util.Locale.ROOT).contains("resiz"))) {
				return;
			}
			Thread.sleep(200);
		}
	}

	/**
	 * Brings the server to the same state before every measurement: a fresh binary log with the
	 * older ones purged, and no dirty pages left from the copy before.
	 */
	private static void settle(DataSource admin) throws SQLException, InterruptedException {
		execute(admin, "FLUSH BINARY LOGS");
		String current = query(admin, "SHOW MASTER STATUS");
		execute(admin, "PURGE BINARY LOGS TO '" + current + "'");
		String dirtyPct = query(admin, "SELECT @@innodb_max_dirty_pages_pct");
		String dirtyLwm = query(admin, "SELECT @@innodb_max_dirty_pages_pct_lwm");
		execute(admin, "SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0", "SET GLOBAL innodb_max_dirty_pages_pct = 0");
		try {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
			while (Long.parseLong(status(admin, "Innodb_buffer_pool_pages_dirty")) > 100
					&& System.nanoTime() < deadline) {
				Thread.sleep(200);
			}
		}
		finally {
			execute(admin, "SET GLOBAL innodb_max_dirty_pages_pct = " + dirtyPct,
					"SET GLOBAL innodb_max_dirty_pages_pct_lwm = " + dirtyLwm);
		}
		Thread.sleep(1_000);
	}

	/** Checks the copy against the source: same row count and same {@code CHECKSUM TABLE}. */
	private static String verify(DataSource admin, String target, String sourceChecksum) throws SQLException {
		String count = query(admin, "SELECT COUNT(*) FROM " + target + "." + TABLE);
		String checksum = checksum(admin, target);
		if (Long.parseLong(count) != ROWS) {
			return "WRONG COUNT " + count;
		}
		return checksum.equals(sourceChecksum) ? "count and checksum match" : "CHECKSUM DIFFERS " + checksum;
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

	private static String report(TestDatabaseServer server, StringBuilder log,
			Map<String, List<Measurement>> results) {
		StringBuilder out = new StringBuilder();
		out.append("# Snapshot benchmark\n\n")
			.append(String.format("%,d sysbench-shaped rows (`sbtest1`: INT key, INT k with a secondary index, "
					+ "CHAR(120), CHAR(60)) copied into a fresh schema of the same server, %s %s, run at %s.%n%n", ROWS,
					server.flavor(), server.version(), Instant.now()))
			.append("Each measurement copies into a new schema: `CREATE TABLE ... LIKE` plus `INSERT ... SELECT` on one ")
			.append("JDBC connection; `mariadb-dump --single-transaction --skip-ssl` piped into `mariadb --skip-ssl` ")
			.append("over TCP (dump defaults otherwise: table definition, extended inserts); a Tributary pipeline ")
			.append("with the engine's default chunk sizing and 1, 2 or 4 copy threads, timed from `start()` until ")
			.append("the table leaves SNAPSHOTTING. No TLS on any path. Rounds alternate the order of the methods; ")
			.append("before each measurement the older binary logs are purged and dirty pages flushed. Rows/s is ")
			.append("the table's rows over the wall-clock time, table creation included. A measurement during which ")
			.append("another benchmark ran on the machine is repeated once after it finished; best figures and ")
			.append("ratios use only measurements made alone when there are any.\n\n")
			.append("| method | round | start (UTC) | rows | seconds | rows/s | CPU busy | load before | check | conditions |\n")
			.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
		for (Map.Entry<String, List<Measurement>> entry : results.entrySet()) {
			for (Measurement m : entry.getValue()) {
				out.append(String.format("| %s | %d | %s | %,d | %.2f | %,.0f | %.0f%% | %s | %s | %s |%n",
						label(entry.getKey()), m.round(), m.at(), m.rows(), m.seconds(), m.rowsPerSecond(),
						100 * m.cpuBusy(), m.loadBefore(), m.detail().isEmpty() ? m.check() : m.detail() + "; " + m.check(),
						m.conditions()));
			}
		}
		double insertSelect = best(results.get("insert-select"));
		double dump = best(results.get("dump-pipe"));
		out.append("\nBest of the rounds, and ratios of best to best:\n\n")
			.append("| method | best rows/s | vs INSERT ... SELECT | vs dump pipe | target (>= ")
			.append(INSERT_SELECT_TARGET)
			.append("x and >= ")
			.append(DUMP_TARGET)
			.append("x) |\n| --- | --- | --- | --- | --- |\n");
		for (Map.Entry<String, List<Measurement>> entry : results.entrySet()) {
			double best = best(entry.getValue());
			String verdict = "";
			if (entry.getKey().startsWith("tributary")) {
				verdict = ((best / insertSelect >= INSERT_SELECT_TARGET) ? "hit" : "miss") + " / "
						+ ((best / dump >= DUMP_TARGET) ? "hit" : "miss");
			}
			out.append(String.format("| %s | %,.0f | %.2fx | %.2fx | %s |%n", label(entry.getKey()), best,
					best / insertSelect, best / dump, verdict));
		}
		out.append("\nRatios within each round (Tributary rows/s over the baseline's rows/s of the same round):\n\n")
			.append("| method | round | vs INSERT ... SELECT | vs dump pipe |\n| --- | --- | --- | --- |\n");
		for (Map.Entry<String, List<Measurement>> entry : results.entrySet()) {
			if (!entry.getKey().startsWith("tributary")) {
				continue;
			}
			for (int round = 1; round <= ROUNDS; round++) {
				double tributary = ofRound(entry.getValue(), round);
				out.append(String.format("| %s | %d | %.2fx | %.2fx |%n", label(entry.getKey()), round,
						tributary / ofRound(results.get("insert-select"), round),
						tributary / ofRound(results.get("dump-pipe"), round)));
			}
		}
		out.append("\n## Log\n\n```\n").append(log).append("```\n");
		return out.toString();
	}

	private static String label(String method) {
		return switch (method) {
			case "insert-select" -> "INSERT ... SELECT";
			case "dump-pipe" -> "mariadb-dump \\| mariadb";
			default -> "Tributary, " + method.substring("tributary-".length()) + " thread(s)";
		};
	}

	/** The best rows/s among the measurements made alone, or among all when none was. */
	private static double best(List<Measurement> measurements) {
		return preferAlone(measurements).stream().mapToDouble(Measurement::rowsPerSecond).max().orElse(Double.NaN);
	}

	/** The rows/s of a round, from a measurement made alone when the round has one. */
	private static double ofRound(List<Measurement> measurements, int round) {
		return preferAlone(measurements.stream().filter((m) -> m.round() == round).toList()).stream()
			.mapToDouble(Measurement::rowsPerSecond).max().orElse(Double.NaN);
	}

	private static List<Measurement> preferAlone(List<Measurement> measurements) {
		List<Measurement> alone = measurements.stream().filter(Measurement::alone).toList();
		return alone.isEmpty() ? measurements : alone;
	}

	/** Command lines of other benchmark JVMs running now, which would share the machine's CPUs. */
	private static List<String> otherBenchmarks() {
		long self = ProcessHandle.current().pid();
		List<String> found = new ArrayList<>();
		ProcessHandle.allProcesses().filter((p) -> p.pid() != self).forEach((p) -> {
			String command = p.info().commandLine().orElse("");
			if (command.contains("Benchmark") && !command.contains("SnapshotBenchmark")) {
				java.util.regex.Matcher name = java.util.regex.Pattern.compile("\\w+Benchmark").matcher(command);
				found.add(name.find() ? name.group() : "a benchmark");
			}
		});
		return found;
	}

	private static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException | RuntimeException ex) {
			return "unknown";
		}
	}

	private static String version(Path tool) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(tool.toString(), "--version").redirectErrorStream(true).start();
		String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		process.waitFor();
		return text.replaceFirst("^.*/", "");
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

	private static void say(StringBuilder log, String line) {
		System.out.println(line);
		log.append(line).append('\n');
	}

	private static double seconds(long startedNanos) {
		return (System.nanoTime() - startedNanos) / 1e9;
	}

	private static void quietLogs() {
		if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
			root.setLevel(Level.WARN);
		}
		if (LoggerFactory.getLogger("ch.vorburger.exec") instanceof ch.qos.logback.classic.Logger servers) {
			servers.setLevel(Level.OFF);
		}
		BINLOG_CLIENT_LOG.setLevel(java.util.logging.Level.WARNING);
	}

	/**
	 * One timed copy.
	 *
	 * @param rows rows copied
	 * @param seconds wall-clock time of the copy
	 * @param detail what the method reported about the copy, or empty
	 * @param round the round it ran in
	 * @param at UTC time of day the copy started
	 * @param cpuBusy share of the machine's CPU time that was not idle during the copy
	 * @param loadBefore the load average just before the copy
	 * @param check outcome of comparing the copy with the source
	 * @param others other benchmarks seen on the machine around and during the copy
	 */
	private record Measurement(long rows, double seconds, String detail, int round, String at, double cpuBusy,
			String loadBefore, String check, Set<String> others) {

		Measurement(long rows, double seconds, String detail) {
			this(rows, seconds, detail, 0, "", Double.NaN, "", "", Set.of());
		}

		Measurement with(int round, String at, double cpuBusy, String loadBefore, String check, Set<String> others) {
			return new Measurement(this.rows, this.seconds, this.detail, round, at, cpuBusy, loadBefore, check, others);
		}

		double rowsPerSecond() {
			return this.rows / this.seconds;
		}

		boolean alone() {
			return this.others.isEmpty();
		}

		String conditions() {
			return alone() ? "no other benchmark running" : "while " + String.join(", ", this.others) + " ran";
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
