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

import io.tributary.name.TableId;
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

	private final DataSource target;

	private final LeaderTable table;

	private final HaSettings settings;

	private final String instance;

	private final HolderWatch watch = new HolderWatch();

	private final StalledLeader stalled;

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
		this.stalled = new StalledLeader(this.table);
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

	/** Returns the leader table that sits next to a checkpoint table. */
	public static TableId tableNextTo(TableId checkpointTable) {
		return LeaderTable.tableFor(checkpointTable);
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
				if (session == null || !this.stalled.endHolder(connection, session)) {
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
	 * Raises the epoch and records this instance as leader, in one transaction on the connection
	 * that holds the lock. The previous leader's writer sessions are ended first, so a transaction it
	 * left open (a stalled process keeps its connections) cannot hold row locks the new leader needs;
	 * whatever it had not committed is rolled back.
	 */
	private LeaderTerm takeOver(Connection connection) throws SQLException {
		connection.setAutoCommit(false);
		try {
			LeaderTable.Lease previous = this.stalled.readLocked(connection, true);
			if (StalledLeader.sameServer(connection, previous)) {
				this.stalled.endWriters(connection, previous, LeaderTable.sessionId(connection));
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
