package io.tributary.admin;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.autoconfigure.actions.CdcActions;
import io.tributary.autoconfigure.actions.CdcActionsAutoConfiguration;
import io.tributary.autoconfigure.security.CdcAccessAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/** The admin pages' beans, the service they act through, and the history's life with the context. */
class TributaryAdminAutoConfigurationTest {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(CdcAccessAutoConfiguration.class, CdcActionsAutoConfiguration.class,
				TributaryAdminAutoConfiguration.class));

	@Test
	void theHistorySamplesWhileTheContextRunsAndStopsWithIt() {
		StatusHistory[] history = new StatusHistory[1];
		this.runner.withUserConfiguration(Pipelines.class).run((context) -> {
			assertThat(context).hasSingleBean(AdminController.class).hasSingleBean(AdminActionController.class)
				.hasSingleBean(StatusHistory.class).hasSingleBean(ConsoleActions.class);
			history[0] = context.getBean(StatusHistory.class);
			assertThat(history[0].isRunning()).isTrue();
		});
		assertThat(history[0].isRunning()).isFalse();
	}

	@Test
	void aHistoryOfTheApplicationsOwnIsUsed() {
		this.runner.withUserConfiguration(Pipelines.class, OwnHistory.class)
			.run((context) -> assertThat(context.getBean(StatusHistory.class)).isSameAs(OwnHistory.HISTORY));
	}

	@Test
	void thePagesActThroughTheApplicationsActionService() {
		this.runner.withUserConfiguration(Pipelines.class, OwnActions.class).run((context) -> {
			assertThat(context).getBean(CdcActions.class).isSameAs(context.getBean("ownActions"));
			assertThat(context.getBean(ConsoleActions.class).available()).as("what the application's service says")
				.isTrue();
		});
	}

	@Test
	void withoutPipelinesThereAreNoPages() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(AdminController.class)
			.doesNotHaveBean(StatusHistory.class));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(TributaryProperties.class)
	static class Pipelines {

		@Bean
		TributaryPipelines tributaryPipelines() {
			return new TributaryPipelines(List.of());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnActions {

		@Bean
		CdcActions ownActions(TributaryPipelines pipelines) {
			return new CdcActions(pipelines, (operation) -> null, new TributaryProperties.Admin()) {

				@Override
				public boolean available() {
					return true;
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnHistory {

		static final StatusHistory HISTORY = new StatusHistory(List::of);

		@Bean
		StatusHistory ownHistory() {
			return HISTORY;
		}

	}

}
