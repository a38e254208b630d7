package io.tributary.autoconfigure;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import io.tributary.checkpoint.CheckpointStore;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.source.SourceSettings;

/**
 * Registers, for each source under {@code cdc.sources.<name>}, its source settings, its
 * connections, its {@link Pipeline} and that pipeline's lifecycle, as beans named
 * {@code tributarySourceSettings-<name>}, {@code tributaryConnections-<name>},
 * {@code tributaryPipeline-<name>} and {@code tributaryLifecycle-<name>}. Their property checks
 * run when the beans are created, so a mistake ends startup with its failure analysis.
 */
class SourcePipelinesRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

	private Environment environment;

	private ListableBeanFactory beans;

	/** Names of the beans this registrar registered. */
	private final Set<String> registered = new HashSet<>();

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beans = (ListableBeanFactory) beanFactory;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		for (String key : SourceFormCondition.sourceNames(this.environment)) {
			String settings = "tributarySourceSettings-" + key;
			String connections = "tributaryConnections-" + key;
			String pipeline = "tributaryPipeline-" + key;
			register(registry, settings, SourceSettings.class,
					() -> ConfiguredPipelines.sourceSettings(properties(), ConfiguredSource.named(properties(), key)));
			RootBeanDefinition pools = register(registry, connections, TributaryConnections.class,
					() -> TributaryConnections.open("-" + key, this.beans.getBean(settings, SourceSettings.class),
							ConfiguredSource.named(properties(), key).settingNames(), properties(),
							this.beans.getBeanProvider(DataSourceProperties.class).getIfAvailable(),
							!ConfiguredPipelines.writesTargetTables(properties(),
									TributaryAutoConfiguration.changeListener(this.beans) != null)),
					settings);
			pools.setDestroyMethodName("close");
			RootBeanDefinition replicating = register(registry, pipeline, Pipeline.class, () -> {
				refuseSingleSourceBeans();
				TributaryConnections pool = this.beans.getBean(connections, TributaryConnections.class);
				PipelineSettings configured = ConfiguredPipelines.settings(properties(),
						ConfiguredSource.named(properties(), key), this.beans.getBean(settings, SourceSettings.class),
						pool.targetSchema(), TributaryAutoConfiguration.changeListener(this.beans),
						TributaryAutoConfiguration.topicSinks(this.beans));
				CheckpointStores elsewhere = TributaryAutoConfiguration.checkpointStores(properties(), this.beans);
				return (elsewhere != null)
						? new Pipeline(configured, pool.source(), pool.target(), elsewhere.forPipeline(configured.name()))
						: new Pipeline(configured, pool.source(), pool.target());
			}, settings, connections);
			replicating.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
			register(registry, "tributaryLifecycle-" + key, TributaryLifecycle.class,
					() -> new TributaryLifecycle(this.beans.getBean(pipeline, Pipeline.class),
							TributaryAutoConfiguration.shutdownPhaseTimeout(this.environment)),
					pipeline);
		}
	}

	private <T> RootBeanDefinition register(BeanDefinitionRegistry registry, String name, Class<T> type,
			Supplier<T> supplier, String... dependsOn) {
		RootBeanDefinition definition = new RootBeanDefinition(type, supplier);
		definition.setDependsOn(dependsOn);
		registry.registerBeanDefinition(name, definition);
		this.registered.add(name);
		return definition;
	}

	private TributaryProperties properties() {
		return this.beans.getBean(TributaryProperties.class);
	}

	/**
	 * Refuses the beans that replace a part of the single pipeline of {@code cdc.source}: with
	 * several pipelines it is not clear which one they belong to, and ignoring them would be worse.
	 */
	private void refuseSingleSourceBeans() {
		for (Class<?> type : List.of(CheckpointStore.class, SourceSettings.class, TributaryConnections.class)) {
			List<String> own = Arrays.stream(this.beans.getBeanNamesForType(type, true, false))
				.filter((name) -> !this.registered.contains(name))
				.toList();
			if (!own.isEmpty()) {
				throw new TributaryConfigurationException("cdc.sources", SourceFormCondition.sourceNames(this.environment),
						"The application's " + type.getSimpleName() + " bean " + own + " replaces part of the one "
								+ "pipeline of cdc.source, but cdc.sources configures a pipeline per source",
						"Remove the bean, or replicate one source with cdc.source and cdc.tables.");
			}
		}
	}

}
