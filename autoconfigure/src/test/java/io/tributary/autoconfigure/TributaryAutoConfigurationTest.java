package io.tributary.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.autoconfigure.endpoint.CdcEndpoint;
import io.tributary.autoconfigure.endpoint.CdcEndpointAutoConfiguration;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.TableId;

import static org.assertj.core.api.Assertions.assertThat;

class TributaryAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, CdcEndpointAutoConfiguration.class))
		.withPropertyValues("cdc.source.host=127.0.0.1", "cdc.source.port=1", "cdc.source.username=repl",
				"cdc.source.server-id=4242", "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica",
				"cdc.tables[0].source=shop.orders", "cdc.tables[1].source=shop.order_items",
				"cdc.tables[1].target=archive.items", "management.endpoints.web.exposure.include=cdc");

	@Test
	void buildsAPipelineWithItsEndpoint() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(Pipeline.class).hasSingleBean(CdcEndpoint.class);
			assertThat(context.getBean(CdcEndpoint.class).status().source().serverId()).isEqualTo(4242);
		});
	}

	@Test
	void targetsDefaultToTheTargetSchema() {
		this.runner.run((context) -> {
			PipelineSettings settings = TributaryAutoConfiguration.settings(context.getBean(TributaryProperties.class),
					"replica");
			assertThat(settings.tables()).containsExactly(
					new TableMapping(new TableId("shop", "orders"), new TableId("replica", "orders")),
					new TableMapping(new TableId("shop", "order_items"), new TableId("archive", "items")));
			assertThat(settings.checkpointTable()).isEqualTo(new TableId("replica", "tributary_checkpoint"));
		});
	}

	@Test
	void failsWithAClearMessageWithoutTables() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.username=repl", "cdc.target.url=jdbc:mysql://127.0.0.1:1/replica")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("cdc.tables is empty"));
	}

	@Test
	void failsWithAClearMessageWithoutASourceUser() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.tables[0].source=shop.orders")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("cdc.source.username"));
	}

	@Test
	void canBeDisabled() {
		this.runner.withPropertyValues("cdc.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(Pipeline.class).doesNotHaveBean(CdcEndpoint.class));
	}

	@Test
	void endpointNeedsTheActuator() {
		this.runner.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).hasSingleBean(Pipeline.class).doesNotHaveBean(CdcEndpoint.class));
	}

	@Test
	void backsOffFromAUserPipeline() {
		this.runner.withUserConfiguration(UserPipeline.class)
			.run((context) -> assertThat(context).getBean(Pipeline.class).isSameAs(UserPipeline.PIPELINE));
	}

	@Test
	void readsTheDefaultSchemaFromTheUrl() {
		assertThat(JdbcUrls.defaultSchema("jdbc:mysql://db:3306/replica?useSSL=false")).isEqualTo("replica");
		assertThat(JdbcUrls.defaultSchema("jdbc:mysql://db:3306/")).isNull();
		assertThat(JdbcUrls.defaultSchema("jdbc:mysql://db")).isNull();
	}

	@Configuration(proxyBeanMethods = false)
	static class UserPipeline {

		static final Pipeline PIPELINE = new Pipeline(PipelineSettings.of(
				new io.tributary.source.SourceSettings("127.0.0.1", 1, "u", "p", 7, null, null),
				java.util.List.of(new TableMapping(new TableId("a", "b"), new TableId("c", "b"))),
				new TableId("c", "cp")), new com.zaxxer.hikari.HikariDataSource(),
				new com.zaxxer.hikari.HikariDataSource());

		@Bean
		Pipeline pipeline() {
			return PIPELINE;
		}

	}

}
