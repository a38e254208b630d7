package io.tributary.autoconfigure.health;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;

/**
 * Auto-configuration of the {@code cdc} health indicator, when Spring Boot's health support is
 * present; {@code management.health.cdc.enabled=false} turns it off.
 */
@AutoConfiguration(after = TributaryAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(TributaryPipelines.class)
@ConditionalOnEnabledHealthIndicator("cdc")
@EnableConfigurationProperties(TributaryProperties.class)
public final class CdcHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "cdcHealthIndicator", value = CdcHealthIndicator.class)
	CdcHealthIndicator cdcHealthIndicator(TributaryPipelines pipelines, TributaryProperties properties,
			ObjectProvider<StatusAggregator> statusAggregator) {
		// The endpoint's order (management.endpoint.health.status.order) where there is one.
		return new CdcHealthIndicator(pipelines, properties.getHealth(),
				() -> statusAggregator.getIfAvailable(StatusAggregator::getDefault));
	}

}
