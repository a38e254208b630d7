package io.tributary.autoconfigure.endpoint;

import org.springframework.beans.factory.ObjectProvider;
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
import io.tributary.autoconfigure.actions.CdcActions;
import io.tributary.autoconfigure.actions.CdcActionsAutoConfiguration;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccessAutoConfiguration;

/**
 * Auto-configuration of the {@code cdc} actuator endpoint, when the actuator is present and the
 * endpoint is exposed. It runs its actions through the application's {@link CdcActions} bean, the
 * one the admin pages use.
 */
@AutoConfiguration(after = { TributaryAutoConfiguration.class, CdcAccessAutoConfiguration.class,
		CdcActionsAutoConfiguration.class })
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean({ TributaryPipelines.class, CdcAccess.class })
@ConditionalOnAvailableEndpoint(CdcEndpoint.class)
public final class CdcEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CdcEndpoint cdcEndpoint(TributaryPipelines pipelines, CdcAccess access, TributaryProperties properties,
			ObjectProvider<CdcActions> actions) {
		return new CdcEndpoint(pipelines,
				actions.getIfAvailable(() -> new CdcActions(pipelines, access, properties.getAdmin())));
	}

}
