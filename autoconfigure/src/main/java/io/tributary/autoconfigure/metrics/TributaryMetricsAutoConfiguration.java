package io.tributary.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;

/**
 * Auto-configuration of the pipelines' Micrometer metrics, when Micrometer is present and the
 * application has a {@link MeterRegistry}. Spring Boot binds the {@link TributaryMetrics} bean to
 * every registry, with the meters of the tables {@code cdc.metrics.tables} chooses; an application
 * bean of that type replaces it.
 */
@AutoConfiguration(after = TributaryAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, TributaryPipelines.class })
@EnableConfigurationProperties(TributaryProperties.class)
public final class TributaryMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TributaryMetrics tributaryMetrics(TributaryPipelines pipelines, TributaryProperties properties) {
		return new TributaryMetrics(pipelines, properties.getMetrics().getTables());
	}

}
