package io.tributary.autoconfigure.metrics;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;

/**
 * Auto-configuration of the pipelines' Micrometer metrics, when Micrometer is present and the
 * application has a {@link MeterRegistry}. Spring Boot binds the {@link TributaryMetrics} bean to
 * every registry; an application bean of that type replaces it.
 */
@AutoConfiguration(after = TributaryAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, TributaryPipelines.class })
public final class TributaryMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TributaryMetrics tributaryMetrics(TributaryPipelines pipelines) {
		return new TributaryMetrics(pipelines);
	}

}
