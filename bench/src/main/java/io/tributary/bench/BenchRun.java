package io.tributary.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import org.slf4j.LoggerFactory;

import io.tributary.test.TestDatabaseServer;

/**
 * The one command of the benchmarks: checks every tool the run needs, starts the embedded servers,
 * runs every scenario on each server, and writes the dated results files (see
 * {@link ResultsWriter}). What runs, and how big, is set by {@link BenchSettings}; bench/README.md
 * has the command line.
 *
 * <p>A scenario that fails is recorded as a failure and the run goes on with the next one. The
 * servers are stopped whatever happens, and {@link #main} ends the JVM itself, with exit code 0
 * when every scenario produced its figures, 1 when one failed and 2 when a tool is missing, so no
 * thread left behind by a server or a driver keeps it alive.
 */
public final class BenchRun {

	/** Held here: the JDK keeps loggers only weakly, and a collected one forgets its level. */
	private static final java.util.logging.Logger BINLOG_CLIENT_LOG = java.util.logging.Logger
		.getLogger("com.github.shyiko");

	private BenchRun() {
	}

	public static void main(String[] args) {
		int exit;
		try {
			if (Boolean.getBoolean("bench.help")) {
				System.out.print("Sizes (each -Dbench.NAME=VALUE):\n" + BenchSettings.help());
				exit = 0;
			}
			else {
				Outcome outcome = run(BenchSettings.fromSystemProperties());
				exit = outcome.failed() ? 1 : 0;
			}
		}
		catch (Preflight.MissingToolException | IllegalArgumentException ex) {
			System.err.println();
			System.err.println("Benchmark not run: " + ex.getMessage());
			exit = 2;
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			exit = 1;
		}
		System.exit(exit);
	}

	/** The scenarios a run can take, in the order it takes them. */
	static List<Scenario> scenarios() {
		// Apply right after the two that only read the ingestion backlogs: it reads the second of them
		// from a replica and a target that stand at its start, and nothing else may be written
		// between its end and the apply scenario's next backlog.
		return List.of(new IngestionScenario(), new UnsubscribedScenario(), new ApplyScenario(),
				new SnapshotScenario(), new KafkaScenario(), new LatencyScenario(), new MemoryScenario(),
				new TablesScenario());
	}

	/**
	 * Runs the benchmark without ending the JVM.
	 * @return the figures, and where they were written
	 * @throws Preflight.MissingToolException when a tool is missing; nothing was measured then
	 */
	public static Outcome run(BenchSettings settings) throws Exception {
		quietLogs();
		LocalDateTime started = LocalDateTime.now();
		long startedNanos = System.nanoTime();
		RunFiles files = RunFiles.create(settings.out(), ResultsWriter.baseName(started));
		System.out.println("Benchmark run " + files.baseName() + ": " + settings.describe());
		System.out.println("Results go to " + files.results().toAbsolutePath() + ", reader logs to " + files.work());
		Preflight.checkJvm(settings);
		List<Scenario> chosen = scenarios().stream().filter((s) -> settings.runs(s.name())).toList();
		Map<String, TestDatabaseServer> servers = new LinkedHashMap<>();
		Map<String, String> facts = new LinkedHashMap<>();
		List<ResultRow> rows = new ArrayList<>();
		List<String> details = new ArrayList<>();
		List<String> bounds = new ArrayList<>();
		Map<String, List<String>> timings = new LinkedHashMap<>();
		try {
			// Every server and tool first, so a missing one stops the run before anything is measured.
			for (String flavor : settings.servers()) {
				System.out.println("Starting the embedded " + flavor + " server");
				TestDatabaseServer server = Preflight.startServer(flavor);
				servers.put(flavor, server);
				String fact = describe(server);
				if (flavor.equals("mariadb") && settings.runs("snapshot")) {
					fact += "; client tools " + Preflight.checkMariaDbClients(server);
				}
				facts.put(flavor, fact);
				System.out.println(flavor + ": " + fact);
			}
			for (String flavor : settings.servers()) {
				TestDatabaseServer server = servers.get(flavor);
				// The replica the scenarios of this server shared is stopped with the state.
				try (ScenarioContext.ServerState state = new ScenarioContext.ServerState()) {
					for (Scenario scenario : chosen) {
						if (scenario.runsOn(flavor) && settings.measuresOn(scenario.name(), flavor)) {
							double seconds = runOne(scenario, new ScenarioContext(settings, server, flavor,
									scenario.name(), rows, details, bounds, files, state), rows);
							timings.computeIfAbsent(flavor, (f) -> new ArrayList<>())
								.add(String.format("%s %.0f s", scenario.name(), seconds));
						}
					}
				}
				// Stopped before the next server's scenarios, which then have the machine to themselves.
				servers.remove(flavor).close();
			}
		}
		finally {
			for (TestDatabaseServer server : servers.values()) {
				try {
					server.close();
				}
				catch (RuntimeException ex) {
					System.err.println("Could not stop " + server + ": " + ex.getMessage());
				}
			}
		}
		StringBuilder duration = new StringBuilder(
				String.format("%.0f s", (System.nanoTime() - startedNanos) / 1e9));
		timings.forEach((flavor, scenarios) -> duration.append("; ").append(flavor).append(": ")
			.append(String.join(", ", scenarios)));
		Path markdown = ResultsWriter.write(files.results(), files.baseName(), settings, started, duration.toString(),
				facts, rows, bounds, details);
		System.out.println();
		System.out.print(ResultsWriter.markdown(settings, started, duration.toString(), facts,
				rows.stream().filter((row) -> row.isComparison() || row.isFailure()).toList(), bounds, List.of()));
		System.out.println();
		System.out.println("Wrote " + markdown.toAbsolutePath() + " and its .csv");
		return new Outcome(rows, markdown);
	}

	/**
	 * Runs one scenario on one server; a failure is recorded as a row and the run goes on.
	 * @return seconds it took
	 */
	private static double runOne(Scenario scenario, ScenarioContext context, List<ResultRow> rows) {
		context.say("starting");
		long scenarioStarted = System.nanoTime();
		int before = rows.size();
		try {
			scenario.run(context);
			if (rows.size() == before) {
				throw new IllegalStateException("The scenario recorded no figure");
			}
		}
		catch (Exception ex) {
			ex.printStackTrace();
			rows.add(ResultRow.failed(scenario.name(), context.flavor(), String.valueOf(ex.getMessage())));
		}
		double seconds = (System.nanoTime() - scenarioStarted) / 1e9;
		context.say(String.format("done in %.0f s", seconds));
		return seconds;
	}

	/** Version and the settings that shape the figures. */
	private static String describe(TestDatabaseServer server) throws SQLException {
		StringBuilder out = new StringBuilder(server.flavor() + " " + server.version());
		List<String> names = new ArrayList<>(List.of("innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit",
				"sync_binlog", "binlog_format", "binlog_row_image", "binlog_checksum", "max_binlog_size"));
		if (!server.isMariaDb()) {
			names.add("gtid_mode");
		}
		try (Connection connection = server.dataSource(null).getConnection();
				Statement statement = connection.createStatement()) {
			for (String name : names) {
				try (ResultSet rs = statement.executeQuery("SELECT @@GLOBAL." + name)) {
					rs.next();
					out.append(", ").append(name).append('=').append(rs.getString(1));
				}
			}
		}
		return out.toString();
	}

	/**
	 * Keeps the console to the benchmark's own lines: warnings and errors of the engine, nothing from
	 * the binlog client's connects and the servers' notes.
	 */
	static void quietLogs() {
		if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
			root.setLevel(Level.WARN);
		}
		if (LoggerFactory.getLogger("ch.vorburger.exec") instanceof ch.qos.logback.classic.Logger servers) {
			servers.setLevel(Level.OFF);
		}
		BINLOG_CLIENT_LOG.setLevel(java.util.logging.Level.WARNING);
	}

	/**
	 * What a run produced.
	 *
	 * @param rows every figure, and a failure row per scenario that failed
	 * @param markdown the results file
	 */
	public record Outcome(List<ResultRow> rows, Path markdown) {

		/** Whether a scenario failed. */
		public boolean failed() {
			return this.rows.stream().anyMatch(ResultRow::isFailure);
		}

	}

}
