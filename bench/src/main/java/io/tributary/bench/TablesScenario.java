package io.tributary.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tributary.name.TableId;
import io.tributary.test.TestDatabaseServer;

/**
 * Tables: one pipeline with {@code tablesCounts} tables (10, 100 and 1,000) taken by one pattern
 * entry, in a real application ({@link TablesApplication}: the starter, the console, the actuator
 * and Prometheus) run in a JVM of its own with {@code -Xmx} of {@code tablesHeap}. For each count:
 * the time from the JVM's start until every table streams (copy included), the heap after a full
 * collection and the threads once they stream, the connections of the application's two accounts
 * (source and target) to the server, the size and median time of {@code /actuator/cdc},
 * {@code /actuator/prometheus} and the console's overview with what it polls, and how long a light
 * write takes to reach the targets. Then the application is started again from its checkpoints with
 * {@code cdc.metrics.tables=trouble}: the time until every table streams again, and the scrape. No
 * reference: the figures are what the issue asks for; each is set against the smallest count's.
 */
final class TablesScenario implements Scenario {

	static final String SOURCE_SCHEMA = "bench_tables";

	static final String TARGET_SCHEMA = "bench_tables_target";

	/** The application's accounts: one for the source, one for the target, so that each is counted apart. */
	static final String SOURCE_USER = "cdc_source";

	static final String TARGET_USER = "cdc_target";

	private static final String PASSWORD = "cdc-bench";

	/** Tables the light write inserts into. */
	private static final int WRITTEN_TABLES = 10;

	private static final int WARMUP_REQUESTS = 2;

	private static final List<String> PATHS = List.of("/actuator/cdc", "/actuator/prometheus", "/tributary",
			"/tributary/fragments/overview", "/tributary/history.json");

	@Override
	public String name() {
		return "tables";
	}

	@Override
	public boolean runsOn(String server) {
		return true;
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		TestDatabaseServer server = context.server();
		createAccounts(server);
		int rows = context.settings().number("tablesRows");
		TablesFigures smallest = null;
		try {
			for (int count : context.settings().numbers("tablesCounts")) {
				TablesFigures figures = measure(context, count, rows);
				figures.record(context, smallest);
				if (smallest == null) {
					smallest = figures;
				}
			}
		}
		finally {
			server.execute(null, "DROP DATABASE IF EXISTS " + TableId.quote(SOURCE_SCHEMA),
					"DROP DATABASE IF EXISTS " + TableId.quote(TARGET_SCHEMA));
		}
	}

	/** Creates the source's and the target's accounts, and logs each in once over JDBC. */
	private static void createAccounts(TestDatabaseServer server) throws SQLException {
		List<String> sql = new ArrayList<>();
		for (String user : List.of(SOURCE_USER, TARGET_USER)) {
			for (String host : List.of("%", "localhost")) {
				sql.add("CREATE USER IF NOT EXISTS '" + user + "'@'" + host + "' IDENTIFIED BY '" + PASSWORD + "'");
				sql.add("GRANT ALL PRIVILEGES ON *.* TO '" + user + "'@'" + host + "'");
			}
		}
		server.execute(null, sql.toArray(String[]::new));
		// A first login over JDBC (with the server's public key) lets MySQL's caching_sha2_password
		// admit the binlog client's later logins without TLS.
		for (String user : List.of(SOURCE_USER, TARGET_USER)) {
			try (Connection connection = DriverManager.getConnection(server.jdbcUrl(null), user, PASSWORD)) {
				connection.isValid(5);
			}
		}
	}

	private TablesFigures measure(ScenarioContext context, int count, int rows) throws Exception {
		TestDatabaseServer server = context.server();
		BenchSettings settings = context.settings();
		SbtestTables tables = new SbtestTables(server, SOURCE_SCHEMA, count);
		long started = System.nanoTime();
		tables.create(rows);
		server.createSchema(TARGET_SCHEMA);
		context.say(String.format("created %,d tables of %,d rows in %.1f s", count, rows,
				(System.nanoTime() - started) / 1e9));
		int requests = settings.number("tablesRequests");
		int timeout = settings.number("childTimeoutMinutes");
		StreamingWait first;
		JvmFigures jvm;
		ServerConnections source;
		ServerConnections target;
		Map<String, TimedGets.Timing> gets = new LinkedHashMap<>();
		double writeSeconds;
		try (ApplicationJvm app = start(context, count, "all")) {
			first = StreamingWait.await(app, count, timeout);
			context.say(String.format("every table streams %.1f s after the JVM's start (application answering after "
					+ "%.1f s)", first.streamingSeconds(), first.readySeconds()));
			Thread.sleep(settings.number("tablesSettleSeconds") * 1000L);
			TimedGets http = new TimedGets(app.baseUrl());
			jvm = JvmFigures.read(http);
			source = ServerConnections.of(server.dataSource(null), SOURCE_USER);
			target = ServerConnections.of(server.dataSource(null), TARGET_USER);
			for (String path : PATHS) {
				gets.put(path, http.time(path, WARMUP_REQUESTS, requests));
			}
			writeSeconds = lightWrite(tables, settings.number("tablesWriteRows"), timeout);
			List<String> differ = tables.differences(TARGET_SCHEMA);
			if (!differ.isEmpty()) {
				throw new IllegalStateException(differ.size() + " of " + count + " target tables do not hold their "
						+ "source's rows (source / target): " + String.join(", ", differ.subList(0, Math.min(10,
								differ.size()))));
			}
		}
		StreamingWait restart;
		TimedGets.Timing troubleScrape;
		try (ApplicationJvm app = start(context, count, "trouble")) {
			restart = StreamingWait.await(app, count, timeout);
			context.say(String.format("restarted from the checkpoints: every table streams %.1f s after the JVM's start",
					restart.streamingSeconds()));
			troubleScrape = new TimedGets(app.baseUrl()).time("/actuator/prometheus", WARMUP_REQUESTS, requests);
		}
		return new TablesFigures(name(), context.flavor(), count, rows, first, jvm, source, target, gets, writeSeconds,
				restart, troubleScrape);
	}

	private ApplicationJvm start(ScenarioContext context, int count, String meteredTables) throws Exception {
		TestDatabaseServer server = context.server();
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spring.application.name", "tributary-bench-tables");
		properties.put("spring.main.banner-mode", "off");
		properties.put("spring.datasource.url", server.jdbcUrl(TARGET_SCHEMA));
		properties.put("spring.datasource.username", TARGET_USER);
		properties.put("spring.datasource.password", PASSWORD);
		properties.put("cdc.source.host", server.host());
		properties.put("cdc.source.port", Integer.toString(server.port()));
		properties.put("cdc.source.username", SOURCE_USER);
		properties.put("cdc.source.password", PASSWORD);
		properties.put("cdc.source.ssl-mode", "disabled");
		properties.put("cdc.tables[0].source", SOURCE_SCHEMA + ".*");
		properties.put("cdc.tables[0].target", TARGET_SCHEMA + ".{table}");
		properties.put("cdc.metrics.tables", meteredTables);
		properties.put("management.endpoints.web.exposure.include", "cdc,prometheus,jvmfigures");
		// Spring Boot's default level, which the benchmark's own logging configuration lowers to warnings.
		properties.put("logging.level.root", "info");
		String label = count + "-tables-" + meteredTables;
		return ApplicationJvm.start(context.files().scratch(name() + "-" + context.flavor() + "-" + label + ".log"),
				context.settings().text("tablesHeap"), properties);
	}

	/**
	 * Inserts {@code rows} rows into each of the first tables, one auto-commit statement each, and
	 * waits until their targets hold as many rows as they do.
	 * @return seconds from the first insert until the targets hold them
	 */
	private static double lightWrite(SbtestTables tables, int rows, int timeoutMinutes) throws Exception {
		int written = Math.min(WRITTEN_TABLES, tables.count());
		long started = System.nanoTime();
		try (Connection connection = tables.connection(); Statement statement = connection.createStatement()) {
			for (int index = 1; index <= written; index++) {
				String table = tables.table(index).quoted();
				statement.execute("INSERT INTO " + table + " (k, c, pad) SELECT k, c, pad FROM " + table
						+ " ORDER BY id LIMIT " + rows);
			}
		}
		long deadline = started + timeoutMinutes * 60_000_000_000L;
		while (!tables.differences(TARGET_SCHEMA, written).isEmpty()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The targets of the written tables differ from their sources "
						+ timeoutMinutes + " minutes after the write: " + tables.differences(TARGET_SCHEMA, written));
			}
			Thread.sleep(20);
		}
		return (System.nanoTime() - started) / 1e9;
	}

}
