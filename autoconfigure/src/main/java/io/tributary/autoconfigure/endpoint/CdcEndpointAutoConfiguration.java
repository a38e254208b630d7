package io.tributary.autoconfigure.endpoint;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccessAutoConfiguration;

/**
 * Auto-configuration of the {@code cdc} actuator endpoint, when the actuator is present and the
 * endpoint is exposed.
 */
@AutoConfiguration(after = { TributaryAutoConfiguration.class, CdcAccessAutoConfiguration.class })
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean({ TributaryPipelines.class, CdcAccess.class })
@ConditionalOnAvailableEndpoint(CdcEndpoint.class)
public final class CdcEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CdcEndpoint cdcEndpoint(TributaryPipelines pipelines, CdcAccess access, TributaryProperties properties) {
		return new CdcEndpoint(pipelines, access, properties.getAdmin());
	}

}
