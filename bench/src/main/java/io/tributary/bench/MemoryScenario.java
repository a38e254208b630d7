package io.tributary.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.sql.DataSource;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.SnapshotMode;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.test.TestDatabaseServer;

/**
 * Memory: the peak live heap of a pipeline while it applies a burst of {@code memoryChanges} row
 * changes with {@code cdc.buffer.soft-limit} at {@code memorySoftLimitMb}, once into the target
 * table and once into a slow {@code ChangeListener} that pauses
 * {@code memoryListenerMicrosPerChange} per change of a batch (a batch carries up to 10,000
 * changes, so a fixed pause per batch would hardly slow it below the reader). Target: at most the soft limit plus 64 MB
 * above the heap live before the start.
 *
 * <p>{@code bench_memory.burst} (sysbench's shape, {@code memoryRows} rows) is updated by
 * 1,000-row {@code UPDATE ... WHERE id BETWEEN} transactions, round after round over the table, so
 * the buffer sees every row again and again and far more distinct keys than the soft limit holds.
 * Both pipelines leave a checkpoint before the burst (no snapshot: {@code SnapshotMode.NEVER}), so
 * each reads it as a backlog, as fast as the buffer lets it. Each runs in a JVM of its own
 * ({@link MemoryMain}), where nothing else holds heap; the two JVMs run at the same time. MariaDB only; the target
 * table is on the
 * same server.
 */
final class MemoryScenario implements Scenario {

	private static final long MB = 1024 * 1024;

	/** The headroom above the soft limit. */
	private static final long HEADROOM_MB = 64;

	private static final String SCHEMA = "bench_memory";

	private static final TableId SOURCE = new TableId(SCHEMA, "burst");

	private static final TableId TARGET = new TableId("bench_memory_target", "burst");

	private static final int ROWS_PER_TRANSACTION = 1_000;

	private static final int CLIENTS = 2;

	@Override
	public String name() {
		return "memory";
	}

	@Override
	public boolean runsOn(String server) {
		return server.equals("mariadb");
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		TestDatabaseServer server = context.server();
		BenchSettings settings = context.settings();
		DataSource admin = server.dataSource(null);
		int rows = settings.number("memoryRows");
		server.createSchema(SCHEMA);
		server.execute(null, "DROP DATABASE IF EXISTS " + TableId.quote(TARGET.schema()),
				"CREATE TABLE " + SOURCE.quoted() + " (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, "
						+ "c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), "
						+ "KEY k_1 (k)) ENGINE = InnoDB");
		long started = System.nanoTime();
		SysbenchRows.load(admin, SOURCE.quoted(), rows, 11);
		context.say(String.format("loaded %,d rows in %.1f s", rows, seconds(started)));
		List<String> modes = List.of("target", "listener");
		for (String mode : modes) {
			leaveCheckpoint(server, mode);
		}
		long changes;
		started = System.nanoTime();
		try (SourceTuning tuning = SourceTuning.apply(server)) {
			changes = burst(server, rows, settings.number("memoryChanges"));
		}
		Position head = SourceQueries.headFileOffset(admin);
		context.say(String.format("wrote the burst: %,d changes in %.1f s, binlog up to %s", changes, seconds(started),
				head));
		// Side by side: the listener's pipeline mostly waits in its pauses, and each JVM's heap is its
		// own, so neither peak depends on the other; only the target run's rate is lower for it.
		ExecutorService jvms = Executors.newFixedThreadPool(modes.size());
		try {
			Map<String, Future<Properties>> results = new LinkedHashMap<>();
			for (String mode : modes) {
				results.put(mode, jvms.submit(() -> context.readers().launch("memory-" + mode, MemoryMain.class,
						false, true, args(context, mode, head))));
			}
			for (Map.Entry<String, Future<Properties>> result : results.entrySet()) {
				record(context, result.getKey(), changes, result.getValue().get());
			}
		}
		finally {
			jvms.shutdown();
		}
	}

	/**
	 * Runs the pipeline of a mode once, with nothing to copy and nothing to apply, so that it saves a
	 * checkpoint at the head: its run in the memory JVM then reads the burst as a backlog.
	 */
	private static void leaveCheckpoint(TestDatabaseServer server, String mode) throws Exception {
		SourceSettings source = new SourceSettings(server.host(), server.port(), server.username(), server.password(),
				mode.equals("target") ? 3001 : 3002, Duration.ofSeconds(10), Duration.ofSeconds(5), SslMode.DISABLED,
				null);
		PipelineSettings settings = PipelineSettings
			.of(source, List.of(new TableMapping(SOURCE, TARGET, List.of(), SnapshotMode.NEVER)), checkpoints(mode))
			.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false));
		if (mode.equals("listener")) {
			settings = settings.withListener((batch) -> {
			});
		}
		Pipeline pipeline = new Pipeline(settings, server.dataSource(null), server.dataSource(null));
		pipeline.start();
		try {
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
		}
		finally {
			pipeline.close();
		}
		try (Connection connection = server.dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + checkpoints(mode).quoted())) {
			if (!rs.next() || rs.getLong(1) == 0) {
				throw new IllegalStateException("The " + mode + " pipeline saved no checkpoint before the burst");
			}
		}
	}

	private static TableId checkpoints(String mode) {
		return new TableId("bench_memory_meta", "checkpoints_" + mode);
	}

	/**
	 * Updates 1,000-row ranges of the table, round after round, until {@code changes} rows were
	 * changed; each client owns every other range, so the clients never wait for each other.
	 * @return rows changed
	 */
	private static long burst(TestDatabaseServer server, int rows, int changes) throws Exception {
		int ranges = Math.max(1, (rows + ROWS_PER_TRANSACTION - 1) / ROWS_PER_TRANSACTION);
		int clients = Math.min(CLIENTS, ranges);
		int statements = (changes + ROWS_PER_TRANSACTION - 1) / ROWS_PER_TRANSACTION;
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		try {
			List<Future<Long>> done = new ArrayList<>();
			for (int client = 0; client < clients; client++) {
				int mine = client;
				done.add(pool.submit(() -> {
					long changed = 0;
					try (Connection connection = server.dataSource(null).getConnection();
							PreparedStatement update = connection.prepareStatement("UPDATE " + SOURCE.quoted()
									+ " SET k = k + 1 WHERE id BETWEEN ? AND ?")) {
						int range = mine;
						for (int statement = mine; statement < statements; statement += clients) {
							int from = 1 + range * ROWS_PER_TRANSACTION;
							update.setInt(1, from);
							update.setInt(2, from + ROWS_PER_TRANSACTION - 1);
							changed += update.executeUpdate();
							range = (range + clients < ranges) ? range + clients : mine;
						}
					}
					return changed;
				}));
			}
			long changed = 0;
			for (Future<Long> future : done) {
				changed += future.get();
			}
			return changed;
		}
		finally {
			pool.shutdown();
		}
	}

	private static Map<String, String> args(ScenarioContext context, String mode, Position head) {
		TestDatabaseServer server = context.server();
		BenchSettings settings = context.settings();
		Map<String, String> args = new LinkedHashMap<>();
		args.put("mode", mode);
		args.put("host", server.host());
		args.put("port", Integer.toString(server.port()));
		args.put("user", server.username());
		args.put("password", server.password());
		args.put("source", SOURCE.toString());
		args.put("target", TARGET.toString());
		args.put("checkpoints", checkpoints(mode).toString());
		args.put("softLimitMb", settings.text("memorySoftLimitMb"));
		args.put("microsPerChange", settings.text("memoryListenerMicrosPerChange"));
		args.put("sampleMillis", settings.text("memorySampleMillis"));
		args.put("head", head.toString());
		return args;
	}

	private void record(ScenarioContext context, String mode, long changes, Properties result) {
		long softLimitMb = context.settings().number("memorySoftLimitMb");
		double peakMb = Long.parseLong(result.getProperty("peakAboveBaselineBytes")) / (double) MB;
		double seconds = Double.parseDouble(result.getProperty("seconds"));
		double maxBufferedMb = Long.parseLong(result.getProperty("maxBufferedBytes")) / (double) MB;
		String into = mode.equals("target") ? "into the target table"
				: String.format("into a ChangeListener pausing %s us per change",
						context.settings().text("memoryListenerMicrosPerChange"));
		String shape = String.format("%,d changes, soft limit %d MB, %s", changes, softLimitMb, into);
		String how = String.format("live heap (after a full collection, every %s ms) above %.0f MB live before the "
				+ "start, %s samples; buffer at most %.1f MB seen; %s park(s), %s ms parked; %s events, %s changes "
				+ "applied in %s batches; -Xmx %d MB; collections: %s", context.settings().text("memorySampleMillis"),
				Long.parseLong(result.getProperty("baselineBytes")) / (double) MB, result.getProperty("samples"),
				maxBufferedMb, result.getProperty("parkEvents"), result.getProperty("parkedMillis"),
				result.getProperty("events"), result.getProperty("changesApplied"), result.getProperty("batches"),
				Long.parseLong(result.getProperty("maxHeapBytes")) / MB, result.getProperty("gc"));
		context.record(ResultRow.measured(name(), context.flavor(), shape, "Tributary, burst applied", changes / seconds,
				"changes/s", String.format("%.1f s from start until the burst's end was confirmed", seconds)));
		context.record(ResultRow.bounded(name(), context.flavor(), shape, "Tributary, peak live heap", peakMb, "MB",
				"soft limit + 64 MB", softLimitMb + HEADROOM_MB, 1, how));
		context.bound(String.format("%s: peak live heap %.1f MB, of which the changes held (buffered plus the drain "
				+ "being applied) at most %.1f MB (soft limit %d MB, %s park(s)); the %.1f MB besides it are the "
				+ "working set of the apply (row lists, statements, driver buffers) and the reader's current event",
				into, peakMb, maxBufferedMb, softLimitMb, result.getProperty("parkEvents"), peakMb - maxBufferedMb));
	}

	private static double seconds(long startedNanos) {
		return (System.nanoTime() - startedNanos) / 1e9;
	}

}
