package io.tributary.ha;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Makes a target transaction prove, at its commit, that it is written by the current leader.
 * Every writer of rows and checkpoints runs its transaction through {@link FencedTransaction},
 * which calls {@link #enter} before it starts and {@link #verify} just before it commits.
 *
 * <p>{@link #NONE}, for a pipeline without HA, proves nothing and lets writes commit as they
 * always did, statement by statement where they are single statements.
 */
public interface TargetFence {

	/** No fencing: a single instance replicates. */
	TargetFence NONE = new TargetFence() {

		@Override
		public boolean active() {
			return false;
		}

		@Override
		public void enter(Connection connection) {
		}

		@Override
		public void verify(Connection connection) {
		}

		@Override
		public boolean lost() {
			return false;
		}

		@Override
		public String toString() {
			return "no fence";
		}

	};

	/** Returns whether writes must be explicit transactions that are verified before they commit. */
	boolean active();

	/**
	 * Readies a connection for a fenced transaction, before the transaction starts (the connection
	 * is in autocommit mode).
	 * @param connection the connection the transaction runs on
	 * @throws FencedOutException when this fence's leadership is gone
	 * @throws SQLException when the connection fails
	 */
	void enter(Connection connection) throws SQLException;

	/**
	 * Proves leadership inside the transaction, just before its commit; the proof holds until the
	 * commit.
	 * @param connection the transaction's connection
	 * @throws FencedOutException when another instance leads now: the transaction must roll back
	 * @throws SQLException when the connection fails
	 */
	void verify(Connection connection) throws SQLException;

	/** Returns whether this fence already knows its leadership is gone, so no write can commit. */
	boolean lost();

	/** Returns why the leadership is gone, or {@code null} while it holds. */
	default String lossReason() {
		return lost() ? "leadership lost" : null;
	}

}
