package io.tributary.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import com.mysql.cj.jdbc.JdbcConnection;

/**
 * Prepares a statement on the client even on a connection whose driver prepares statements on
 * the server ({@code useServerPrepStmts=true}): a statement whose text is unlikely to come again,
 * such as the remainder of a drain, would otherwise take a place in the connection's statement
 * cache, and the heap its parameters hold there, for nothing.
 *
 * <p>Only MySQL Connector/J can be asked; a connection of another driver, or a pool without
 * Connector/J on the class path, prepares the statement as it always does.
 */
final class ClientStatements {

	private static final boolean CONNECTOR_J = present("com.mysql.cj.jdbc.JdbcConnection");

	private ClientStatements() {
	}

	/**
	 * Prepares {@code sql} on the client where the driver allows it.
	 * @param connection the connection, possibly a pool's wrapper around Connector/J's
	 * @param sql the statement's text
	 * @return the statement, to be closed by the caller
	 * @throws SQLException as the driver reports it
	 */
	static PreparedStatement prepare(Connection connection, String sql) throws SQLException {
		if (CONNECTOR_J && connection.isWrapperFor(JdbcConnection.class)) {
			return connection.unwrap(JdbcConnection.class).clientPrepareStatement(sql);
		}
		return connection.prepareStatement(sql);
	}

	private static boolean present(String className) {
		try {
			Class.forName(className, false, ClientStatements.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
