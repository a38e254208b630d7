package io.tributary.autoconfigure.actions;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccessAutoConfiguration;

/**
 * Auto-configuration of the {@link CdcActions} service that the {@code cdc} endpoint and the admin
 * pages run their actions through. Needs neither the actuator nor a web server.
 */
@AutoConfiguration(after = { TributaryAutoConfiguration.class, CdcAccessAutoConfiguration.class })
@ConditionalOnBean({ TributaryPipelines.class, CdcAccess.class })
public final class CdcActionsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CdcActions cdcActions(TributaryPipelines pipelines, CdcAccess access, TributaryProperties properties) {
		return new CdcActions(pipelines, access, properties.getAdmin());
	}

}
