package io.tributary.ha;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.source.TableId;
import io.tributary.status.Causes;

/**
 * One instance's bid to lead a pipeline among instances with the same settings. It polls the
 * target: takes the leader lock ({@code GET_LOCK}) when it is free, or, once the leader's lease has
 * lapsed on the target's clock, ends the leader's lock session ({@code KILL CONNECTION}) and then
 * takes it. A stalled leader keeps its connection, and so its lock, until its session is ended.
 * Taking the lock and raising the epoch happen in one transaction on the connection that then
 * holds the lock for the whole {@link LeaderTerm}.
 *
 * <p>Used by one thread at a time: the pipeline's control thread. {@link #wake()} may be called
 * from any thread.
 */
public final class Leadership {

	private static final Logger logger = LoggerFactory.getLogger(Leadership.class);

	/** How long a standby waits for the lock after ending its holder's session. */
	private static final int LOCK_WAIT_AFTER_KILL_SECONDS = 5;

	private static final int ER_NO_SUCH_THREAD = 1094;

	private static final int ER_KILL_DENIED = 1095;

	private static final int ER_LOCK_WAIT_TIMEOUT = 1205;

	private final DataSource target;

	private final LeaderTable table;

	private final HaSettings settings;

	private final String instance;

	private final HolderWatch watch = new HolderWatch();

	private final Object poll = new Object();

	/** Set by {@link #wake()}, cleared by the wait it ends; guarded by {@link #poll}. */
	private boolean woken;

	private boolean tableReady;

	private volatile String lastError;

	/** The leader and epoch last seen, by a standby's poll or by this instance's own takeover. */
	private volatile String leaderSeen;

	private volatile long epochSeen;

	private String lastLoggedLeader;

	/**
	 * Creates a bid; nothing happens until {@link #acquire}.
	 * @param target the target pool; the lock is held on one of its connections while leading, and a
	 * standby borrows one for each poll
	 * @param checkpointTable the checkpoint table; the leader table sits next to it
	 * @param pipeline the pipeline's name
	 * @param settings lease and poll interval
	 */
	public Leadership(DataSource target, TableId checkpointTable, String pipeline, HaSettings settings) {
		this.target = target;
		this.table = new LeaderTable(checkpointTable, pipeline);
		this.settings = settings;
		this.instance = hostName() + "/" + ProcessHandle.current().pid() + "/"
				+ UUID.randomUUID().toString().substring(0, 8);
	}

	private static String hostName() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			return "unknown-host";
		}
	}

	/** Returns this instance's name in the leader table: {@code host/pid/random}. */
	public String instance() {
		return this.instance;
	}

	/** Returns the leader table. */
	public TableId table() {
		return this.table.table();
	}

	/** Returns the name of the leader lock. */
	public String lockName() {
		return this.table.lockName();
	}

	/** Returns why the last attempt to compete failed, or {@code null} when it did not. */
	public String lastError() {
		return this.lastError;
	}

	/**
	 * Returns the instance that led when this one last looked (as a standby, or when it took over
	 * itself), or {@code null} before it looked.
	 */
	public String leaderSeen() {
		return this.leaderSeen;
	}

	/** Returns the epoch this instance last saw, or 0 before it looked. */
	public long epochSeen() {
		return this.epochSeen;
	}

	/**
	 * Waits as a standby until this instance leads, trying every poll interval.
	 * @param stop polled between attempts; when true the wait ends without leadership
	 * @return the term of leadership, or {@code null} when stopped first
	 */
	public LeaderTerm acquire(BooleanSupplier stop) {
		while (!stop.getAsBoolean()) {
			try {
				LeaderTerm term = tryOnce();
				this.lastError = null;
				if (term != null) {
					this.lastLoggedLeader = null;
					return term;
				}
				logStandby();
			}
			catch (SQLException | RuntimeException ex) {
				this.tableReady = false;
				String error = "Cannot compete for leadership of pipeline " + this.table.pipeline() + ": "
						+ Causes.describe(ex);
				if (!error.equals(this.lastError)) {
					logger.warn("{}; trying again every {} ms", error, this.settings.pollInterval().toMillis());
				}
				this.lastError = error;
			}
			awaitPoll(this.settings.pollInterval());
		}
		return null;
	}

	/**
	 * Waits two poll intervals, or until {@link #wake()}: an instance that just lost its term lets
	 * the standbys, which have been polling all along, take over first.
	 */
	public void standBack() {
		// It no longer leads, and who does is unknown until it looks again.
		if (Objects.equals(this.leaderSeen, this.instance)) {
			this.leaderSeen = null;
		}
		awaitPoll(this.settings.pollInterval().multipliedBy(2));
	}

	/** Ends a wait between attempts at once, for example to stop. */
	public void wake() {
		synchronized (this.poll) {
			this.woken = true;
			this.poll.notifyAll();
		}
	}

	private void awaitPoll(Duration interval) {
		synchronized (this.poll) {
			long deadline = System.nanoTime() + interval.toNanos();
			try {
				while (!this.woken) {
					long left = (deadline - System.nanoTime()) / 1_000_000;
					if (left <= 0) {
						break;
					}
					this.poll.wait(left);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.woken = false;
		}
	}

	private void logStandby() {
		String leader = leaderSeen();
		if (!Objects.equals(leader, this.lastLoggedLeader)) {
			this.lastLoggedLeader = leader;
			logger.info("Pipeline {} is standby: {} leads at epoch {}", this.table.pipeline(), leader, epochSeen());
		}
	}

	private LeaderTerm tryOnce() throws SQLException {
		Connection connection = this.target.getConnection();
		boolean locked = false;
		LeaderTerm term = null;
		try {
			connection.setAutoCommit(true);
			lockWaitTimeout(connection, Math.max(1, this.settings.renewEvery().toSeconds()));
			if (!this.tableReady) {
				this.table.create(connection);
				this.tableReady = true;
			}
			locked = getLock(connection, 0);
			if (!locked) {
				LeaderTable.Lease lease = this.table.read(connection, false);
				this.leaderSeen = lease.holder().isEmpty() ? null : lease.holder();
				this.epochSeen = lease.epoch();
				Long session = this.watch.sessionToEnd(lease, System.nanoTime(), this.settings.lease());
				if (session == null || !endHolder(connection, session)) {
					return null;
				}
				locked = getLock(connection, LOCK_WAIT_AFTER_KILL_SECONDS);
				if (!locked) {
					return null;
				}
			}
			term = takeOver(connection);
			return term;
		}
		finally {
			if (term == null) {
				giveBack(connection, this.table.lockName(), locked);
			}
		}
	}

	private static void lockWaitTimeout(Connection connection, long seconds) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION innodb_lock_wait_timeout = " + seconds);
		}
	}

	private boolean getLock(Connection connection, int waitSeconds) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT GET_LOCK(?, ?)")) {
			statement.setString(1, this.table.lockName());
			statement.setInt(2, waitSeconds);
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				return rs.getInt(1) == 1;
			}
		}
	}

	/**
	 * Ends the session holding the lock, after checking again under the row's lock that the lease
	 * is still lapsed and the same session holds the lock: a leader that renewed meanwhile stays.
	 */
	private boolean endHolder(Connection connection, long session) throws SQLException {
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
	 * Raises the epoch and records this instance as leader, in one transaction on the connection
	 * that holds the lock. The previous leader's writer sessions are ended first, so a transaction it
	 * left open (a stalled process keeps its connections) cannot hold row locks the new leader needs;
	 * whatever it had not committed is rolled back.
	 */
	private LeaderTerm takeOver(Connection connection) throws SQLException {
		connection.setAutoCommit(false);
		try {
			LeaderTable.Lease previous = readLocked(connection, true);
			if (sameServer(connection, previous)) {
				endWriters(connection, previous, LeaderTable.sessionId(connection));
			}
			Long started = LeaderTable.serverStarted(connection);
			long epoch = previous.epoch() + 1;
			this.table.takeOver(connection, epoch, this.instance, started, this.settings.lease());
			connection.commit();
			this.leaderSeen = this.instance;
			this.epochSeen = epoch;
			logger.info("Pipeline {} is led by this instance ({}) from epoch {}{}", this.table.pipeline(),
					this.instance, epoch, previous.holder().isEmpty() ? "" : "; it took over from " + previous.holder());
			return new LeaderTerm(connection, this.table, epoch, this.instance, this.settings);
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
	private LeaderTable.Lease readLocked(Connection connection, boolean lockHeld) throws SQLException {
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
	private static boolean sameServer(Connection connection, LeaderTable.Lease lease) throws SQLException {
		Long started = LeaderTable.serverStarted(connection);
		return started != null && lease.serverStarted() != null && Math.abs(started - lease.serverStarted()) <= 2;
	}

	/**
	 * Ends the previous leader's writer sessions. One that cannot be ended (another account, without
	 * the privilege) does not stop the takeover: the epoch refuses its commit all the same, and its
	 * row locks last only until its transaction ends.
	 */
	private void endWriters(Connection connection, LeaderTable.Lease previous, long self) throws SQLException {
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

	private void kill(Connection connection, long session, String whose) throws SQLException {
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

	/** Returns a polling connection to the pool, releasing the lock if it took it. */
	static void giveBack(Connection connection, String lockName, boolean locked) {
		try {
			if (locked) {
				try (PreparedStatement statement = connection.prepareStatement("DO RELEASE_LOCK(?)")) {
					statement.setString(1, lockName);
					statement.execute();
				}
			}
			try (Statement statement = connection.createStatement()) {
				statement.execute("SET SESSION innodb_lock_wait_timeout = DEFAULT");
			}
		}
		catch (SQLException ex) {
			logger.debug("Returning the leader connection to the pool failed; it is discarded", ex);
		}
		try {
			connection.close();
		}
		catch (SQLException ex) {
			logger.debug("Closing the leader connection failed", ex);
		}
	}

}
