package io.tributary.ha;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs the statements of one target write as a transaction that commits only after its fence has
 * proven leadership; on any failure it rolls back, so a refused writer leaves nothing behind.
 */
public final class FencedTransaction {

	private FencedTransaction() {
	}

	/** The statements of a transaction. */
	@FunctionalInterface
	public interface Work {

		void run(Connection connection) throws SQLException;

	}

	/**
	 * Runs {@code work} on {@code connection} in one transaction: enters the fence, runs the work,
	 * verifies the fence and commits; rolls back on any failure. The connection is left in autocommit
	 * mode.
	 * @param connection a connection in autocommit mode
	 * @param fence what the transaction proves before it commits
	 * @param work the statements
	 * @throws SQLException what the work or the fence threw ({@link FencedOutException} when refused)
	 */
	public static void run(Connection connection, TargetFence fence, Work work) throws SQLException {
		fence.enter(connection);
		connection.setAutoCommit(false);
		try {
			work.run(connection);
			fence.verify(connection);
			connection.commit();
		}
		catch (SQLException | RuntimeException ex) {
			rollback(connection, ex);
			throw ex;
		}
		finally {
			restoreAutoCommit(connection);
		}
	}

	private static void rollback(Connection connection, Exception failure) {
		try {
			connection.rollback();
		}
		catch (SQLException ex) {
			// A connection that was ended rolled back on the server already.
			failure.addSuppressed(ex);
		}
	}

	private static void restoreAutoCommit(Connection connection) {
		try {
			connection.setAutoCommit(true);
		}
		catch (SQLException ex) {
			// Broken connection: the pool discards it; the failure that broke it is what counts.
		}
	}

}
