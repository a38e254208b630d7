package io.tributary.autoconfigure;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

/**
 * Tributary's own connection pools to the source and the target. They are kept apart from the
 * application's DataSource beans (and are not DataSource beans themselves) because Tributary sets
 * session variables on its connections, and so the application's DataSource auto-configuration is
 * not disturbed.
 */
public final class TributaryConnections implements AutoCloseable {

	private final HikariDataSource source;

	private final HikariDataSource target;

	TributaryConnections(HikariDataSource source, HikariDataSource target) {
		this.source = source;
		this.target = target;
	}

	public DataSource source() {
		return this.source;
	}

	public DataSource target() {
		return this.target;
	}

	/** Returns the JDBC URL of the target pool. */
	public String targetUrl() {
		return this.target.getJdbcUrl();
	}

	@Override
	public void close() {
		this.source.close();
		this.target.close();
	}

}
