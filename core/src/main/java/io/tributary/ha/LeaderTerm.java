package io.tributary.ha;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.status.Causes;

/**
 * One term of leadership at one epoch: holds the lock's connection, renews the lease every third
 * of it on a thread of its own, and fences the term's target writes. A write commits only if the
 * epoch in the leader row is still this term's when it commits ({@link #verify}).
 *
 * <p>The term is lost, for good, when the lease row names a later epoch, when the lock's
 * connection is gone (ended by a standby, or dropped), or when no renewal succeeded for a whole
 * lease. Its writes are refused from then on, the lock is released, and the callbacks given to
 * {@link #onLoss} run. A new term needs a new {@link Leadership#acquire}.
 */
public final class LeaderTerm implements TargetFence, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(LeaderTerm.class);

	private final Connection lock;

	private final LeaderTable table;

	private final long epoch;

	private final String instance;

	private final HaSettings settings;

	private final Thread renewer;

	private final List<Runnable> lossListeners = new CopyOnWriteArrayList<>();

	/** The sessions this term wrote with, oldest first; guarded by {@code this}. */
	private final Set<Long> writers = new LinkedHashSet<>();

	/** Session ids of the physical connections already recorded, so each is read once. */
	private final Map<Connection, Long> recorded = Collections.synchronizedMap(new WeakHashMap<>());

	private final Object signal = new Object();

	private volatile String lossReason;

	private volatile boolean releasing;

	private volatile long renewedNanos;

	LeaderTerm(Connection lock, LeaderTable table, long epoch, String instance, HaSettings settings) {
		this.lock = lock;
		this.table = table;
		this.epoch = epoch;
		this.instance = instance;
		this.settings = settings;
		this.renewedNanos = System.nanoTime();
		this.renewer = new Thread(this::renewUntilEnded, "tributary-leader-" + table.pipeline());
		this.renewer.setDaemon(true);
		this.renewer.start();
	}

	/** Returns the fencing epoch of this term. */
	public long epoch() {
		return this.epoch;
	}

	/** Returns the name of this instance in the leader table. */
	public String instance() {
		return this.instance;
	}

	/** Returns why the term was lost, or {@code null} while it leads. */
	@Override
	public String lossReason() {
		return this.lossReason;
	}

	/** Runs {@code listener} when the term is lost (at once if it is already), on the thread that finds out. */
	public void onLoss(Runnable listener) {
		this.lossListeners.add(listener);
		if (lost()) {
			listener.run();
		}
	}

	@Override
	public boolean active() {
		return true;
	}

	@Override
	public boolean lost() {
		return this.lossReason != null;
	}

	/**
	 * Records the connection's session in the leader row the first time this term writes with it, so
	 * an instance taking over can end it if this one stalls with a transaction open.
	 */
	@Override
	public void enter(Connection connection) throws SQLException {
		refuseWhenLost();
		Connection physical = physical(connection);
		if (this.recorded.containsKey(physical)) {
			return;
		}
		long session = LeaderTable.sessionId(connection);
		synchronized (this) {
			if (this.writers.add(session)) {
				while (this.writers.size() > LeaderTable.MAX_WRITERS) {
					this.writers.remove(this.writers.iterator().next());
				}
				if (!this.table.recordWriters(connection, this.epoch, new ArrayList<>(this.writers))) {
					lose("another instance took over: the leader row is past epoch " + this.epoch);
					refuseWhenLost();
				}
			}
		}
		this.recorded.put(physical, session);
	}

	/**
	 * Reads the epoch with a shared lock and refuses the transaction unless it is this term's. The
	 * lock is held until the commit, and a takeover raises the epoch with an exclusive one, so no
	 * takeover can commit between this check and the commit it guards.
	 */
	@Override
	public void verify(Connection connection) throws SQLException {
		refuseWhenLost();
		Long current = this.table.epochForShare(connection);
		if (current == null || current != this.epoch) {
			lose("another instance took over: the leader row is at epoch " + current + ", this term's is "
					+ this.epoch);
			refuseWhenLost();
		}
	}

	private void refuseWhenLost() throws FencedOutException {
		String reason = this.lossReason;
		if (reason != null) {
			throw new FencedOutException("Write refused: this instance no longer leads pipeline "
					+ this.table.pipeline() + " (" + reason + ")");
		}
	}

	private static Connection physical(Connection connection) {
		try {
			return connection.unwrap(Connection.class);
		}
		catch (SQLException ex) {
			return connection;
		}
	}

	/** Marks the term lost, once, and tells the listeners; the renewal thread then releases the lock. */
	void lose(String reason) {
		synchronized (this.signal) {
			if (this.lossReason != null) {
				return;
			}
			this.lossReason = reason;
			this.signal.notifyAll();
		}
		if (!this.releasing) {
			logger.warn("Pipeline {} lost leadership at epoch {}: {}", this.table.pipeline(), this.epoch, reason);
		}
		for (Runnable listener : this.lossListeners) {
			listener.run();
		}
	}

	private void renewUntilEnded() {
		long every = this.settings.renewEvery().toNanos();
		try {
			while (!lost()) {
				synchronized (this.signal) {
					long deadline = System.nanoTime() + every;
					while (this.lossReason == null && !this.releasing && deadline - System.nanoTime() > 0) {
						this.signal.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
					}
				}
				if (this.releasing || lost()) {
					break;
				}
				renew();
			}
		}
		catch (InterruptedException ex) {
			lose("the lease renewal was interrupted");
		}
		finally {
			if (this.releasing && !lost()) {
				endLease();
			}
			Leadership.giveBack(this.lock, this.table.lockName(), true);
		}
	}

	private void renew() {
		try {
			if (this.table.renew(this.lock, this.epoch, this.settings.lease())) {
				this.renewedNanos = System.nanoTime();
			}
			else {
				lose("another instance took over: the leader row is past epoch " + this.epoch);
			}
		}
		catch (SQLException ex) {
			if (!isValid()) {
				lose("the connection holding the leader lock is gone (" + Causes.describe(ex) + ")");
				return;
			}
			Duration since = Duration.ofNanos(System.nanoTime() - this.renewedNanos);
			if (since.compareTo(this.settings.lease()) >= 0) {
				lose("the lease was not renewed for " + since.toMillis() + " ms (" + Causes.describe(ex) + ")");
			}
			else {
				logger.warn("Renewing the leader lease of pipeline {} failed, retrying: {}", this.table.pipeline(),
						Causes.describe(ex));
			}
		}
	}

	private boolean isValid() {
		try {
			return this.lock.isValid(1);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private void endLease() {
		try {
			this.table.endLease(this.lock, this.epoch);
		}
		catch (SQLException ex) {
			logger.debug("Ending the lease of pipeline {} failed; it lapses on its own", this.table.pipeline(), ex);
		}
	}

	/**
	 * Gives leadership up: ends the lease at once so a standby need not wait for it to lapse,
	 * releases the lock and refuses this term's writes from now on. Call it after the last write.
	 */
	@Override
	public void close() {
		if (this.releasing) {
			return;
		}
		boolean leading = !lost();
		this.releasing = true;
		synchronized (this.signal) {
			this.signal.notifyAll();
		}
		try {
			this.renewer.join(Math.max(5_000, this.settings.lease().toMillis()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		lose("leadership was given up");
		if (leading) {
			logger.info("Pipeline {} gave up leadership at epoch {}", this.table.pipeline(), this.epoch);
		}
	}

}
