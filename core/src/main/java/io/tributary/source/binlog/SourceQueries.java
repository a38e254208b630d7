package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

import javax.sql.DataSource;

import io.tributary.name.TableId;
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
	 * Returns the base tables of the source, in every schema but the server's own ({@code mysql},
	 * {@code sys}, {@code information_schema}, {@code performance_schema}); views, sequences and
	 * MariaDB's system-versioned tables are not among them.
	 */
	public static List<TableId> baseTables(DataSource source) throws SQLException {
		List<TableId> tables = new ArrayList<>();
		try (Connection connection = source.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES "
						+ "WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA NOT IN "
						+ "('mysql', 'sys', 'information_schema', 'performance_schema')")) {
			while (rs.next()) {
				tables.add(new TableId(rs.getString(1), rs.getString(2)));
			}
		}
		return tables;
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
