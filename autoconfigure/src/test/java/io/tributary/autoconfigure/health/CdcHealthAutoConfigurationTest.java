package io.tributary.autoconfigure.health;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.pipeline.Pipeline;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the {@code cdc} health indicator exists, and that it gives way to the user's.
 */
class CdcHealthAutoConfigurationTest {

	// Nothing listens on port 1: the pipeline keeps retrying its start, which the indicator reads as starting.
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, CdcHealthAutoConfiguration.class))
		.withPropertyValues("cdc.source.host=127.0.0.1", "cdc.source.port=1", "cdc.source.username=repl",
				"cdc.target.url=jdbc:mysql://127.0.0.1:1/replica", "cdc.tables[0].source=shop.orders");

	@Test
	void theIndicatorIsThereWithTheHealthSupport() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(CdcHealthIndicator.class).hasBean("cdcHealthIndicator");
			Health health = context.getBean(CdcHealthIndicator.class).health();
			assertThat(health.getDetails()).containsOnlyKeys("default");
			assertThat(health.getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void theIndicatorReadsItsThresholdsFromTheProperties() {
		this.runner.withPropertyValues("cdc.health.snapshotting-status=out-of-service").run((context) -> {
			assertThat(context.getBean(TributaryProperties.class).getHealth().getSnapshottingStatus())
				.isEqualTo("out-of-service");
			// Still starting, which counts as not streaming yet.
			assertThat(context.getBean(CdcHealthIndicator.class).health().getStatus())
				.isEqualTo(Status.OUT_OF_SERVICE);
		});
	}

	@Test
	void theIndicatorIsOffWhenDisabled() {
		this.runner.withPropertyValues("management.health.cdc.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(Pipeline.class)
				.doesNotHaveBean(CdcHealthIndicator.class));
		this.runner.withPropertyValues("management.health.defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CdcHealthIndicator.class));
	}

	@Test
	void theIndicatorIsOffWithoutTheHealthClasses() {
		this.runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Pipeline.class)
				.doesNotHaveBean(CdcHealthIndicator.class));
	}

	@Test
	void theIndicatorIsOffWithoutPipelines() {
		this.runner.withPropertyValues("cdc.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CdcHealthIndicator.class));
	}

	@Test
	void aUserBeanNamedCdcHealthIndicatorWins() {
		this.runner.withUserConfiguration(NamedIndicator.class).run((context) -> {
			assertThat(context).doesNotHaveBean(CdcHealthIndicator.class);
			assertThat(context.getBean("cdcHealthIndicator", HealthIndicator.class).health().getStatus())
				.isEqualTo(Status.UNKNOWN);
		});
	}

	@Test
	void aUserBeanOfTheIndicatorsTypeWins() {
		this.runner.withUserConfiguration(TypedIndicator.class).run((context) -> {
			assertThat(context).hasSingleBean(CdcHealthIndicator.class).hasBean("replicationHealth")
				.doesNotHaveBean("cdcHealthIndicator");
		});
	}

	@Test
	void theIndicatorServesAsCdcInAReadinessGroup() {
		this.runner
			.withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
					HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
					AvailabilityHealthContributorAutoConfiguration.class, AvailabilityProbesAutoConfiguration.class,
					HealthEndpointAutoConfiguration.class))
			// As in docs/health.md; Kubernetes turns the probes on by itself.
			.withPropertyValues("management.endpoint.health.probes.enabled=true",
					"management.endpoint.health.group.readiness.include=readinessState,cdc",
					"management.endpoint.health.group.readiness.show-details=always")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CompositeHealthDescriptor readiness = (CompositeHealthDescriptor) context.getBean(HealthEndpoint.class)
					.healthForPath("readiness");
				assertThat(readiness.getComponents()).containsOnlyKeys("readinessState", "cdc");
				assertThat(readiness.getComponents().get("cdc").getStatus()).isEqualTo(Status.UP);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class NamedIndicator {

		@Bean
		HealthIndicator cdcHealthIndicator() {
			return () -> Health.unknown().build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TypedIndicator {

		@Bean
		CdcHealthIndicator replicationHealth() {
			return new CdcHealthIndicator(new TributaryPipelines(List.of()), new TributaryProperties.Health(),
					() -> null);
		}

	}

}
