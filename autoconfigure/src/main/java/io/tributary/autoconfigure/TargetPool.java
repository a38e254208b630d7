package io.tributary.autoconfigure;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import com.zaxxer.hikari.HikariDataSource;

import io.tributary.apply.TargetDriverProperties;

/**
 * Tributary's own pool to a target. Before its first connection it gives the pool the driver
 * properties ({@link TargetDriverProperties}) of what was asked for, except those its URL sets
 * itself: those of streamed snapshot loads ({@code cdc.target.load-data}), and, with server-side
 * statements asked for ({@code cdc.target.server-side-statements}), those that fit the server,
 * which it asks what it is. A pool's driver properties cannot change once it has started, so the
 * question goes over one connection of its own, opened and closed before the pool starts. Until
 * a server answers, {@link #getConnection()} fails as the pool would, and the next call asks
 * again.
 */
final class TargetPool extends HikariDataSource {

	private final boolean serverSideStatements;

	private final boolean streamedLoads;

	private volatile boolean configured;

	/**
	 * Creates a pool, not yet started.
	 * @param serverSideStatements whether a MariaDB server gets server-side prepared statements
	 * @param streamedLoads whether snapshot chunks may be streamed with {@code LOAD DATA LOCAL}
	 */
	TargetPool(boolean serverSideStatements, boolean streamedLoads) {
		this.serverSideStatements = serverSideStatements;
		this.streamedLoads = streamedLoads;
		this.configured = !serverSideStatements && !streamedLoads;
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
		Map<String, String> properties = new LinkedHashMap<>();
		if (this.serverSideStatements) {
			properties.putAll(TargetDriverProperties.forServer(serverVersion()));
		}
		if (this.streamedLoads) {
			properties.putAll(TargetDriverProperties.streamedLoads());
		}
		TargetDriverProperties.missingFrom(getJdbcUrl(), properties).forEach(this::addDataSourceProperty);
		this.configured = true;
	}

	private String serverVersion() throws SQLException {
		Properties login = new Properties();
		if (getUsername() != null) {
			login.setProperty("user", getUsername());
		}
		if (getPassword() != null) {
			login.setProperty("password", getPassword());
		}
		login.setProperty("connectTimeout", Long.toString(getConnectionTimeout()));
		try (Connection probe = DriverManager.getConnection(getJdbcUrl(), login)) {
			return probe.getMetaData().getDatabaseProductVersion();
		}
	}

}
