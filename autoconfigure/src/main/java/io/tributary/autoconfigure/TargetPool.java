package io.tributary.autoconfigure;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

import com.zaxxer.hikari.HikariDataSource;

import io.tributary.apply.TargetDriverProperties;

/**
 * Tributary's own pool to a target. With server-side statements asked for
 * ({@code cdc.target.server-side-statements}), before its first connection it asks the server
 * what it is, and gives the pool the driver properties that fit it
 * ({@link TargetDriverProperties}), except those its URL sets itself. A pool's driver properties
 * cannot change once it has started, so the question goes over one connection of its own, opened
 * and closed before the pool starts. Until a server answers, {@link #getConnection()} fails as the
 * pool would, and the next call asks again.
 */
final class TargetPool extends HikariDataSource {

	private volatile boolean configured;

	/**
	 * Creates a pool, not yet started.
	 * @param serverSideStatements whether a MariaDB server gets server-side prepared statements
	 */
	TargetPool(boolean serverSideStatements) {
		this.configured = !serverSideStatements;
	}

	@Override
	public Connection getConnection() throws SQLException {
		if (!this.configured) {
			configure();
		}
		return super.getConnection();
	}

	private synchronized void configure() throws SQLException {
		if (this.configured) {
			return;
		}
		Properties login = new Properties();
		if (getUsername() != null) {
			login.setProperty("user", getUsername());
		}
		if (getPassword() != null) {
			login.setProperty("password", getPassword());
		}
		login.setProperty("connectTimeout", Long.toString(getConnectionTimeout()));
		String version;
		try (Connection probe = DriverManager.getConnection(getJdbcUrl(), login)) {
			version = probe.getMetaData().getDatabaseProductVersion();
		}
		Map<String, String> properties = TargetDriverProperties.forServer(version);
		TargetDriverProperties.missingFrom(getJdbcUrl(), properties).forEach(this::addDataSourceProperty);
		this.configured = true;
	}

}
