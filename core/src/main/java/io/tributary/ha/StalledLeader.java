package io.tributary.ha;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a standby ends the sessions a leader that stalled left on the target: the session holding
 * the leader lock once the lease has lapsed, and the writer sessions whose open transactions keep
 * the leader row locked. A stalled process keeps its connections, so nothing else frees them.
 * Sessions are ended only on the server run that recorded them, since ids start again after a
 * restart.
 */
final class StalledLeader {

	/** Logs under {@link Leadership}, beside the takeover it is part of. */
	private static final Logger logger = LoggerFactory.getLogger(Leadership.class);

	private static final int ER_NO_SUCH_THREAD = 1094;

	private static final int ER_KILL_DENIED = 1095;

	private static final int ER_LOCK_WAIT_TIMEOUT = 1205;

	private final LeaderTable table;

	StalledLeader(LeaderTable table) {
		this.table = table;
	}

	/**
	 * Ends the session holding the lock, after checking again under the row's lock that the lease
	 * is still lapsed and the same session holds the lock: a leader that renewed meanwhile stays.
	 */
	boolean endHolder(Connection connection, long session) throws SQLException {
		connection.setAutoCommit(false);
		try {
			LeaderTable.Lease lease = readLocked(connection, false);
			if (!lease.lapsed() || !Objects.equals(lease.lockHolder(), session)) {
				connection.rollback();
				return false;
			}
			logger.warn("Leader {} of pipeline {} let its lease lapse (at {} UTC on the target); ending its session {} "
					+ "to take over", lease.holder(), this.table.pipeline(), lease.leaseUntil(), session);
			kill(connection, session, "the leader lock's session of " + lease.holder());
			connection.commit();
			return true;
		}
		catch (SQLException | RuntimeException ex) {
			connection.rollback();
			throw ex;
		}
		finally {
			connection.setAutoCommit(true);
		}
	}

	/**
	 * Reads the row and locks it. A writer of a leader that stalled between proving its term and
	 * committing holds a shared lock on the row for as long as it stalls: when the lock wait times
	 * out, that leader's writer sessions are ended (which rolls their transactions back) and the read
	 * is tried once more, provided its lease has lapsed or this instance holds the lock already.
	 */
	LeaderTable.Lease readLocked(Connection connection, boolean lockHeld) throws SQLException {
		try {
			return this.table.read(connection, true);
		}
		catch (SQLException ex) {
			if (ex.getErrorCode() != ER_LOCK_WAIT_TIMEOUT) {
				throw ex;
			}
			LeaderTable.Lease seen = this.table.read(connection, false);
			if (!(lockHeld || seen.lapsed()) || !sameServer(connection, seen)) {
				throw ex;
			}
			logger.warn("The leader row of pipeline {} stays locked, by a writer of {} that stalled before committing; "
					+ "ending its writer sessions", this.table.pipeline(), seen.holder());
			endWriters(connection, seen, LeaderTable.sessionId(connection));
			return this.table.read(connection, true);
		}
	}

	/** Whether the sessions {@code lease} records are of this server's run: ids start again after a restart. */
	static boolean sameServer(Connection connection, LeaderTable.Lease lease) throws SQLException {
		Long started = LeaderTable.serverStarted(connection);
		return started != null && lease.serverStarted() != null && Math.abs(started - lease.serverStarted()) <= 2;
	}

	/**
	 * Ends the previous leader's writer sessions. One that cannot be ended (another account, without
	 * the privilege) does not stop the takeover: the epoch refuses its commit all the same, and its
	 * row locks last only until its transaction ends.
	 */
	void endWriters(Connection connection, LeaderTable.Lease previous, long self) throws SQLException {
		for (long writer : previous.writerSessions()) {
			if (writer == self) {
				continue;
			}
			try {
				kill(connection, writer, "a writer session of " + previous.holder());
			}
			catch (SQLException ex) {
				if (ex.getErrorCode() != ER_KILL_DENIED) {
					throw ex;
				}
				logger.warn("{}; a transaction it left open keeps its row locks until it ends", ex.getMessage());
			}
		}
	}

	private static void kill(Connection connection, long session, String whose) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("KILL CONNECTION " + session);
		}
		catch (SQLException ex) {
			if (ex.getErrorCode() == ER_NO_SUCH_THREAD) {
				return;
			}
			if (ex.getErrorCode() == ER_KILL_DENIED) {
				throw new SQLException("Cannot end session " + session + " (" + whose + ") to take over: the target "
						+ "user may end only its own sessions. Use the same target user on every instance, or grant "
						+ "this one CONNECTION_ADMIN (MySQL 8) or CONNECTION ADMIN (MariaDB 10.5+; SUPER before)",
						ex.getSQLState(), ex.getErrorCode(), ex);
			}
			throw ex;
		}
	}

}
