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
import io.tributary.autoconfigure.actions.CdcActions;
import io.tributary.autoconfigure.actions.CdcActionsAutoConfiguration;
import io.tributary.autoconfigure.actions.RequestRefused;
import io.tributary.autoconfigure.actions.TableAddress;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccessAutoConfiguration;

/**
 * Auto-configuration of the admin pages, in servlet web applications with Thymeleaf. The pages
 * read through the application's {@link CdcAccess} and act through its {@link CdcActions}, the
 * same beans {@code /actuator/cdc} uses.
 */
@AutoConfiguration(after = { TributaryAutoConfiguration.class, CdcAccessAutoConfiguration.class,
		CdcActionsAutoConfiguration.class })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(name = "org.thymeleaf.spring6.SpringTemplateEngine")
@ConditionalOnBean({ TributaryPipelines.class, CdcAccess.class, CdcActions.class })
public final class TributaryAdminAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	StatusHistory tributaryStatusHistory(TributaryPipelines pipelines) {
		return new StatusHistory(pipelines::status);
	}

	@Bean
	@ConditionalOnMissingBean
	ConsoleActions tributaryConsoleActions(CdcActions actions) {
		return new CdcConsoleActions(actions);
	}

	@Bean
	@ConditionalOnMissingBean
	AdminController tributaryAdminController(TributaryPipelines pipelines, CdcAccess access, ConsoleActions actions,
			StatusHistory history, Environment environment) {
		return new AdminController(pipelines::status, tableDetails(pipelines), access, actions, history,
				path(environment));
	}

	@Bean
	@ConditionalOnMissingBean
	AdminActionController tributaryAdminActionController(ConsoleActions actions, Environment environment) {
		return new AdminActionController(actions, path(environment));
	}

	@Bean
	WebMvcConfigurer tributaryAdminAssets() {
		return new AdminAssets();
	}

	/** Finds a table's detail the way the endpoint does, by {@code pipeline:schema.table}. */
	static TableDetails tableDetails(TributaryPipelines pipelines) {
		return (pipeline, table) -> {
			try {
				return TableAddress.resolve(pipelines, pipeline + ":" + table).detail();
			}
			catch (RequestRefused ex) {
				return null;
			}
		};
	}

	private static String path(Environment environment) {
		return environment.getProperty("cdc.admin.path", "/tributary");
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
