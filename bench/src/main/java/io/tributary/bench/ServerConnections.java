package io.tributary.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

/**
 * Counts one account's connections to a server from its process list, telling the replication
 * connections (a binlog dump thread each) from the others.
 *
 * @param total every connection of the account
 * @param binlogDumps those that are binlog dump threads
 */
record ServerConnections(int total, int binlogDumps) {

	/**
	 * Reads the process list through an account that may see every connection.
	 * @param admin a pool of such an account
	 * @param user the account whose connections are counted
	 */
	static ServerConnections of(DataSource admin, String user) throws SQLException {
		try (Connection connection = admin.getConnection();
				PreparedStatement query = connection.prepareStatement("SELECT COUNT(*), "
						+ "COALESCE(SUM(COMMAND LIKE 'Binlog Dump%'), 0) FROM information_schema.PROCESSLIST WHERE USER = ?")) {
			query.setString(1, user);
			try (ResultSet rs = query.executeQuery()) {
				rs.next();
				return new ServerConnections(rs.getInt(1), rs.getInt(2));
			}
		}
	}

	/** The connections that are not binlog dump threads: JDBC pools and single queries. */
	int jdbc() {
		return this.total - this.binlogDumps;
	}

}
