package io.tributary.admin;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

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
	StatusHistory tributaryStatusHistory(TributaryPipelines pipelines) {
		return new StatusHistory(pipelines::status);
	}

	@Bean
	@ConditionalOnMissingBean
	AdminController tributaryAdminController(TributaryPipelines pipelines, StatusHistory history,
			Environment environment) {
		return new AdminController(pipelines::status, history, environment.getProperty("cdc.admin.path", "/tributary"));
	}

	@Bean
	WebMvcConfigurer tributaryAdminAssets() {
		return new AdminAssets();
	}

	/**
	 * Serves the pages' own stylesheet and script from the module, whatever the application's
	 * static locations are.
	 */
	static final class AdminAssets implements WebMvcConfigurer {

		@Override
		public void addResourceHandlers(ResourceHandlerRegistry registry) {
			registry.addResourceHandler("/tributary-assets/**").addResourceLocations("classpath:/tributary-assets/");
		}

	}

}
