package io.tributary.admin;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.servlet.FlashMap;

import io.tributary.autoconfigure.actions.RequestRefused;
import io.tributary.status.PipelineStatus;

import static io.tributary.admin.FakeConsoleApplication.ACTIONS;
import static io.tributary.admin.FakeConsoleApplication.DETAILS;
import static io.tributary.admin.FakeConsoleApplication.STATUSES;
import static io.tributary.admin.Statuses.detail;
import static io.tributary.admin.Statuses.pipeline;
import static io.tributary.admin.Statuses.streaming;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The actions' forms: each posts to the controller, reaches the action service and redirects back
 * to its page, which shows what was done or why the pipeline refused; a resnapshot asks to confirm
 * first; a user who may not act gets the refusal's status. The service is a fake that notes what it
 * was asked.
 */
@SpringBootTest(classes = FakeConsoleApplication.class, properties = "cdc.admin.path=/ops")
class AdminActionsTest {

	private static final String TABLE = "/ops/pipelines/main/tables/shop.orders";

	@Autowired
	private WebApplicationContext context;

	private MockMvc mvc;

	@BeforeEach
	void oneTable() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		FakeConsoleApplication.reset();
		PipelineStatus main = pipeline("main", 0, 0, 0L, streaming("shop.orders", 10, 0));
		STATUSES.set(List.of(main));
		DETAILS.put("main:shop.orders", detail(main.tables().get(0)));
	}

	@Test
	void eachActionOnATableReachesTheServiceAndRedirectsBackWithWhatItDid() throws Exception {
		for (String action : ConsoleActions.NAMES) {
			MvcResult result = this.mvc.perform(post(TABLE + "/actions/" + action).param("confirm", "true"))
				.andExpect(status().isSeeOther())
				.andExpect(redirectedUrl(TABLE))
				.andReturn();
			assertThat(ACTIONS.calls).last().isEqualTo(action + " main:shop.orders");
			assertThat(follow(result, TABLE)).containsPattern("class=\"notice notice-done\"\\s+role=\"status\"")
				.contains("<strong>Done.</strong>")
				.contains("Ran " + action + " on main:shop.orders.");
		}
		assertThat(ACTIONS.calls).hasSize(ConsoleActions.NAMES.size());
		assertThat(this.mvc.perform(post(TABLE + "/actions/pause")).andReturn().getResponse().getHeader("Location"))
			.isEqualTo(TABLE);
		assertThat(this.mvc.perform(get(TABLE)).andReturn().getResponse().getContentAsString())
			.as("the notice shows once, after the redirect").doesNotContain("notice-done");
	}

	@Test
	void eachActionOnEveryTableReachesTheServiceAndRedirectsToTheOverview() throws Exception {
		for (String action : ConsoleActions.NAMES) {
			MvcResult result = this.mvc.perform(post("/ops/actions/" + action).param("confirm", "true"))
				.andExpect(status().isSeeOther())
				.andExpect(redirectedUrl("/ops"))
				.andReturn();
			assertThat(ACTIONS.calls).last().isEqualTo(action + " *");
			assertThat(follow(result, "/ops")).contains("Ran " + action + " on every table.");
		}
	}

	@Test
	void aResnapshotAsksToConfirmBeforeItRuns() throws Exception {
		String page = this.mvc.perform(post(TABLE + "/actions/resnapshot")).andExpect(status().isOk()).andReturn()
			.getResponse().getContentAsString();
		assertThat(ACTIONS.calls).as("nothing runs before it is confirmed").isEmpty();
		assertThat(page).contains("Resnapshot table shop.orders of pipeline main?")
			.contains("<form method=\"post\" action=\"" + TABLE + "/actions/resnapshot\" class=\"confirm-form\">")
			.contains("<input type=\"hidden\" name=\"confirm\" value=\"true\">")
			.contains(">Yes, resnapshot table shop.orders of pipeline main</button>")
			.contains("<a class=\"cancel\" href=\"" + TABLE + "\">Cancel</a>");

		String all = this.mvc.perform(post("/ops/actions/resnapshot").param("confirm", "false"))
			.andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
		assertThat(ACTIONS.calls).isEmpty();
		assertThat(all).contains("Resnapshot every table of every pipeline?")
			.contains("action=\"/ops/actions/resnapshot\"").contains("href=\"/ops\"");

		this.mvc.perform(post(TABLE + "/actions/pause")).andExpect(status().isSeeOther());
		assertThat(ACTIONS.calls).as("other actions run at once").containsExactly("pause main:shop.orders");
	}

	@Test
	void theOverviewAddsATableAndShowsWhatWasDoneOrRefused() throws Exception {
		String overview = this.mvc.perform(get("/ops")).andExpect(status().isOk()).andReturn().getResponse()
			.getContentAsString();
		assertThat(overview).contains("action=\"/ops/tables\"").contains("name=\"source\"").contains("name=\"target\"");
		MvcResult added = this.mvc.perform(post("/ops/tables").param("source", "shop.returns")
			.param("target", "replica.returns")).andExpect(status().isSeeOther()).andExpect(redirectedUrl("/ops"))
			.andReturn();
		assertThat(ACTIONS.calls).containsExactly("add shop.returns -> replica.returns");
		assertThat(follow(added, "/ops")).contains("Added shop.returns.");
		ACTIONS.pipelineRefusal = new RequestRefused(RequestRefused.CONFLICT,
				"Cannot add shop.orders: it is replicated already");
		MvcResult refused = this.mvc.perform(post("/ops/tables").param("source", "shop.orders")
			.param("target", "replica.orders")).andExpect(status().isSeeOther()).andReturn();
		assertThat(follow(refused, "/ops")).contains("notice-refused").contains("it is replicated already");
	}

	@Test
	void whatThePipelineRefusesShowsAsANotice() throws Exception {
		ACTIONS.pipelineRefusal = new RequestRefused(RequestRefused.CONFLICT,
				"Cannot resume shop.orders: it is not paused");
		MvcResult result = this.mvc.perform(post(TABLE + "/actions/resume")).andExpect(status().isSeeOther())
			.andExpect(redirectedUrl(TABLE)).andReturn();
		assertThat(follow(result, TABLE)).containsPattern("class=\"notice notice-refused\"\\s+role=\"alert\"")
			.contains("<strong>Refused.</strong>").contains("Cannot resume shop.orders: it is not paused");

		MvcResult all = this.mvc.perform(post("/ops/actions/resume")).andExpect(status().isSeeOther()).andReturn();
		assertThat(follow(all, "/ops")).contains("notice-refused")
			.contains("Refused everywhere: Cannot resume shop.orders: it is not paused");
	}

	@Test
	void aUserWhoMayNotActGetsTheRefusalsStatusAndNothingRuns() throws Exception {
		ACTIONS.checkRefusal = new RequestRefused(RequestRefused.FORBIDDEN,
				"Actions are disabled: set cdc.admin.actions-enabled=true");
		for (String path : List.of(TABLE + "/actions/pause", TABLE + "/actions/resnapshot", "/ops/actions/pause",
				"/ops/actions/resnapshot")) {
			assertThat(this.mvc.perform(post(path)).andExpect(status().isForbidden()).andReturn().getResponse()
				.getContentAsString()).as(path).contains("Actions are disabled: set cdc.admin.actions-enabled=true")
				.doesNotContain("<form");
		}
		ACTIONS.checkRefusal = new RequestRefused(RequestRefused.UNAUTHORIZED, "Running actions needs a signed-in user");
		assertThat(this.mvc.perform(post(TABLE + "/actions/checksum")).andExpect(status().isUnauthorized())
			.andReturn().getResponse().getContentAsString()).contains("Running actions needs a signed-in user")
			.contains("Sign in first");
		assertThat(ACTIONS.calls).isEmpty();
	}

	@Test
	void anUnknownTableOrActionIsAnsweredWithItsStatus() throws Exception {
		ACTIONS.pipelineRefusal = new RequestRefused(RequestRefused.NOT_FOUND, "Table shop.nothing is not replicated");
		assertThat(this.mvc.perform(post("/ops/pipelines/main/tables/shop.nothing/actions/pause"))
			.andExpect(status().isNotFound()).andReturn().getResponse().getContentAsString())
			.contains("Table shop.nothing is not replicated");
		ACTIONS.pipelineRefusal = new RequestRefused(RequestRefused.BAD_REQUEST, "Unknown action 'explode'");
		this.mvc.perform(post(TABLE + "/actions/explode")).andExpect(status().isBadRequest());
	}

	/** Gets the page a redirect leads to, with the notice it left for it. */
	private String follow(MvcResult redirect, String path) throws Exception {
		FlashMap flash = redirect.getFlashMap();
		assertThat(flash.containsKey(AdminActionController.NOTICE)).as("a notice for the page redirected to").isTrue();
		return this.mvc.perform(get(path).flashAttrs(flash)).andExpect(status().isOk()).andReturn().getResponse()
			.getContentAsString();
	}

}
