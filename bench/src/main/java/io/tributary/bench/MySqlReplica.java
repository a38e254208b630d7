package io.tributary.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.tributary.source.Position;
import io.tributary.test.TestDatabaseServer;

/**
 * The {@link NativeReplica} of the MySQL runs: a second embedded MySQL 8.0.31 (as the run's own
 * server: GTIDs on, binary log on, {@code log_replica_updates}, {@code sync_binlog=1},
 * {@code innodb_flush_log_at_trx_commit=1}) with {@code replica_parallel_workers} appliers of type
 * {@code LOGICAL_CLOCK} that keep the source's commit order ({@code replica_preserve_commit_order},
 * MySQL 8.0.27's defaults), and {@code local_infile=ON}, which Tributary's streamed loads need. It writes its own
 * binary log, and so does Tributary writing to it: both
 * work at the same durability. How much the appliers can overlap depends on the source's
 * {@code binlog_transaction_dependency_tracking}, which the apply scenario sets to
 * {@code WRITESET}.
 */
final class MySqlReplica implements NativeReplica {

	private final int parallelWorkers;

	private final String bufferPool;

	private TestDatabaseServer server;

	/**
	 * Creates a replica; nothing runs until {@link #start()}.
	 * @param parallelWorkers {@code replica_parallel_workers}
	 * @param bufferPoolBytes {@code innodb_buffer_pool_size}
	 */
	MySqlReplica(int parallelWorkers, long bufferPoolBytes) {
		this.parallelWorkers = parallelWorkers;
		this.bufferPool = Long.toString(bufferPoolBytes);
	}

	/** Starts the server and sets its appliers; replication stays unconfigured. */
	void start() throws SQLException {
		this.server = Preflight.startServer("mysql");
		execute("SET GLOBAL innodb_buffer_pool_size = " + this.bufferPool,
				"SET GLOBAL replica_parallel_workers = " + this.parallelWorkers,
				"SET GLOBAL replica_preserve_commit_order = ON", "SET GLOBAL innodb_flush_log_at_trx_commit = 1",
				// As the configuration guide advises for a MySQL target, so Tributary's large batches are loaded.
				"SET GLOBAL local_infile = ON");
	}

	@Override
	public String name() {
		return "MySQL replica";
	}

	@Override
	public String describe() throws SQLException {
		return this.server.version() + ", replica_parallel_workers=" + variable("replica_parallel_workers")
				+ ", replica_parallel_type=" + variable("replica_parallel_type") + ", replica_preserve_commit_order="
				+ variable("replica_preserve_commit_order") + ", innodb_flush_log_at_trx_commit="
				+ variable("innodb_flush_log_at_trx_commit") + ", sync_binlog=" + variable("sync_binlog")
				+ ", log_replica_updates=" + variable("log_replica_updates") + ", local_infile="
				+ variable("local_infile");
	}

	@Override
	public String host() {
		return this.server.host();
	}

	@Override
	public int port() {
		return this.server.port();
	}

	@Override
	public String jdbcUrl() {
		return this.server.jdbcUrl(null);
	}

	@Override
	public String user() {
		return this.server.username();
	}

	@Override
	public String password() {
		return this.server.password();
	}

	@Override
	public DataSource dataSource() {
		return this.server.dataSource(null);
	}

	@Override
	public void replicateFrom(String host, int port, String user, String password, Position from) throws SQLException {
		execute("CHANGE REPLICATION SOURCE TO SOURCE_HOST='" + host + "', SOURCE_PORT=" + port + ", SOURCE_USER='" + user
				+ "', SOURCE_PASSWORD='" + password + "', SOURCE_LOG_FILE='" + from.file() + "', SOURCE_LOG_POS="
				+ from.offset() + ", SOURCE_AUTO_POSITION=0, GET_SOURCE_PUBLIC_KEY=1, SOURCE_CONNECT_RETRY=1");
	}

	@Override
	public void startReplica() throws SQLException {
		execute("START REPLICA");
	}

	@Override
	public void startReplicaUntil(Position until) throws SQLException {
		execute("START REPLICA UNTIL SOURCE_LOG_FILE = '" + until.file() + "', SOURCE_LOG_POS = " + until.offset());
	}

	@Override
	public void stopReplica() throws SQLException {
		execute("STOP REPLICA");
	}

	@Override
	public Status status() throws SQLException {
		try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW REPLICA STATUS")) {
			if (!rs.next()) {
				return Status.none();
			}
			String file = rs.getString("Relay_Source_Log_File");
			Position executed = (file != null && !file.isEmpty()) ? Position.of(file, rs.getLong("Exec_Source_Log_Pos"))
					: null;
			return new Status(executed, rs.getString("Replica_IO_Running"), rs.getString("Replica_SQL_Running"),
					Status.nullToEmpty(rs.getString("Last_IO_Error")), Status.nullToEmpty(rs.getString("Last_SQL_Error")));
		}
	}

	/** Transactions the appliers ran again, from the Performance Schema; -1 where it is off. */
	@Override
	public long retriedTransactions() {
		try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COALESCE(SUM(COUNT_TRANSACTIONS_RETRIES), 0) "
						+ "FROM performance_schema.replication_applier_status")) {
			return rs.next() ? rs.getLong(1) : -1;
		}
		catch (SQLException ex) {
			return -1;
		}
	}

	@Override
	public void close() {
		if (this.server == null) {
			return;
		}
		try {
			stopReplica();
		}
		catch (SQLException | RuntimeException ex) {
			// The server may be gone already; it is stopped below either way.
		}
		this.server.close();
	}

}
