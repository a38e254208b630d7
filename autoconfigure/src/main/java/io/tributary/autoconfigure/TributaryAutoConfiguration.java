package io.tributary.autoconfigure;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.tributary.apply.ChangeListener;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;
import io.tributary.source.TableId;
import io.tributary.source.binlog.SourceJdbc;

/**
 * Auto-configuration of a Tributary {@link Pipeline} from {@code cdc.*} properties. When the
 * context holds one {@link ChangeListener} bean, every table's changes go to it instead of target
 * tables (listener mode); the target connection then holds only the checkpoint table.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnClass(Pipeline.class)
@ConditionalOnBooleanProperty(name = "cdc.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TributaryProperties.class)
public final class TributaryAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	TributaryConnections tributaryConnections(TributaryProperties properties,
			ObjectProvider<DataSourceProperties> applicationDataSource, ListableBeanFactory beans) {
		ChangeListener listener = changeListener(beans);
		TributaryProperties.Source source = properties.getSource();
		if (source.getUsername() == null || source.getUsername().isBlank()) {
			throw new IllegalStateException("cdc.source.username is not set: name a source user with REPLICATION SLAVE, "
					+ "REPLICATION CLIENT and SELECT on the replicated tables");
		}
		// Same address and TLS settings as the replication connection; the settings' server id goes unused.
		HikariDataSource sourcePool = pool("tributary-source", SourceJdbc.url(sourceSettings(source)),
				source.getUsername(), source.getPassword(), properties.getCopy().getThreads() + 4,
				source.getConnectTimeout());
		TributaryProperties.Target target = properties.getTarget();
		String url = target.getUrl();
		String username = target.getUsername();
		String password = target.getPassword();
		DataSourceProperties application = applicationDataSource.getIfAvailable();
		if (url == null && application != null) {
			url = application.determineUrl();
			username = (username != null) ? username : application.determineUsername();
			password = (password != null) ? password : application.determinePassword();
		}
		if (url == null) {
			sourcePool.close();
			if (listener != null) {
				throw new IllegalStateException("No database for checkpoints: the ChangeListener receives the changes, "
						+ "but Tributary keeps its checkpoints in a MySQL or MariaDB database next to the application's "
						+ "data; set cdc.target.url (or spring.datasource.url) to it");
			}
			throw new IllegalStateException("No target database: set cdc.target.url (or spring.datasource.url) to the "
					+ "MySQL or MariaDB database the tables are copied into");
		}
		return new TributaryConnections(sourcePool, pool("tributary-target", url, username, password,
				target.getMaxConnections(), source.getConnectTimeout()));
	}

	private static HikariDataSource pool(String name, String url, String username, String password, int size,
			Duration connectTimeout) {
		HikariDataSource pool = new HikariDataSource();
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

	@Bean
	@ConditionalOnMissingBean
	Pipeline tributaryPipeline(TributaryProperties properties, TributaryConnections connections,
			ListableBeanFactory beans) {
		return new Pipeline(settings(properties, JdbcUrls.defaultSchema(connections.targetUrl()), changeListener(beans)),
				connections.source(), connections.target());
	}

	/**
	 * Returns the application's only {@link ChangeListener} bean, which switches every table to
	 * listener mode, or {@code null} when there is none.
	 */
	static ChangeListener changeListener(ListableBeanFactory beans) {
		Map<String, ChangeListener> listeners = beans.getBeansOfType(ChangeListener.class);
		if (listeners.size() > 1) {
			throw new IllegalStateException("Found " + listeners.size() + " ChangeListener beans " + listeners.keySet()
					+ ", but Tributary delivers every table's changes to exactly one: combine them into one bean "
					+ "that dispatches by ChangeBatch.table(), or remove all but one");
		}
		return listeners.isEmpty() ? null : listeners.values().iterator().next();
	}

	@Bean
	@ConditionalOnMissingBean
	TributaryPipelines tributaryPipelines(ObjectProvider<Pipeline> pipelines) {
		return new TributaryPipelines(pipelines.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	TributaryLifecycle tributaryLifecycle(Pipeline pipeline, Environment environment) {
		Duration stopTimeout = Binder.get(environment)
			.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
			.orElse(Duration.ofSeconds(30));
		return new TributaryLifecycle(pipeline, stopTimeout);
	}

	static PipelineSettings settings(TributaryProperties properties, String targetSchema) {
		return settings(properties, targetSchema, null);
	}

	static PipelineSettings settings(TributaryProperties properties, String targetSchema, ChangeListener listener) {
		SourceSettings sourceSettings = sourceSettings(properties.getSource());
		if (properties.getTables().isEmpty()) {
			throw new IllegalStateException("cdc.tables is empty: list the tables to replicate (cdc.tables[0].source="
					+ "shop.orders) or set cdc.enabled=false");
		}
		List<TableMapping> tables = new ArrayList<>();
		for (int i = 0; i < properties.getTables().size(); i++) {
			TributaryProperties.Table table = properties.getTables().get(i);
			String key = "cdc.tables[" + i + "]";
			if (table.getSource() == null) {
				throw new IllegalStateException(key + ".source is not set: name the source table as schema.table");
			}
			TableId sourceTable = TableId.parse(table.getSource(), null);
			if (listener != null) {
				if (table.getTarget() != null) {
					throw new IllegalStateException(key + ".target is set, but the application has a ChangeListener "
							+ "bean, which receives the changes of every table instead of a target table. Remove " + key
							+ ".target, or remove the ChangeListener bean to copy the tables into target tables");
				}
				// The pipeline puts a listener label in place of the target.
				tables.add(new TableMapping(sourceTable, sourceTable, table.getKey(), table.getSnapshot()));
				continue;
			}
			String targetName = (table.getTarget() != null) ? table.getTarget() : sourceTable.table();
			tables.add(new TableMapping(sourceTable, parseTarget(targetName, targetSchema, key + ".target"),
					table.getKey(), table.getSnapshot()));
		}
		TributaryProperties.Flush flush = properties.getFlush();
		TributaryProperties.Checkpoint checkpoint = properties.getCheckpoint();
		return new PipelineSettings(checkpoint.getPipeline(), sourceSettings, tables, flush.getInterval(),
				parseTarget(checkpoint.getTable(), targetSchema, "cdc.checkpoint.table"), checkpoint.getInterval(),
				copySizing(properties.getCopy()), flush.getBatchRows(), flush.getBatchBytes().toBytes(),
				checkpoint.getInvalidBehavior(), properties.getBuffer().getSoftLimit().toBytes(), flush.getMaxChanges(),
				flush.getConcurrency(), checksumSettings(properties.getChecksum()), listener);
	}

	private static SourceSettings sourceSettings(TributaryProperties.Source source) {
		long serverId = (source.getServerId() != null) ? source.getServerId()
				: 100_000 + new SecureRandom().nextInt(Integer.MAX_VALUE - 100_000);
		return new SourceSettings(source.getHost(), source.getPort(), source.getUsername(), source.getPassword(),
				serverId, source.getConnectTimeout(), source.getHeartbeatInterval(), source.getSslMode(),
				source.getSslCa());
	}

	private static ChecksumSettings checksumSettings(TributaryProperties.Checksum checksum) {
		return new ChecksumSettings(checksum.isEnabled(), checksum.isFixDifferences(), checksum.getChunkRows());
	}

	private static io.tributary.copy.CopySizing copySizing(TributaryProperties.Copy copy) {
		return new io.tributary.copy.CopySizing(copy.getThreads(), copy.getChunkRows(), copy.getMinChunkRows(),
				copy.getMaxChunkRows(), copy.getChunkTime());
	}

	private static TableId parseTarget(String name, String defaultSchema, String key) {
		try {
			return TableId.parse(name, defaultSchema);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException(key + ": " + ex.getMessage()
					+ " (the target JDBC URL names no default schema to put it in)", ex);
		}
	}

}
