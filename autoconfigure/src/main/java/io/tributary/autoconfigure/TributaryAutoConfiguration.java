package io.tributary.autoconfigure;

import java.time.Duration;
import java.util.Map;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import io.tributary.apply.ChangeListener;
import io.tributary.checkpoint.CheckpointStore;
import io.tributary.checkpoint.JdbcCheckpointStore;
import io.tributary.pipeline.Pipeline;
import io.tributary.source.SourceSettings;

/**
 * Auto-configuration of Tributary's pipelines from {@code cdc.*} properties: one {@link Pipeline}
 * for {@code cdc.source} with {@code cdc.tables}, or one per entry of {@code cdc.sources}, each
 * started and stopped with the context, and the {@link TributaryPipelines} registry of them all.
 *
 * <p>With one source, each part backs off to the application's own bean: its {@link Pipeline}
 * (then nothing else is built but its lifecycle), its {@link SourceSettings}, its
 * {@link TributaryConnections} or its {@link CheckpointStore}. When the context holds one
 * {@link ChangeListener} bean, every table's changes go to it instead of target tables (listener
 * mode); the target connection then holds only the checkpoint table.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnClass(Pipeline.class)
@ConditionalOnBooleanProperty(name = "cdc.enabled", matchIfMissing = true)
@EnableConfigurationProperties(TributaryProperties.class)
public final class TributaryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TributaryPipelines tributaryPipelines(ObjectProvider<Pipeline> pipelines) {
		return new TributaryPipelines(pipelines.orderedStream().toList());
	}

	/**
	 * Returns the application's only {@link ChangeListener} bean, which switches every table to
	 * listener mode, or {@code null} when there is none.
	 */
	static ChangeListener changeListener(ListableBeanFactory beans) {
		Map<String, ChangeListener> listeners = beans.getBeansOfType(ChangeListener.class);
		if (listeners.size() > 1) {
			throw new TributaryConfigurationException(null, null, "Found " + listeners.size()
					+ " ChangeListener beans " + listeners.keySet() + ", but Tributary delivers every table's changes "
					+ "to exactly one", "Combine them into one bean that dispatches by ChangeBatch.table(), or remove "
							+ "all but one.");
		}
		return listeners.isEmpty() ? null : listeners.values().iterator().next();
	}

	/**
	 * Returns the sinks of Kafka topics when Kafka support is on the classpath, or {@code null}.
	 */
	static TopicSinks topicSinks(ListableBeanFactory beans) {
		return beans.getBeanProvider(TopicSinks.class).getIfAvailable();
	}

	/**
	 * Returns the stores of checkpoints kept outside the target database when
	 * {@code cdc.checkpoint.store} asks for them, or {@code null} for the checkpoint table.
	 * @throws TributaryConfigurationException when they are asked for but their support is missing
	 */
	static CheckpointStores checkpointStores(TributaryProperties properties, ListableBeanFactory beans) {
		if (properties.getCheckpoint().getStore() != TributaryProperties.Checkpoint.Store.KAFKA) {
			return null;
		}
		CheckpointStores stores = beans.getBeanProvider(CheckpointStores.class).getIfAvailable();
		if (stores == null) {
			throw new TributaryConfigurationException("cdc.checkpoint.store", "kafka", "cdc.checkpoint.store=kafka "
					+ "needs Kafka support, which is not on the classpath", "Add the dependencies "
							+ "io.tributary:tributary-kafka and org.springframework.boot:spring-boot-kafka, or set "
							+ "cdc.checkpoint.store=jdbc.");
		}
		return stores;
	}

	/** Returns how long one phase of the context's shutdown may take, which a pipeline's stop fits in. */
	static Duration shutdownPhaseTimeout(Environment environment) {
		return Binder.get(environment)
			.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
			.orElse(Duration.ofSeconds(30));
	}

	/**
	 * One source, {@code cdc.source} with {@code cdc.tables}: one pipeline, named by
	 * {@code cdc.checkpoint.pipeline}.
	 */
	@Configuration(proxyBeanMethods = false)
	@Conditional(SourceFormCondition.Single.class)
	static class SingleSourceConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnSingleCandidate(Pipeline.class)
		TributaryLifecycle tributaryLifecycle(Pipeline pipeline, Environment environment) {
			return new TributaryLifecycle(pipeline, shutdownPhaseTimeout(environment));
		}

		/** The pipeline and its parts, unless the application has a pipeline of its own. */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnMissingBean(Pipeline.class)
		static class PipelineConfiguration {

			@Bean
			@ConditionalOnMissingBean
			SourceSettings tributarySourceSettings(TributaryProperties properties) {
				return ConfiguredPipelines.sourceSettings(properties, ConfiguredSource.single(properties));
			}

			@Bean(destroyMethod = "close")
			@ConditionalOnMissingBean
			TributaryConnections tributaryConnections(TributaryProperties properties, SourceSettings source,
					ObjectProvider<DataSourceProperties> applicationDataSource, ListableBeanFactory beans) {
				return TributaryConnections.open("", source, ConfiguredSource.single(properties).settingNames(),
						properties, applicationDataSource.getIfAvailable(),
						!ConfiguredPipelines.writesTargetTables(properties, changeListener(beans) != null));
			}

			@Bean
			@ConditionalOnMissingBean(CheckpointStore.class)
			CheckpointStore tributaryCheckpointStore(TributaryProperties properties,
					TributaryConnections connections, ListableBeanFactory beans) {
				PropertyChecks.checkShared(properties);
				CheckpointStores elsewhere = checkpointStores(properties, beans);
				if (elsewhere != null) {
					return elsewhere.forPipeline(properties.getCheckpoint().getPipeline());
				}
				return new JdbcCheckpointStore(connections.target(),
						ConfiguredPipelines.checkpointTable(properties, connections.targetSchema()),
						properties.getCheckpoint().getPipeline(), ConfiguredSource.single(properties).settingNames());
			}

			@Bean
			Pipeline tributaryPipeline(TributaryProperties properties, SourceSettings source,
					TributaryConnections connections, CheckpointStore checkpoints, ListableBeanFactory beans) {
				return new Pipeline(ConfiguredPipelines.settings(properties, ConfiguredSource.single(properties), source,
						connections.targetSchema(), changeListener(beans), topicSinks(beans)), connections.source(),
						connections.target(),
						checkpoints);
			}

		}

	}

	/**
	 * Several sources, {@code cdc.sources.<name>}: a pipeline for each, registered by
	 * {@link SourcePipelinesRegistrar}.
	 */
	@Configuration(proxyBeanMethods = false)
	@Conditional(SourceFormCondition.Several.class)
	@Import(SourcePipelinesRegistrar.class)
	static class SeveralSourcesConfiguration {

	}

}
