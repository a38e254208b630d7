package io.tributary.autoconfigure;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.util.ClassUtils;

import io.tributary.autoconfigure.endpoint.CdcEndpoint;
import io.tributary.autoconfigure.endpoint.CdcEndpointAutoConfiguration;
import io.tributary.checkpoint.CheckpointStore;
import io.tributary.checkpoint.JdbcCheckpointStore;
import io.tributary.pipeline.Pipeline;
import io.tributary.source.SourceSettings;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pipeline auto-configuration backs off to the application's own beans, and needs neither the
 * actuator nor Micrometer.
 */
class TributaryBeanOverridesTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, CdcEndpointAutoConfiguration.class))
		.withPropertyValues("cdc.source.host=127.0.0.1", "cdc.source.port=1", "cdc.source.username=repl",
				"cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "cdc.tables[0].source=shop.orders");

	@Test
	void keepsCheckpointsInTheCheckpointTableByDefault() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(JdbcCheckpointStore.class)
			.hasSingleBean(Pipeline.class));
	}

	@Test
	void usesTheApplicationsCheckpointStore() {
		this.runner.withUserConfiguration(OwnCheckpointStore.class).run((context) -> {
			assertThat(context).hasSingleBean(Pipeline.class).doesNotHaveBean(JdbcCheckpointStore.class);
			assertThat(context.getBean(CheckpointStore.class)).isSameAs(context.getBean("ownCheckpoints"));
		});
	}

	@Test
	void usesTheApplicationsSourceSettingsWithoutSourceProperties() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "cdc.tables[0].source=shop.orders")
			.withUserConfiguration(OwnSourceSettings.class)
			.run((context) -> {
				PipelineStatus.Source source = context.getBean(Pipeline.class).status().source();
				assertThat(source.host()).isEqualTo("10.1.2.3");
				assertThat(source.port()).isEqualTo(3310);
				assertThat(source.serverId()).isEqualTo(77);
				HikariDataSource pool = (HikariDataSource) context.getBean(TributaryConnections.class).source();
				assertThat(pool.getJdbcUrl()).startsWith("jdbc:mysql://10.1.2.3:3310/");
				assertThat(pool.getUsername()).isEqualTo("vault-user");
			});
	}

	@Test
	void usesTheApplicationsConnectionsAndLeavesThemOpen() {
		HikariDataSource[] pools = new HikariDataSource[2];
		this.runner.withPropertyValues("cdc.target.url=").withUserConfiguration(OwnConnections.class).run((context) -> {
			TributaryConnections connections = context.getBean(TributaryConnections.class);
			pools[0] = (HikariDataSource) connections.source();
			pools[1] = (HikariDataSource) connections.target();
			assertThat(pools[0].getPoolName()).isEqualTo("own-source");
			assertThat(context.getBean(Pipeline.class).status().tables()).extracting(TableStatus::target)
				.containsExactly("appschema.orders");
		});
		assertThat(pools[0].isClosed()).isFalse();
		assertThat(pools[1].isClosed()).isFalse();
		pools[0].close();
		pools[1].close();
	}

	@Test
	void closesTheConnectionsItOpened() {
		HikariDataSource[] pools = new HikariDataSource[1];
		this.runner.run((context) -> pools[0] = (HikariDataSource) context.getBean(TributaryConnections.class).target());
		assertThat(pools[0].isClosed()).isTrue();
	}

	@Test
	void startsWithoutTheActuatorAndWithoutMicrometer() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.port=1", "cdc.source.username=repl",
					"cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "cdc.tables[0].source=shop.orders")
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate", "io.micrometer"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Pipeline.class)
				.hasSingleBean(TributaryPipelines.class)
				.hasSingleBean(TributaryLifecycle.class));
	}

	@Test
	void startsSeveralSourcesWithoutTheActuatorAndWithoutMicrometer() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "cdc.sources.a.username=repl",
					"cdc.sources.a.port=1", "cdc.sources.a.tables[0].source=shop.orders", "cdc.sources.b.username=repl",
					"cdc.sources.b.port=1", "cdc.sources.b.tables[0].source=shop.items")
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate", "io.micrometer"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(TributaryPipelines.class).all()).hasSize(2);
				assertThat(context.getBeansOfType(TributaryLifecycle.class)).hasSize(2);
			});
	}

	/**
	 * As an application without the actuator and Micrometer's metrics starts: every
	 * auto-configuration listed on the class path is considered, and one that needs the actuator
	 * must step aside without failing the start.
	 */
	@Test
	void anAutoConfiguredApplicationWithoutTheActuatorAndWithoutMicrometerStarts() {
		SpringApplication application = new SpringApplication(
				new DefaultResourceLoader(new WithoutActuatorAndMicrometer()), AutoConfiguredApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run("--cdc.source.port=1",
				"--cdc.source.username=repl", "--spring.datasource.url=jdbc:mysql://127.0.0.1:1/replica",
				"--cdc.tables[0].source=shop.orders", "--management.endpoints.web.exposure.include=cdc")) {
			assertThat(ClassUtils.isPresent(Endpoint.class.getName(), context.getClassLoader())).isFalse();
			assertThat(context.getBeansOfType(Pipeline.class)).hasSize(1);
			assertThat(context.getBeanNamesForType(CdcEndpoint.class)).isEmpty();
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class AutoConfiguredApplication {

	}

	/**
	 * Sees the class path as it is without the actuator's and Micrometer's metrics jars: neither
	 * their classes nor the resources in those jars, such as their lists of auto-configurations.
	 */
	static final class WithoutActuatorAndMicrometer extends ClassLoader {

		private static final List<String> HIDDEN_PACKAGES = List.of("org/springframework/boot/actuate/",
				"io/micrometer/core/");

		private static final List<String> HIDDEN_JARS = List.of("/spring-boot-actuator", "/spring-boot-health",
				"/spring-boot-micrometer", "/micrometer-core");

		WithoutActuatorAndMicrometer() {
			super(TributaryBeanOverridesTest.class.getClassLoader());
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (hidden(name.replace('.', '/'), null)) {
				throw new ClassNotFoundException(name);
			}
			return super.loadClass(name, resolve);
		}

		@Override
		public URL getResource(String name) {
			URL url = super.getResource(name);
			return (url == null || hidden(name, url)) ? null : url;
		}

		@Override
		public Enumeration<URL> getResources(String name) throws IOException {
			return Collections.enumeration(
					Collections.list(super.getResources(name)).stream().filter((url) -> !hidden(name, url)).toList());
		}

		private static boolean hidden(String name, URL url) {
			return HIDDEN_PACKAGES.stream().anyMatch(name::startsWith)
					|| (url != null && HIDDEN_JARS.stream().anyMatch(url.toString()::contains));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnCheckpointStore {

		@Bean
		InMemoryCheckpointStore ownCheckpoints() {
			return new InMemoryCheckpointStore();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnSourceSettings {

		@Bean
		SourceSettings sourceFromVault() {
			return new SourceSettings("10.1.2.3", 3310, "vault-user", "secret", 77, null, null);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnConnections {

		@Bean
		TributaryConnections ownConnections() {
			return new TributaryConnections(pool("own-source"), pool("own-target"), "appschema");
		}

		private static HikariDataSource pool(String name) {
			HikariDataSource pool = new HikariDataSource();
			pool.setPoolName(name);
			pool.setJdbcUrl("jdbc:mysql://127.0.0.1:1/appschema");
			pool.setInitializationFailTimeout(1);
			return pool;
		}

	}

}
