package io.tributary.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import io.tributary.source.Position;

/**
 * A second embedded server of the run's flavour that serves as the native replica the apply and
 * latency scenarios compare with, and as Tributary's target: {@link ReplicaServer} on MariaDB,
 * {@link MySqlReplica} on MySQL. One per server of the run, shared by its scenarios (see
 * {@link ScenarioContext#replica()}); each scenario points it where it needs it.
 */
interface NativeReplica extends AutoCloseable {

	/** What the results call it, for example {@code MariaDB replica}. */
	String name();

	/** Version and the settings that shape its figures, for the results. */
	String describe() throws SQLException;

	String host();

	int port();

	/** A Connector/J URL without schema and credentials, with batched statements rewritten. */
	String jdbcUrl();

	/** An account with every privilege. */
	String user();

	String password();

	/** A small pool for {@link #user()}; closed by {@link #close()}. */
	DataSource dataSource();

	/**
	 * Points the replica at a source by binlog file and offset (not by GTID); its threads stay
	 * stopped.
	 */
	void replicateFrom(String host, int port, String user, String password, Position from) throws SQLException;

	/** Starts both replication threads. */
	void startReplica() throws SQLException;

	/**
	 * Starts both replication threads; the SQL thread stops by itself once it has executed the
	 * source's binlog up to a transaction boundary, by file and offset.
	 */
	void startReplicaUntil(Position until) throws SQLException;

	/** Stops both replication threads. */
	void stopReplica() throws SQLException;

	/** Returns the executed source position and the threads' errors. */
	Status status() throws SQLException;

	/** Returns transactions its parallel applier retried since it started, or -1 when not known. */
	long retriedTransactions() throws SQLException;

	/** Stops the server and deletes its files. */
	@Override
	void close();

	/** Runs statements in order on one connection, in auto-commit mode. */
	default void execute(String... sql) throws SQLException {
		try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement()) {
			for (String s : sql) {
				statement.execute(s);
			}
		}
	}

	/** Returns the value of a global variable. */
	default String variable(String name) throws SQLException {
		try (Connection connection = dataSource().getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT @@GLOBAL." + name)) {
			rs.next();
			return rs.getString(1);
		}
	}

	/**
	 * Waits until the SQL thread has executed the source's binlog up to a position, polling its
	 * status every 20 ms.
	 * @throws IllegalStateException when a replication thread reports an error or the time is up
	 */
	default void awaitExecuted(Position target, Duration timeout) throws SQLException, InterruptedException {
		Status status = awaitExecutedWithin(target, timeout);
		if (status.executed() == null || status.executed().compareTo(target) < 0) {
			throw new IllegalStateException(name() + " not at " + target + " within " + timeout + "; at "
					+ status.executed());
		}
	}

	/**
	 * Waits until the SQL thread has executed the source's binlog up to a position or the time is
	 * up, polling its status every 20 ms, and returns the last status read.
	 * @throws IllegalStateException when a replication thread reports an error
	 */
	default Status awaitExecutedWithin(Position target, Duration timeout) throws SQLException, InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			Status status = status();
			if (status.executed() != null && status.executed().compareTo(target) >= 0) {
				return status;
			}
			if (!status.sqlError().isEmpty() || !status.ioError().isEmpty()) {
				throw new IllegalStateException(name() + " failed: SQL thread '" + status.sqlError() + "', I/O thread '"
						+ status.ioError() + "'");
			}
			if (System.nanoTime() > deadline) {
				return status;
			}
			Thread.sleep(20);
		}
	}

	/**
	 * The replica's executed source position and thread states.
	 *
	 * @param executed source binlog position the SQL thread has executed up to, or {@code null}
	 * when replication was never configured
	 * @param ioRunning whether the I/O (receiver) thread runs, as the server says it
	 * @param sqlRunning whether the SQL (applier) thread runs, as the server says it
	 * @param ioError last I/O thread error, empty when none
	 * @param sqlError last SQL thread error, empty when none
	 */
	record Status(Position executed, String ioRunning, String sqlRunning, String ioError, String sqlError) {

		static Status none() {
			return new Status(null, "", "", "", "");
		}

		static String nullToEmpty(String text) {
			return (text != null) ? text : "";
		}

	}

}
