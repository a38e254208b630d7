package io.tributary.autoconfigure.endpoint;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.pipeline.Pipeline;

/**
 * Auto-configuration of the {@code cdc} actuator endpoint, when the actuator is present.
 */
@AutoConfiguration(after = TributaryAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(Pipeline.class)
@ConditionalOnAvailableEndpoint(CdcEndpoint.class)
public final class CdcEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CdcEndpoint cdcEndpoint(Pipeline pipeline) {
		return new CdcEndpoint(pipeline);
	}

}
