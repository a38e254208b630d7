package io.tributary.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MySQL 8.0.31 run from the binaries of {@link MySqlDistribution}: a fresh data directory is
 * initialised with an empty root password, then {@code mysqld} runs as a child process with GTIDs
 * (unless created without) and a row-based binary log until {@link #stop()}. Its files live in a
 * {@link ServerDirectory}, which stops it if this JVM is killed. {@link #stopProcess(boolean)} and
 * {@link #startProcess()} stop and start the same server again on the same port and data directory.
 *
 * <p>TLS uses a certificate for {@code 127.0.0.1} issued at start by a fresh
 * {@link TestCertificateAuthority} (files in the {@code tls} directory), not the certificates
 * {@code --initialize} generates, whose names match no host; so both embedded servers verify the
 * same way.
 */
final class EmbeddedMySql implements ServerBackend {

	private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMySql.class);
	private static final Duration INITIALIZE_TIMEOUT = Duration.ofMinutes(3);
	private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

	private final int port = Local.freePort();
	private final long serverId;
	private final boolean gtids;
	private ServerDirectory directory;
	private Path runDir;
	private Path caCertificate;
	private Path errorLog;
	private List<String> command;
	private Process process;

	/** The shared server: server id 1, GTIDs on. */
	EmbeddedMySql() {
		this(1, true);
	}

	/**
	 * A server with its own server id, which replicas need, and with {@code gtid_mode} ON or OFF.
	 * Replicated transactions are written to its binary log too ({@code log_replica_updates}, on by
	 * default in MySQL 8.0), so a replica of it can be promoted.
	 */
	EmbeddedMySql(long serverId, boolean gtids) {
		this.serverId = serverId;
		this.gtids = gtids;
	}

	/**
	 * The MySQL tarball's {@code mysqld} links against libaio, which a minimal Linux lacks. Rather
	 * than fail with a loader error, skip the MySQL run with a message naming the package; the
	 * project's CI script installs it.
	 */
	private static void requireSharedLibraries(String mysqld) {
		String missing;
		try {
			Process ldd = new ProcessBuilder("ldd", mysqld).redirectErrorStream(true).start();
			String output = new String(ldd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
			ldd.waitFor();
			missing = output.lines().filter((line) -> line.contains("not found")).map(String::trim)
					.collect(java.util.stream.Collectors.joining(", "));
		} catch (IOException | InterruptedException e) {
			return; // no ldd: let mysqld itself report what is missing
		}
		if (!missing.isEmpty()) {
			throw new org.opentest4j.TestAbortedException("Skipping the MySQL 8.0.31 test server: mysqld needs shared "
					+ "libraries this machine lacks (" + missing + "). Install them (Debian/Ubuntu: "
					+ "apt-get install libaio1) or run with -Dtributary.it.mysql.skip=true");
		}
	}

	@Override
	public void start() throws Exception {
		Path baseDir = MySqlDistribution.resolve();
		directory = ServerDirectory.create("tributary-mysql-");
		runDir = directory.path();
		Path dataDir = runDir.resolve("data");
		Path tmpDir = Files.createDirectories(runDir.resolve("tmp"));
		Path tlsDir = runDir.resolve("tls");
		caCertificate = TestCertificateAuthority.writeServerFiles(tlsDir);
		errorLog = runDir.resolve("error.log");
		String mysqld = baseDir.resolve("bin/mysqld").toString();
		requireSharedLibraries(mysqld);

		List<String> initialize = List.of(mysqld, "--no-defaults", "--initialize-insecure",
				"--basedir=" + baseDir, "--datadir=" + dataDir, "--user=root",
				"--log-error=" + runDir.resolve("initialize.log"));
		runToCompletion(initialize, runDir.resolve("initialize.out"), runDir.resolve("initialize.log"));

		command = new ArrayList<>(List.of(mysqld, "--no-defaults",
				"--user=root",
				"--basedir=" + baseDir,
				"--datadir=" + dataDir,
				"--tmpdir=" + tmpDir,
				"--port=" + port,
				"--bind-address=" + Local.LOOPBACK,
				"--socket=" + runDir.resolve("mysql.sock"),
				"--pid-file=" + runDir.resolve("mysqld.pid"),
				"--mysqlx=OFF",
				"--secure-file-priv=" + tmpDir,
				"--log-bin=mysql-bin",
				"--binlog-format=ROW",
				"--binlog-row-image=FULL",
				"--server-id=" + serverId,
				"--gtid-mode=" + (gtids ? "ON" : "OFF"),
				"--enforce-gtid-consistency=" + (gtids ? "ON" : "OFF"),
				"--log-replica-updates=ON",
				// A replica's threads start when the test asks, not with the server.
				"--skip-replica-start",
				"--log-error=" + errorLog,
				"--innodb-buffer-pool-size=256M",
				"--max-connections=500",
				"--character-set-server=utf8mb4",
				"--ssl-ca=" + caCertificate,
				"--ssl-cert=" + tlsDir.resolve("server-cert.pem"),
				"--ssl-key=" + tlsDir.resolve("server-key.pem")));
		startProcess();
	}

	/**
	 * Starts {@code mysqld} on the data directory {@link #start()} initialised, with the same
	 * options and port, and waits until it accepts connections.
	 */
	@Override
	public void startProcess() throws IOException {
		if (process != null && process.isAlive()) {
			throw new IllegalStateException("mysqld is running already");
		}
		ProcessBuilder builder = new ProcessBuilder(command)
				.directory(runDir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(runDir.resolve("mysqld.out").toFile()));
		process = builder.start();
		directory.guard(process.toHandle());
		awaitReady();
	}

	private void runToCompletion(List<String> command, Path output, Path log) throws IOException, InterruptedException {
		Process init = new ProcessBuilder(command)
				.directory(runDir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
		if (!init.waitFor(INITIALIZE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
			init.destroyForcibly();
			throw new IOException("mysqld --initialize-insecure did not finish within " + INITIALIZE_TIMEOUT
					+ "\n" + Local.tail(log, 40));
		}
		if (init.exitValue() != 0) {
			throw new IOException("mysqld --initialize-insecure failed with exit code " + init.exitValue()
					+ "\n" + Local.tail(output, 20) + "\n" + Local.tail(log, 40));
		}
	}

	private void awaitReady() throws IOException {
		String url = "jdbc:mysql://" + Local.LOOPBACK + ":" + port
				+ "/?useSSL=false&allowPublicKeyRetrieval=true&connectTimeout=2000&socketTimeout=5000";
		Properties credentials = new Properties();
		credentials.setProperty("user", bootstrapUser());
		credentials.setProperty("password", bootstrapPassword());
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		SQLException last = null;
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IOException("mysqld exited with code " + process.exitValue() + " during startup\n"
						+ Local.tail(errorLog, 40));
			}
			try (Connection ignored = DriverManager.getConnection(url, credentials)) {
				return;
			} catch (SQLException e) {
				last = e;
			}
			// Poll interval between connection attempts while the server starts.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
		}
		IOException failure = new IOException("mysqld did not accept connections on port " + port + " within "
				+ START_TIMEOUT + "\n" + Local.tail(errorLog, 40));
		if (last != null) {
			failure.addSuppressed(last);
		}
		throw failure;
	}

	@Override
	public String knownFlavor() {
		return "mysql";
	}

	@Override
	public String host() {
		return Local.LOOPBACK;
	}

	@Override
	public int port() {
		return port;
	}

	@Override
	public String[] bootstrapStatements() {
		return testAccountStatements();
	}

	/** Creates the test account with every privilege on {@code %} and {@code localhost}, as root. */
	static String[] testAccountStatements() {
		List<String> sql = new ArrayList<>();
		for (String host : new String[] {"%", "localhost"}) {
			sql.add("CREATE USER IF NOT EXISTS '" + TestDatabaseServer.TEST_USER + "'@'" + host
					+ "' IDENTIFIED BY '" + TestDatabaseServer.TEST_PASSWORD + "'");
			sql.add("GRANT ALL PRIVILEGES ON *.* TO '" + TestDatabaseServer.TEST_USER + "'@'" + host
					+ "' WITH GRANT OPTION");
		}
		return sql.toArray(String[]::new);
	}

	@Override
	public Optional<Path> caCertificate() {
		return Optional.ofNullable(caCertificate);
	}

	@Override
	public String[] replicaStatements(ServerBackend primary) {
		String source = "SOURCE_HOST='" + primary.host() + "', SOURCE_PORT=" + primary.port() + ", SOURCE_USER='"
				+ primary.username() + "', SOURCE_PASSWORD='" + primary.password()
				+ "', GET_SOURCE_PUBLIC_KEY=1, SOURCE_CONNECT_RETRY=1, ";
		// Without GTIDs the replica starts at the primary's first binlog file, which still holds everything.
		return new String[] {
			"CHANGE REPLICATION SOURCE TO " + source
					+ (gtids ? "SOURCE_AUTO_POSITION=1" : "SOURCE_LOG_FILE='mysql-bin.000001', SOURCE_LOG_POS=4"),
			"START REPLICA",
		};
	}

	@Override
	public boolean gtids() {
		return gtids;
	}

	/** SIGTERM, on which mysqld shuts down cleanly, or SIGKILL; waits until the process has ended. */
	@Override
	public void stopProcess(boolean kill) {
		Process p = process;
		if (p == null || !p.isAlive()) {
			return;
		}
		try {
			if (kill) {
				p.destroyForcibly();
				p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
				return;
			}
			p.destroy();
			if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				LOG.warn("mysqld did not stop within {}; killing it", STOP_TIMEOUT);
				p.destroyForcibly();
				p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
		} catch (InterruptedException e) {
			p.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void stop() {
		stopProcess(false);
		if (directory != null) {
			directory.close();
		}
	}
}
