package io.tributary.apply;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.tributary.ha.FencedTransaction;
import io.tributary.ha.TargetFence;
import io.tributary.jdbc.Sessions;
import io.tributary.name.TableId;

/**
 * Empties a target table: with TRUNCATE, or, when fenced, with DELETEs of at most
 * {@value #FENCED_DELETE_ROWS} rows in fenced transactions, since TRUNCATE commits on its own and
 * could not be refused to an instance that no longer leads.
 */
final class TargetTruncation {

	/** Rows per transaction when a fenced truncation deletes them. */
	static final int FENCED_DELETE_ROWS = 10_000;

	private TargetTruncation() {
	}

	/**
	 * Empties {@code table}.
	 * @throws ApplyException when the target refuses, or the fence refused a transaction
	 */
	static void truncate(DataSource target, TableId table, TargetFence fence) {
		truncate(target, table, fence, null);
	}

	/**
	 * Empties {@code table}, or only its slice: with DELETEs of at most {@value #FENCED_DELETE_ROWS}
	 * rows of the slice, fenced or not, since TRUNCATE would empty the other slices too.
	 * @throws ApplyException when the target refuses, or the fence refused a transaction
	 */
	static void truncate(DataSource target, TableId table, TargetFence fence, TargetSlice slice) {
		String where = (slice != null) ? " WHERE " + slice.predicate() : "";
		try (Connection connection = target.getConnection()) {
			if (!fence.active() && slice == null) {
				try (Statement statement = connection.createStatement()) {
					statement.execute("TRUNCATE TABLE " + table.quoted());
				}
				return;
			}
			Sessions.prepareTarget(connection);
			int[] deleted = new int[1];
			do {
				FencedTransaction.run(connection, fence, (c) -> {
					try (Statement statement = c.createStatement()) {
						deleted[0] = statement
							.executeUpdate("DELETE FROM " + table.quoted() + where + " LIMIT " + FENCED_DELETE_ROWS);
					}
				});
			}
			while (deleted[0] > 0);
		}
		catch (SQLException ex) {
			throw new ApplyException("Truncating " + table + " failed: " + ex.getMessage(), ex);
		}
	}

}
