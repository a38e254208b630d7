package io.tributary.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.conf.RuntimeProperty;
import com.mysql.cj.jdbc.JdbcConnection;

/**
 * Prepares a statement on the client even on a connection whose driver prepares statements on
 * the server ({@code useServerPrepStmts=true}): a statement whose text is unlikely to come again,
 * such as the remainder of a drain, would otherwise take a place in the connection's statement
 * cache, and the heap its parameters hold there, for nothing.
 *
 * <p>The statement is still prepared through the connection as given, so a pool's or an
 * application's wrapper around it (tracing, metrics, statement tracking) sees it as any other:
 * only Connector/J's runtime-modifiable {@code useServerPrepStmts} of the physical connection is
 * turned off for the one call, and back on after it. A connection is used by one thread at a
 * time, so no other statement of it can be prepared meanwhile. A connection of another driver,
 * or a class path without Connector/J, prepares the statement as it always does.
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
		RuntimeProperty<Boolean> serverSide = CONNECTOR_J ? serverSide(connection) : null;
		if (serverSide == null || !Boolean.TRUE.equals(serverSide.getValue())) {
			return connection.prepareStatement(sql);
		}
		serverSide.setValue(false);
		try {
			return connection.prepareStatement(sql);
		}
		finally {
			serverSide.setValue(true);
		}
	}

	private static RuntimeProperty<Boolean> serverSide(Connection connection) throws SQLException {
		if (!connection.isWrapperFor(JdbcConnection.class)) {
			return null;
		}
		RuntimeProperty<Boolean> property = connection.unwrap(JdbcConnection.class).getPropertySet()
			.getBooleanProperty(PropertyKey.useServerPrepStmts);
		return property.getPropertyDefinition().isRuntimeModifiable() ? property : null;
	}

	/** Returns whether {@code className} can be loaded by this class's loader. */
	static boolean present(String className) {
		try {
			Class.forName(className, false, ClientStatements.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
