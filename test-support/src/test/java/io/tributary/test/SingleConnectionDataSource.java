package io.tributary.test;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;

import javax.sql.DataSource;

/** Hands out one existing connection again and again; closing what it hands out does nothing. */
final class SingleConnectionDataSource implements DataSource {

	private final Connection connection;

	SingleConnectionDataSource(Connection connection) {
		this.connection = connection;
	}

	@Override
	public Connection getConnection() {
		return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
				(proxy, method, args) -> {
					if (method.getName().equals("close")) {
						return null;
					}
					try {
						return method.invoke(connection, args);
					} catch (InvocationTargetException e) {
						throw e.getCause();
					}
				});
	}

	@Override
	public Connection getConnection(String username, String password) {
		return getConnection();
	}

	@Override
	public PrintWriter getLogWriter() {
		return null;
	}

	@Override
	public void setLogWriter(PrintWriter out) {}

	@Override
	public void setLoginTimeout(int seconds) {}

	@Override
	public int getLoginTimeout() {
		return 0;
	}

	@Override
	public Logger getParentLogger() throws SQLFeatureNotSupportedException {
		throw new SQLFeatureNotSupportedException();
	}

	@Override
	public <T> T unwrap(Class<T> iface) throws java.sql.SQLException {
		throw new java.sql.SQLException("not a wrapper");
	}

	@Override
	public boolean isWrapperFor(Class<?> iface) {
		return false;
	}
}
