package io.tributary.autoconfigure.security;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;

/**
 * Auto-configuration of who may read Tributary's status and run its actions: a
 * {@link CdcAccess} bean, unless the application declares its own.
 */
@AutoConfiguration(after = TributaryAutoConfiguration.class)
@ConditionalOnBean(TributaryPipelines.class)
public final class CdcAccessAutoConfiguration {

	/** Spring Security's signed-in user and roles decide. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = SpringSecurityAccess.SECURITY_CONTEXT_HOLDER)
	static class SpringSecurityAccess {

		static final String SECURITY_CONTEXT_HOLDER = "org.springframework.security.core.context.SecurityContextHolder";

		@Bean
		@ConditionalOnMissingBean(CdcAccess.class)
		SpringSecurityCdcAccess cdcAccess(TributaryProperties properties) {
			return new SpringSecurityCdcAccess(properties.getAdmin());
		}

	}

	/** Without Spring Security every request that reaches the endpoint may go ahead. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass(SpringSecurityAccess.SECURITY_CONTEXT_HOLDER)
	static class OpenAccess {

		@Bean
		@ConditionalOnMissingBean(CdcAccess.class)
		OpenCdcAccess cdcAccess() {
			return new OpenCdcAccess();
		}

	}

}
