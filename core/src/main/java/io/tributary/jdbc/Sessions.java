package io.tributary.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Session settings Tributary needs on every connection it reads or writes rows with, so that a
 * value reads and writes the same on the source, the target and the binlog whatever the server's
 * defaults are.
 */
public final class Sessions {

	private Sessions() {
	}

	/**
	 * Prepares a connection to the target: UTC session time zone (TIMESTAMP values travel as UTC
	 * text), a strict SQL mode that still accepts zero dates and a literal 0 in AUTO_INCREMENT
	 * columns, and no foreign key checks (rows arrive in key order, not dependency order).
	 */
	public static void prepareTarget(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET time_zone = '+00:00', sql_mode = 'STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO', "
					+ "foreign_key_checks = 0");
		}
	}

	/** Prepares a connection to the source: UTC session time zone, so TIMESTAMPs read as UTC. */
	public static void prepareSource(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET time_zone = '+00:00'");
		}
	}

}
