package io.tributary.admin;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.security.test.web.servlet.setup.SecurityMockMvcConfigurers.springSecurity;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The pages behind Spring Security, wired by the auto-configurations as an application gets them:
 * the user check of {@code CdcAccess}, the {@code CdcActions} service, and Spring Security's CSRF
 * filter. The application's filter chain lets every request through (HTTP basic), so the pages' own
 * checks decide; reading needs {@code CDC_READ}, acting {@code CDC_ADMIN}. The pipeline is never
 * started: every action reaches it and is refused for that, which no check in front of it could say.
 */
@SpringBootTest(classes = AdminSecurityTest.SecuredConsole.class,
		properties = { "cdc.admin.actions-enabled=true", "cdc.admin.read-role=CDC_READ" })
class AdminSecurityTest {

	private static final String TABLE = "/tributary/pipelines/main/tables/shop.orders";

	private static final String NOT_RUNNING = "Cannot pause shop.orders: the pipeline is STOPPED";

	private static final Pattern CSRF_FIELD = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

	@Autowired
	private WebApplicationContext context;

	@Autowired
	private TributaryProperties properties;

	private MockMvc mvc;

	@BeforeEach
	void securedMvc() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context).apply(springSecurity()).build();
	}

	@AfterEach
	void enableActions() {
		this.properties.getAdmin().setActionsEnabled(true);
	}

	@Test
	void readingNeedsASignedInUserWithTheReadRole() throws Exception {
		for (String path : List.of("/tributary", "/tributary/fragments/overview", "/tributary/history.json", TABLE,
				TABLE + "/fragment", TABLE + "/history.json")) {
			assertThat(this.mvc.perform(get(path)).andExpect(status().isUnauthorized()).andReturn().getResponse()
				.getContentAsString()).as(path).contains("needs a signed-in user with role CDC_READ");
			this.mvc.perform(get(path).with(user("viewer").roles("VIEWER"))).andExpect(status().isForbidden());
			this.mvc.perform(get(path).with(reader())).andExpect(status().isOk());
			this.mvc.perform(get(path).with(operator())).andExpect(status().isOk());
		}
		assertThat(page(TABLE, reader())).contains("shop.orders").contains("→ replica.orders");
	}

	@Test
	void onlyAUserWithTheActionRoleSeesTheButtonsAndTheirFormsCarryTheCsrfToken() throws Exception {
		assertThat(page(TABLE, reader())).doesNotContain("<form").doesNotContain("_csrf");
		assertThat(page("/tributary", reader())).doesNotContain("<form").doesNotContain("Actions on every table");
		String table = page(TABLE, operator());
		assertThat(table).contains("action=\"" + TABLE + "/actions/pause\"");
		assertThat(CSRF_FIELD.matcher(table).results().count()).as("one token per form")
			.isEqualTo(ConsoleActions.NAMES.size());
		assertThat(CSRF_FIELD.matcher(page("/tributary", operator())).results().count())
			.as("one token per form, the one that adds a table too").isEqualTo(ConsoleActions.NAMES.size() + 1);
		this.properties.getAdmin().setActionsEnabled(false);
		assertThat(page(TABLE, operator())).as("actions disabled").doesNotContain("<form");
	}

	@Test
	void actionsNeedASignedInUserWithTheActionRole() throws Exception {
		assertThat(this.mvc.perform(post(TABLE + "/actions/pause").with(csrf())).andExpect(status().isUnauthorized())
			.andReturn().getResponse().getContentAsString()).contains("needs a signed-in user with role CDC_ADMIN");
		assertThat(this.mvc.perform(post(TABLE + "/actions/pause").with(csrf()).with(reader()))
			.andExpect(status().isForbidden()).andReturn().getResponse().getContentAsString())
			.contains("needs role CDC_ADMIN (cdc.admin.role), which user &#39;reader&#39; does not have");
		this.mvc.perform(post("/tributary/actions/pause").with(csrf()).with(reader())).andExpect(status().isForbidden());
		this.mvc.perform(post("/tributary/tables").param("source", "shop.returns").param("target", "replica.returns")
			.with(csrf()).with(reader())).andExpect(status().isForbidden());
		this.mvc.perform(post(TABLE + "/actions/resnapshot").with(csrf()).with(reader()))
			.andExpect(status().isForbidden());
	}

	@Test
	void actionsAreRefusedWhileDisabled() throws Exception {
		this.properties.getAdmin().setActionsEnabled(false);
		assertThat(this.mvc.perform(post(TABLE + "/actions/pause").with(csrf()).with(operator()))
			.andExpect(status().isForbidden()).andReturn().getResponse().getContentAsString())
			.contains("Actions are disabled: set cdc.admin.actions-enabled=true");
		this.mvc.perform(post("/tributary/actions/resnapshot").with(csrf()).with(operator()))
			.andExpect(status().isForbidden());
	}

	@Test
	void aPostWithoutTheCsrfTokenIsRefusedBeforeItReachesTheService() throws Exception {
		this.mvc.perform(post(TABLE + "/actions/pause").with(operator())).andExpect(status().isForbidden());
		this.mvc.perform(post(TABLE + "/actions/pause").with(operator()).param("_csrf", "forged"))
			.andExpect(status().isForbidden());
		this.mvc.perform(post("/tributary/actions/pause").with(operator())).andExpect(status().isForbidden());
	}

	@Test
	void withTheTokenOfItsPageAndTheRoleAnActionReachesThePipeline() throws Exception {
		MvcResult shown = this.mvc.perform(get(TABLE).with(operator())).andExpect(status().isOk()).andReturn();
		MockHttpSession session = (MockHttpSession) shown.getRequest().getSession();
		Matcher token = CSRF_FIELD.matcher(shown.getResponse().getContentAsString());
		assertThat(token.find()).isTrue();

		MvcResult posted = this.mvc
			.perform(post(TABLE + "/actions/pause").session(session).with(operator()).param("_csrf", token.group(1)))
			.andExpect(status().isSeeOther())
			.andExpect(redirectedUrl(TABLE))
			.andReturn();
		String page = this.mvc.perform(get(TABLE).session(session).with(operator()).flashAttrs(posted.getFlashMap()))
			.andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
		assertThat(page).contains("<strong>Refused.</strong>").contains(NOT_RUNNING);
	}

	@Test
	void aResnapshotAsksTheUserWithTheRoleToConfirmWithAFormOfItsOwnToken() throws Exception {
		String confirm = this.mvc.perform(post(TABLE + "/actions/resnapshot").with(csrf()).with(operator()))
			.andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
		assertThat(confirm).contains("Resnapshot table shop.orders of pipeline main?")
			.contains("name=\"confirm\" value=\"true\"");
		assertThat(CSRF_FIELD.matcher(confirm).find()).isTrue();
		MvcResult confirmed = this.mvc
			.perform(post(TABLE + "/actions/resnapshot").with(csrf()).with(operator()).param("confirm", "true"))
			.andExpect(status().isSeeOther()).andReturn();
		assertThat(confirmed.getFlashMap().get(AdminActionController.NOTICE)).asString()
			.contains("Cannot resnapshot shop.orders: the pipeline is STOPPED");
	}

	@Test
	void anUnknownTableIsNotFound() throws Exception {
		this.mvc.perform(get("/tributary/pipelines/main/tables/shop.nothing").with(reader()))
			.andExpect(status().isNotFound());
		assertThat(this.mvc.perform(post("/tributary/pipelines/main/tables/shop.nothing/actions/pause").with(csrf())
			.with(operator())).andExpect(status().isNotFound()).andReturn().getResponse().getContentAsString())
			.contains("Table shop.nothing is not replicated by pipeline main");
	}

	private String page(String path, RequestPostProcessor user) throws Exception {
		return this.mvc.perform(get(path).with(user)).andExpect(status().isOk()).andReturn().getResponse()
			.getContentAsString();
	}

	private static RequestPostProcessor reader() {
		return user("reader").roles("CDC_READ");
	}

	private static RequestPostProcessor operator() {
		return user("operator").roles("CDC_ADMIN");
	}

	/**
	 * Every auto-configuration but the pipelines' own, over one pipeline that is never started, and a
	 * filter chain that leaves the decisions to the pages.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration(exclude = TributaryAutoConfiguration.class,
			excludeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
	@EnableConfigurationProperties(TributaryProperties.class)
	static class SecuredConsole {

		@Bean
		SecurityFilterChain permitAllWithBasicAuthentication(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
				.httpBasic(Customizer.withDefaults())
				.build();
		}

		@Bean
		TributaryPipelines tributaryPipelines() {
			TableId orders = new TableId("shop", "orders");
			PipelineSettings main = PipelineSettings
				.builder(new SourceSettings("127.0.0.1", 1, "u", "p", 7, null, null),
						List.of(new TableMapping(orders, new TableId("replica", "orders"))), new TableId("replica", "cp"))
				.name("main")
				.build();
			return new TributaryPipelines(List.of(new Pipeline(main, new HikariDataSource(), new HikariDataSource())));
		}

	}

}
