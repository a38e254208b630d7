package io.tributary.test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.StringJoiner;

import javax.sql.DataSource;

/**
 * Waits for a replica to apply what its primary has written, with the server's own wait function,
 * which returns as soon as the replica gets there: {@code MASTER_GTID_WAIT} on MariaDB,
 * {@code WAIT_FOR_EXECUTED_GTID_SET} on MySQL with GTIDs, {@code SOURCE_POS_WAIT} on MySQL without.
 */
final class ReplicaProgress {

	private ReplicaProgress() {}

	static void awaitCaughtUp(DataSource primary, DataSource replica, boolean mariaDb, boolean gtids, Duration timeout)
			throws SQLException {
		double seconds = Math.max(1, timeout.toMillis()) / 1000.0;
		boolean reached;
		String target;
		try (Connection connection = replica.getConnection()) {
			if (mariaDb) {
				target = queryString(primary, "SELECT @@GLOBAL.gtid_binlog_pos");
				reached = wait(connection, "SELECT MASTER_GTID_WAIT(?, ?)", seconds, target) == 0;
			} else if (gtids) {
				target = queryString(primary, "SELECT @@GLOBAL.gtid_executed");
				reached = wait(connection, "SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?)", seconds, target) == 0;
			} else {
				String file;
				long offset;
				try (Connection p = primary.getConnection(); Statement statement = p.createStatement();
						ResultSet rs = statement.executeQuery("SHOW MASTER STATUS")) {
					rs.next();
					file = rs.getString(1);
					offset = rs.getLong(2);
				}
				target = file + ":" + offset;
				try (PreparedStatement statement = connection.prepareStatement("SELECT SOURCE_POS_WAIT(?, ?, ?)")) {
					statement.setString(1, file);
					statement.setLong(2, offset);
					statement.setDouble(3, seconds);
					try (ResultSet rs = statement.executeQuery()) {
						rs.next();
						long events = rs.getLong(1);
						reached = !rs.wasNull() && events >= 0;
					}
				}
			}
		}
		if (!reached) {
			throw new AssertionError("Not reached within " + timeout + ": the replica has applied " + target
					+ " of its primary; replica status: " + status(replica, mariaDb));
		}
	}

	private static long wait(Connection connection, String sql, double seconds, String target) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, target);
			statement.setDouble(2, seconds);
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				long result = rs.getLong(1);
				return rs.wasNull() ? -1 : result;
			}
		}
	}

	/** The replica's threads and last errors from {@code SHOW SLAVE STATUS} / {@code SHOW REPLICA STATUS}. */
	static String status(DataSource replica, boolean mariaDb) throws SQLException {
		StringJoiner out = new StringJoiner(", ");
		try (Connection connection = replica.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(mariaDb ? "SHOW SLAVE STATUS" : "SHOW REPLICA STATUS")) {
			if (!rs.next()) {
				return "not a replica";
			}
			ResultSetMetaData meta = rs.getMetaData();
			for (int i = 1; i <= meta.getColumnCount(); i++) {
				String label = meta.getColumnLabel(i);
				if (label.endsWith("_Running") || label.endsWith("_Error") || label.startsWith("Gtid_")
						|| label.equals("Executed_Gtid_Set")) {
					out.add(label + "=" + rs.getString(i));
				}
			}
		}
		return out.toString();
	}

	private static String queryString(DataSource source, String sql) throws SQLException {
		try (Connection connection = source.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			rs.next();
			return rs.getString(1);
		}
	}
}
