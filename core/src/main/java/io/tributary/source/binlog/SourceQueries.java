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
