package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

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
	 * Returns the binlog files the source still has, with their sizes, oldest first
	 * ({@code SHOW BINARY LOGS}).
	 */
	public static java.util.LinkedHashMap<String, Long> binaryLogs(DataSource source) throws SQLException {
		java.util.LinkedHashMap<String, Long> files = new java.util.LinkedHashMap<>();
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
	public static String unavailable(Position position, java.util.LinkedHashMap<String, Long> files) {
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
		try (Statement statement = connection.createStatement()) {
			ResultSet rs;
			try {
				rs = statement.executeQuery("SHOW BINARY LOG STATUS");
			}
			catch (SQLException ex) {
				rs = statement.executeQuery("SHOW MASTER STATUS");
			}
			try (ResultSet status = rs) {
				if (!status.next()) {
					throw new SQLException("The source reports no binlog position: binary logging is off. "
							+ "Start the server with log_bin enabled (log-bin=mysql-bin) and binlog_format=ROW");
				}
				return Position.of(status.getString(1), status.getLong(2));
			}
		}
	}

}
