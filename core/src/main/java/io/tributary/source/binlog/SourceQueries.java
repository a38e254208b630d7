package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;

import javax.sql.DataSource;

import io.tributary.source.Position;

/**
 * Statements against the source server that differ between MySQL versions and MariaDB.
 */
public final class SourceQueries {

	private SourceQueries() {
	}

	/**
	 * Returns the source's current binlog head: the end of the last transaction written. MySQL 8.4
	 * and later answer {@code SHOW BINARY LOG STATUS}; older MySQL and MariaDB answer
	 * {@code SHOW MASTER STATUS}.
	 */
	public static Position head(DataSource source) throws SQLException {
		try (Connection connection = source.getConnection()) {
			return head(connection);
		}
	}

	/**
	 * Returns the source's binlog head as file and offset, with the GTID set only where the status
	 * statement reports it (MySQL). Enough to compare with other positions, and cheap on MariaDB,
	 * where finding the GTID list at an offset reads the binlog file up to that offset.
	 */
	public static Position headFileOffset(DataSource source) throws SQLException {
		try (Connection connection = source.getConnection()) {
			return head(connection, false);
		}
	}

	/**
	 * Returns the binlog files the source still has, with their sizes, oldest first
	 * ({@code SHOW BINARY LOGS}).
	 */
	public static LinkedHashMap<String, Long> binaryLogs(DataSource source) throws SQLException {
		LinkedHashMap<String, Long> files = new LinkedHashMap<>();
		try (Connection connection = source.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW BINARY LOGS")) {
			while (rs.next()) {
				files.put(rs.getString(1), rs.getLong(2));
			}
		}
		return files;
	}

	/**
	 * Returns why the source cannot serve a stream starting at a position, or {@code null} when it
	 * can.
	 * @param position the position
	 * @param files the source's binlog files and sizes, oldest first
	 */
	public static String unavailable(Position position, LinkedHashMap<String, Long> files) {
		return unavailable(position, files, null);
	}

	/**
	 * Returns why the source cannot serve a stream starting at a position, or {@code null} when it
	 * can. A position that resumes by GTID is checked against the source's executed and purged
	 * GTID sets; any other against its binlog files.
	 * @param position the position
	 * @param files the source's binlog files and sizes, oldest first
	 * @param source the source pool, for the GTID checks; {@code null} skips them
	 */
	public static String unavailable(Position position, LinkedHashMap<String, Long> files, DataSource source) {
		if (source != null && GtidTracker.resumesByGtid(position.gtids())) {
			try (Connection connection = source.getConnection();
					PreparedStatement statement = connection.prepareStatement(
							"SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed), GTID_SUBSET(@@GLOBAL.gtid_purged, ?), "
									+ "@@GLOBAL.gtid_purged")) {
				statement.setString(1, position.gtids());
				statement.setString(2, position.gtids());
				try (ResultSet rs = statement.executeQuery()) {
					rs.next();
					if (!rs.getBoolean(1)) {
						return "the source's executed GTID set does not contain the checkpoint's (" + position.gtids()
								+ "): the source was reset, replaced, or its history diverged";
					}
					if (!rs.getBoolean(2)) {
						return "the source has purged transactions the checkpoint has not seen (gtid_purged is "
								+ rs.getString(3) + ")";
					}
					return null;
				}
			}
			catch (SQLException ex) {
				return "its GTID set could not be checked against the source: " + ex.getMessage();
			}
		}
		Long size = files.get(position.file());
		String oldest = files.isEmpty() ? "none" : files.keySet().iterator().next();
		if (size == null) {
			return "the source no longer has binlog file " + position.file() + " (its oldest is " + oldest
					+ "): it was purged, or the source was reset or replaced";
		}
		if (position.offset() > size) {
			return "binlog file " + position.file() + " on the source is only " + size + " bytes long, shorter than "
					+ "the checkpoint's offset " + position.offset() + ": the source was reset or replaced";
		}
		return null;
	}

	static Position head(Connection connection) throws SQLException {
		return head(connection, true);
	}

	private static Position head(Connection connection, boolean mariaDbGtids) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			ResultSet rs;
			try {
				rs = statement.executeQuery("SHOW BINARY LOG STATUS");
			}
			catch (SQLException ex) {
				rs = statement.executeQuery("SHOW MASTER STATUS");
			}
			String file;
			long offset;
			String gtids = null;
			try (ResultSet status = rs) {
				if (!status.next()) {
					throw new SQLException("The source reports no binlog position: binary logging is off. "
							+ "Start the server with log_bin enabled (log-bin=mysql-bin) and binlog_format=ROW");
				}
				file = status.getString(1);
				offset = status.getLong(2);
				ResultSetMetaData meta = status.getMetaData();
				for (int i = 1; i <= meta.getColumnCount(); i++) {
					if (meta.getColumnLabel(i).equalsIgnoreCase("Executed_Gtid_Set")) {
						gtids = status.getString(i);
					}
				}
			}
			if (gtids == null && mariaDbGtids) {
				// MariaDB: the GTID list at exactly this file and offset.
				try (PreparedStatement position = connection.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
					position.setString(1, file);
					position.setLong(2, offset);
					try (ResultSet gtid = position.executeQuery()) {
						gtids = gtid.next() ? gtid.getString(1) : null;
					}
				}
				catch (SQLException ex) {
					gtids = null;
				}
			}
			return Position.of(file, offset, gtids);
		}
	}

}
