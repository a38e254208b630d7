package io.tributary.admin;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;

/**
 * Auto-configuration of the admin pages, in servlet web applications with Thymeleaf.
 */
@AutoConfiguration(after = TributaryAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "org.thymeleaf.spring6.SpringTemplateEngine")
@ConditionalOnBean(TributaryPipelines.class)
public final class TributaryAdminAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	AdminController tributaryAdminController(TributaryPipelines pipelines) {
		return new AdminController(pipelines);
	}

}
