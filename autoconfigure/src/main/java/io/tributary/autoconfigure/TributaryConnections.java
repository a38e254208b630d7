package io.tributary.autoconfigure;

import java.time.Duration;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.util.StringUtils;

import io.tributary.settings.SettingNames;
import io.tributary.source.SourceSettings;
import io.tributary.source.binlog.SourceJdbc;

/**
 * A pipeline's connection pools to the source and the target. Tributary opens pools of its own,
 * kept apart from the application's DataSource beans (and not DataSource beans themselves),
 * because it sets session variables on its connections, and so the application's DataSource
 * auto-configuration is not disturbed.
 *
 * <p>With {@code cdc.target.server-side-statements}, the target pool gets the driver properties
 * that fit its server ({@link io.tributary.apply.TargetDriverProperties}: server-side prepared
 * statements on MariaDB), except those its URL sets itself.
 *
 * <p>An application that manages connections itself declares a bean of this type with its own
 * pools; with one source that replaces the pools Tributary would open. It closes those pools
 * itself: {@link #close()} closes only pools Tributary opened.
 */
public final class TributaryConnections implements AutoCloseable {

	private final DataSource source;

	private final DataSource target;

	private final String targetSchema;

	private final boolean owned;

	/**
	 * Creates connections from pools of the application's.
	 * @param source pool of connections to the source server, with the user of the replication
	 * connection or one with SELECT on the replicated tables
	 * @param target pool of connections to the target, large enough for cdc.copy.threads +
	 * cdc.flush.concurrency + 2 connections
	 * @param targetSchema the schema unqualified target tables and the checkpoint table go into, or
	 * {@code null} when every one of them names its schema
	 */
	public TributaryConnections(DataSource source, DataSource target, String targetSchema) {
		this(source, target, targetSchema, false);
	}

	private TributaryConnections(DataSource source, DataSource target, String targetSchema, boolean owned) {
		this.source = source;
		this.target = target;
		this.targetSchema = targetSchema;
		this.owned = owned;
	}

	/**
	 * Opens Tributary's own pools: to the source of {@code settings}, and to the target of
	 * {@code cdc.target.*}, or of {@code spring.datasource.*} where those are not set.
	 * @param name what tells these pools from other pipelines' in their threads' names: empty, or
	 * {@code -<source name>}
	 * @param settings the source
	 * @param names the properties of that source, which messages about its CA file name
	 * @param properties the properties
	 * @param application the application's DataSource properties, or {@code null}
	 * @param listenerMode whether the target holds only the checkpoint table
	 */
	static TributaryConnections open(String name, SourceSettings settings, SettingNames names,
			TributaryProperties properties, DataSourceProperties application, boolean listenerMode) {
		PropertyChecks.checkTargetPool(properties, listenerMode);
		TributaryProperties.Target target = properties.getTarget();
		String url = StringUtils.hasText(target.getUrl()) ? target.getUrl() : null;
		String username = target.getUsername();
		String password = target.getPassword();
		if (url == null && application != null) {
			url = application.determineUrl();
			username = (username != null) ? username : application.determineUsername();
			password = (password != null) ? password : application.determinePassword();
		}
		// Same address and TLS settings as the replication connection; the settings' server id goes unused.
		HikariDataSource source = pool(new HikariDataSource(), "tributary-source" + name, SourceJdbc.url(settings, names),
				settings.username(), settings.password(), properties.getCopy().getThreads() + 4,
				settings.connectTimeout());
		if (!StringUtils.hasText(url) && listenerMode
				&& properties.getCheckpoint().getStore() == TributaryProperties.Checkpoint.Store.KAFKA) {
			// Every table goes elsewhere and the checkpoints to Kafka: nothing needs a target database.
			return new TributaryConnections(source, null, null, true);
		}
		if (!StringUtils.hasText(url)) {
			source.close();
			if (listenerMode) {
				throw new TributaryConfigurationException("cdc.target.url", null, "No database for checkpoints: the "
						+ "changes go to the ChangeListener or to Kafka topics, but Tributary keeps its checkpoints in a "
						+ "MySQL or MariaDB database (or, with every table published to Kafka, in a Kafka topic)",
						"Set cdc.target.url (or spring.datasource.url) to it, with cdc.target.username and "
								+ "cdc.target.password; or, when every table has cdc.tables[].kafka.topic, set "
								+ "cdc.checkpoint.store=kafka.");
			}
			throw new TributaryConfigurationException("cdc.target.url", null, "No target database",
					"Set cdc.target.url (or spring.datasource.url) to the MySQL or MariaDB database the tables are "
							+ "copied into, with cdc.target.username and cdc.target.password.");
		}
		HikariDataSource targetPool = pool(new TargetPool(target.isServerSideStatements(), target.isLoadData()),
				"tributary-target" + name,
				url, username, password, target.getMaxConnections(), settings.connectTimeout());
		return new TributaryConnections(source, targetPool, JdbcUrls.defaultSchema(url), true);
	}

	private static HikariDataSource pool(HikariDataSource pool, String name, String url, String username,
			String password, int size, Duration connectTimeout) {
		pool.setPoolName(name);
		pool.setJdbcUrl(url);
		pool.setUsername(username);
		pool.setPassword(password);
		pool.setMaximumPoolSize(size);
		pool.setMinimumIdle(0);
		pool.setConnectionTimeout(Math.max(250, connectTimeout.toMillis()));
		// The pool starts at the pipeline's first connection, which retries. One attempt there, not a
		// wait for the connection timeout: a refused login or connection shows the server's reason at once.
		pool.setInitializationFailTimeout(1);
		return pool;
	}

	/** Returns the pool of connections to the source. */
	public DataSource source() {
		return this.source;
	}

	/**
	 * Returns the pool of connections to the target, or {@code null} when nothing needs one: every
	 * table goes to a listener or to Kafka, and the checkpoints to Kafka.
	 */
	public DataSource target() {
		return this.target;
	}

	/** Returns the target's default schema, or {@code null} when there is none. */
	public String targetSchema() {
		return this.targetSchema;
	}

	/** Closes the pools Tributary opened; pools of the application's are left to it. */
	@Override
	public void close() {
		if (this.owned) {
			((HikariDataSource) this.source).close();
			if (this.target != null) {
				((HikariDataSource) this.target).close();
			}
		}
	}

}
