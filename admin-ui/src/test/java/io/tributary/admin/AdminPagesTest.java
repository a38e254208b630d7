package io.tributary.admin;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.util.HtmlUtils;

import io.tributary.autoconfigure.security.CdcAccess.Decision;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

import static io.tributary.admin.FakeConsoleApplication.ACCESS;
import static io.tributary.admin.FakeConsoleApplication.ACTIONS;
import static io.tributary.admin.FakeConsoleApplication.CLOCK;
import static io.tributary.admin.FakeConsoleApplication.DETAILS;
import static io.tributary.admin.FakeConsoleApplication.STATUSES;
import static io.tributary.admin.Statuses.NOW;
import static io.tributary.admin.Statuses.detail;
import static io.tributary.admin.Statuses.everyCounter;
import static io.tributary.admin.Statuses.pipeline;
import static io.tributary.admin.Statuses.streaming;
import static io.tributary.admin.Statuses.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The overview page, a table's page, the fragments they poll, the history and the assets, in a web
 * application whose pipelines' statuses are built by hand: a streaming table, a snapshotting one,
 * and a second, failed pipeline. Who may read is decided by a hand-made {@code CdcAccess}.
 */
@SpringBootTest(classes = FakeConsoleApplication.class, properties = "cdc.admin.path=/ops")
class AdminPagesTest {

	@Autowired
	private WebApplicationContext context;

	@Autowired
	private StatusHistory history;

	private MockMvc mvc;

	@BeforeEach
	void sampleTwice() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		FakeConsoleApplication.reset();
		STATUSES.set(statuses(1_000_000, 1_000, 30));
		this.history.sample();
		CLOCK.step();
		STATUSES.set(statuses(1_001_000, 1_234_567, 33));
		this.history.sample();
		DETAILS.put("main:shop.orders", detail(everyCounter("shop.orders", 1_234_567, 33)));
	}

	@Test
	void theOverviewShowsEveryPipelineAndTableWithUnitsAndSeparators() throws Exception {
		String page = this.mvc.perform(get("/ops")).andExpect(status().isOk()).andReturn().getResponse()
			.getContentAsString();
		assertThat(page).contains("Pipeline <span>main</span>").contains("Pipeline <span>archive</span>")
			.contains("db:3306").contains("MYSQL 8.0.31").contains("GTID ON").contains("server id 4242")
			.contains("mysql-bin.000003:1200").contains("mysql-bin.000003:900").contains("mysql-bin.000003:1500");
		assertThat(page).contains(">1.5 s<").contains(">8.0 KiB<").contains(">500/s<").contains(">1,001,000<");
		assertThat(page).contains("class=\"badge state-running\">RUNNING<")
			.contains("class=\"badge state-failed\">FAILED<").contains("Binlog purged: start the pipeline again");
		assertThat(page).contains("shop.orders").contains("replica.orders")
			.contains("class=\"badge phase-streaming\">STREAMING<")
			.contains("class=\"badge phase-snapshotting\">SNAPSHOTTING<");
		assertThat(page).contains(">1,234,567<").contains(">616,784/s<").contains("12,345 keys").contains(">1.2 MiB<")
			.contains("of 64.0 MiB").contains("style=\"width: 2%\"");
		assertThat(page).contains("17</span> dropped above watermark").contains("2</span> parks")
			.contains("1.5 s</span> parked").contains("1,234 rows in 56 ms").containsPattern(">[0-9.]+ s ago<");
		assertThat(page).contains("400,000 of ~1,000,000 rows").contains("style=\"width: 40%\"")
			.contains(">12,346/s<").contains(">49 s<").contains("Rows/s").contains("ETA");
		assertThat(page).contains("DONE: 12 chunks, equal");
		assertThat(page).as("the pipeline's buffers against its budget").contains("class=\"buffered\">3.0 MiB<")
			.contains("of 1.0 GiB budget, 12 parks");
	}

	@Test
	void aStandbyShowsItsStateAndWhoLeadsRatherThanADisconnectedSource() throws Exception {
		PipelineStatus main = pipeline("main", 0, 0, null, table("shop.orders", Phase.STARTING, 0, 0, 0, 0, null,
				TableStatus.Checksum.IDLE));
		PipelineStatus.Source idle = new PipelineStatus.Source("db", 3306, 4242, null, null, null, false, null, 0, 0,
				null);
		STATUSES.set(List.of(new PipelineStatus("main", PipelineStatus.State.STANDBY, idle, main.position(), 0, null,
				main.tables(), main.startedAt(), null, false, main.counters(),
				new PipelineStatus.Leadership("host-b/12/ab", false, 3, "host-a/34/cd"))));
		String fragment = this.mvc.perform(get("/ops/fragments/overview")).andExpect(status().isOk()).andReturn()
			.getResponse().getContentAsString();
		assertThat(fragment).contains("class=\"badge state-standby\">STANDBY<")
			.contains("class=\"badge state-standby\">not reading<").doesNotContain(">disconnected<")
			.contains("Standby").contains("· host-a/34/cd leads").contains("· epoch 3")
			.contains("· this instance host-b/12/ab");
	}

	@Test
	void thePagePollsTheFragmentAndLinksItsAssets() throws Exception {
		String page = this.mvc.perform(get("/ops/")).andExpect(status().isOk()).andReturn().getResponse()
			.getContentAsString();
		assertThat(page).contains("hx-get=\"/ops/fragments/overview\"").contains("hx-trigger=\"every 2s\"")
			.contains("hx-swap=\"outerHTML\"").contains("data-history=\"/ops/history.json\"")
			.contains("src=\"/webjars/htmx.org/dist/htmx.min.js\"")
			.contains("src=\"/webjars/uplot/dist/uPlot.iife.min.js\"")
			.contains("href=\"/webjars/uplot/dist/uPlot.min.css\"").contains("href=\"/tributary-assets/console.css\"")
			.contains("src=\"/tributary-assets/console.js\"")
			.doesNotContain("<style").doesNotContain("http-equiv=\"refresh\"");
	}

	@Test
	void theFragmentIsTheOverviewAlone() throws Exception {
		String fragment = this.mvc.perform(get("/ops/fragments/overview")).andExpect(status().isOk()).andReturn()
			.getResponse().getContentAsString();
		assertThat(fragment.strip()).startsWith("<div id=\"overview\"").endsWith("</div>");
		assertThat(fragment).contains("hx-get=\"/ops/fragments/overview\"").contains("hx-trigger=\"every 2s\"")
			.contains("shop.orders").contains("SNAPSHOTTING").contains(">1,234,567<")
			.doesNotContain("<html").doesNotContain("<script").doesNotContain("id=\"charts\"");
	}

	@Test
	void theHistoryHoldsTheSamplesTakenBeforeThePageWasOpened() throws Exception {
		this.mvc.perform(get("/ops/history.json"))
			.andExpect(status().isOk())
			.andExpect(content().contentTypeCompatibleWith("application/json"))
			.andExpect(jsonPath("$.intervalMillis").value(3_600_000))
			.andExpect(jsonPath("$.pipelines[0].name").value("main"))
			.andExpect(jsonPath("$.pipelines[0].eventsPerSecond[-1]").value(500.0))
			.andExpect(jsonPath("$.pipelines[0].lagMillis[-1]").value(1_500))
			.andExpect(jsonPath("$.pipelines[0].tables[0].name").value("shop.orders"))
			.andExpect(jsonPath("$.pipelines[0].tables[0].changesAppliedPerSecond[-1]").value(616_783.5))
			.andExpect(jsonPath("$.pipelines[0].tables[0].bufferedBytes[-1]").value(1_234_567))
			.andExpect(jsonPath("$.pipelines[1].name").value("archive"));
	}

	@Test
	void theWebJarsAndTheConsoleAssetsAreServed() throws Exception {
		this.mvc.perform(get("/webjars/htmx.org/dist/htmx.min.js")).andExpect(status().isOk())
			.andExpect(content().string(org.hamcrest.Matchers.containsString("htmx")));
		this.mvc.perform(get("/webjars/uplot/dist/uPlot.iife.min.js")).andExpect(status().isOk())
			.andExpect(content().string(org.hamcrest.Matchers.containsString("uPlot")));
		this.mvc.perform(get("/webjars/uplot/dist/uPlot.min.css")).andExpect(status().isOk());
		this.mvc.perform(get("/tributary-assets/console.css")).andExpect(status().isOk())
			.andExpect(content().string(org.hamcrest.Matchers.containsString(".badge")));
		this.mvc.perform(get("/tributary-assets/console.js")).andExpect(status().isOk())
			.andExpect(content().string(org.hamcrest.Matchers.containsString("history")));
	}

	@Test
	void eachTableOnTheOverviewLinksToItsPage() throws Exception {
		String page = this.mvc.perform(get("/ops")).andExpect(status().isOk()).andReturn().getResponse()
			.getContentAsString();
		assertThat(page).contains("href=\"/ops/pipelines/main/tables/shop.orders\"")
			.contains("href=\"/ops/pipelines/main/tables/shop.items\"")
			.contains("href=\"/ops/pipelines/archive/tables/logs.audit\"");
	}

	@Test
	void aTableWhoseNameNeedsQuotingAndEncodingHasAPageAndItsParts() throws Exception {
		String name = "`odd.schema`.`special\"[``]$'/ 100% \u4e2d\u6587:x`";
		STATUSES.set(List.of(pipeline("main", 1, 1, 1L, streaming(name, 1, 1))));
		DETAILS.put("main:" + name, detail(streaming(name, 1, 1)));
		String overview = this.mvc.perform(get("/ops")).andExpect(status().isOk()).andReturn().getResponse()
			.getContentAsString();
		String href = HtmlUtils.htmlUnescape(
				overview.replaceFirst("(?s).*href=\"(/ops/pipelines/main/tables/[^\"]+)\".*", "$1"));
		assertThat(href).as("the link, its name one encoded path segment")
			.isEqualTo("/ops/pipelines/main/tables/%60odd.schema%60.%60special%22%5B%60%60%5D$'%2F%20100%25%20"
					+ "%E4%B8%AD%E6%96%87:x%60");
		String page = HtmlUtils.htmlUnescape(this.mvc.perform(get(URI.create(href))).andExpect(status().isOk())
			.andReturn().getResponse().getContentAsString());
		assertThat(page).contains("hx-get=\"" + href + "/fragment\"")
			.contains("data-table-history=\"" + href + "/history.json\"");
		this.mvc.perform(get(URI.create(href + "/fragment"))).andExpect(status().isOk());
		this.mvc.perform(get(URI.create(href + "/history.json"))).andExpect(status().isOk());
	}

	@Test
	void tablesTakenByAPatternAreGroupedUnderItsRuleAfterThoseListedOnTheirOwn() throws Exception {
		TableStatus taken = streaming("shop.orders_07", 1, 1).toBuilder().rule("cdc.tables[2]").build();
		STATUSES.set(List.of(pipeline("main", 1, 1, 1L, taken, streaming("shop.items", 1, 1))));
		String overview = this.mvc.perform(get("/ops")).andExpect(status().isOk()).andReturn().getResponse()
			.getContentAsString();
		assertThat(overview).containsPattern("<tr class=\"rule-group\">\\s*<th scope=\"rowgroup\" colspan=\"9\" "
				+ "class=\"text\"><span>cdc.tables\\[2\\]</span>\\s*<span class=\"muted small\">1 table: 1 streaming</span>");
		assertThat(overview.split("rule-group", -1)).as("one group heading, for the one rule").hasSize(2);
		assertThat(overview.indexOf("shop.items")).as("tables listed on their own come first")
			.isLessThan(overview.indexOf("cdc.tables[2]"));
	}

	@Test
	void theTablePageShowsEveryCounterOfTheTable() throws Exception {
		String page = tablePage();
		assertThat(page).contains("<h1><span class=\"muted\">Table</span> <span class=\"table-title\">shop.orders</span></h1>")
			.contains("→ replica.orders").contains("class=\"badge phase phase-streaming\">STREAMING<")
			.contains("Upserting 12 rows into replica.orders failed: Data too long for column &#39;v&#39;");
		// Snapshot
		assertThat(page).contains(">400,001<").contains(">1,000,002<").contains(">403<").contains(">12,346/s<")
			.contains(">49 s<");
		// Buffer and pressure
		assertThat(page).contains(">12,345<").contains(">1.2 MiB<").contains("64.0 MiB (2% used)").contains(">9,876,543<")
			.contains(">17<").contains(">4<").contains(">2<").contains(">1.5 s<");
		// Apply, with the rate from the history
		assertThat(page).contains(">1,234,567<").contains(">616,784/s<").contains(">3 of 8<").contains(">33<")
			.contains(">44<").contains(">3,456<").contains(">7<").contains(">1,111,111<").contains(">2,222<");
		// Flushes
		assertThat(page).contains(">55 · 123,456 rows · 3.0 s<").contains(">2 · 789 rows · 250 ms<")
			.contains(">1,234 in 56 ms<").contains("changes pending");
		// Events read, checksum, last action, confirmed position
		assertThat(page).contains(">101<").contains(">202<").contains(">303<")
			.contains(">DONE<").contains(">40,000<").contains(">5<").contains(">2026-03-01 11:59:00 UTC<")
			.contains("class=\"last-action\">pause<").contains("paused at mysql-bin.000003:800 (by alice)")
			.contains("class=\"confirmed\">mysql-bin.000003:900<");
	}

	@Test
	void theTablePageOfAKafkaTableShowsItsTopicRecordsErrorsAndOffsets() throws Exception {
		DETAILS.put("main:shop.orders", detail(Statuses.publishedToKafka("shop.orders")));
		String page = tablePage();
		assertThat(page).contains("<h3 id=\"card-sink\">Kafka</h3>").contains("class=\"sink-destination\">shop.orders<")
			.contains("class=\"sink-sent\">1,234,567<").contains("class=\"sink-errors error\">3<")
			.containsSubsequence("Last offset, partition 0", ">410,001<", "Last offset, partition 1", ">409,876<");
		DETAILS.put("main:shop.orders", detail(everyCounter("shop.orders", 1_234_567, 33)));
		assertThat(tablePage()).doesNotContain("card-sink");
	}

	@Test
	void theTablePageShowsItsLayoutCheckpointAndTimelineNewestFirst() throws Exception {
		String page = tablePage();
		assertThat(page).contains("<th scope=\"row\" class=\"text column-name\"><code>id</code></th>")
			.contains("<code>int(10) unsigned</code>").contains("<code>varchar(190)</code>")
			.contains("class=\"key-columns\">id<").contains("class=\"partition-indexes\">uk_email(email)<");
		assertThat(page).contains("class=\"checkpoint-position\">mysql-bin.000003:700<")
			.containsPattern("datetime=\"2026-03-01T11:59:55Z\"[^>]*>[0-9.]+ s ago<");
		assertThat(page).containsSubsequence("Flush failed: Data too long", "pause: paused at mysql-bin.000003:800",
				"SNAPSHOTTING -&gt; STREAMING");
		assertThat(page).contains("class=\"badge kind-flush_failed\">FLUSH FAILED<")
			.contains("class=\"badge kind-action\">ACTION<").contains("class=\"badge kind-phase\">PHASE<")
			.contains("class=\"text event-by\">alice<").contains("datetime=\"2026-03-01T11:58:30Z\"")
			.contains(">2026-03-01 11:58:30 UTC<").containsPattern(">[0-9]+ m [0-9]+ s ago<");
	}

	@Test
	void theTablePagePollsItsFragmentAndChartsItsHistory() throws Exception {
		String page = tablePage();
		assertThat(page).contains("hx-get=\"/ops/pipelines/main/tables/shop.orders/fragment\"")
			.contains("hx-trigger=\"every 2s\"")
			.contains("data-table-history=\"/ops/pipelines/main/tables/shop.orders/history.json\"")
			.contains("data-chart=\"applied\"").contains("data-chart=\"buffered\"")
			.contains("data-chart=\"concurrency\"").contains("data-chart=\"contention\"")
			.contains("src=\"/tributary-assets/console.js\"").contains("<html lang=\"en\"")
			.doesNotContain("hx-swap-oob");
		String fragment = this.mvc.perform(get("/ops/pipelines/main/tables/shop.orders/fragment"))
			.andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
		assertThat(fragment.strip()).startsWith("<div id=\"table-live\"");
		assertThat(fragment).contains("hx-get=\"/ops/pipelines/main/tables/shop.orders/fragment\"")
			.contains(">1,234,567<").contains(">3 of 8<")
			.contains("<div id=\"table-records\" hx-swap-oob=\"true\">").contains("FLUSH FAILED").contains("uk_email")
			.doesNotContain("<html").doesNotContain("<form").doesNotContain("id=\"table-charts\"");
		this.mvc.perform(get("/ops/pipelines/main/tables/shop.orders/history.json"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.pipeline").value("main"))
			.andExpect(jsonPath("$.table").value("shop.orders"))
			.andExpect(jsonPath("$.times[-1]").value(CLOCK.millis()))
			.andExpect(jsonPath("$.changesAppliedPerSecond[-1]").value(616_783.5))
			.andExpect(jsonPath("$.bufferedBytes[-1]").value(1_234_567))
			.andExpect(jsonPath("$.applyConcurrency[-1]").value(3))
			.andExpect(jsonPath("$.contentionEventsPerSecond[-1]").value(1.5));
	}

	@Test
	void aTableNoPipelineReplicatesIsNotFound() throws Exception {
		String page = this.mvc.perform(get("/ops/pipelines/main/tables/shop.nothing"))
			.andExpect(status().isNotFound()).andReturn().getResponse().getContentAsString();
		assertThat(page).contains("Pipeline main does not replicate table shop.nothing").contains("href=\"/ops\"");
		this.mvc.perform(get("/ops/pipelines/other/tables/shop.orders/fragment")).andExpect(status().isNotFound());
	}

	@Test
	void everyPageNeedsAUserWhoMayRead() throws Exception {
		ACCESS.set((operation) -> Decision.unauthenticated("Reading needs a signed-in user with role CDC_READ"));
		for (String path : List.of("/ops", "/ops/fragments/overview", "/ops/history.json",
				"/ops/pipelines/main/tables/shop.orders", "/ops/pipelines/main/tables/shop.orders/fragment",
				"/ops/pipelines/main/tables/shop.orders/history.json")) {
			String page = this.mvc.perform(get(path)).andExpect(status().isUnauthorized()).andReturn().getResponse()
				.getContentAsString();
			assertThat(page).as(path).contains("Reading needs a signed-in user with role CDC_READ")
				.doesNotContain("shop.orders").doesNotContain("1,234,567");
		}
		ACCESS.set((operation) -> Decision.forbidden("viewer", "user 'viewer' lacks role CDC_READ"));
		assertThat(this.mvc.perform(get("/ops/pipelines/main/tables/shop.orders")).andExpect(status().isForbidden())
			.andReturn().getResponse().getContentAsString()).contains("user &#39;viewer&#39; lacks role CDC_READ");
		this.mvc.perform(get("/ops")).andExpect(status().isForbidden());
	}

	@Test
	void theButtonsShowOnlyForAUserWhoMayAct() throws Exception {
		String overview = this.mvc.perform(get("/ops")).andReturn().getResponse().getContentAsString();
		assertThat(overview).contains("Actions on every table")
			.contains("<form method=\"post\" action=\"/ops/actions/pause\">")
			.contains("<form method=\"post\" action=\"/ops/actions/resnapshot\">")
			.contains("aria-describedby=\"action-pause-help\">Pause all</button>")
			.contains("id=\"action-pause-help\"").contains(">Resnapshot all…</button>")
			.doesNotContain("_csrf");
		String table = tablePage();
		for (String action : ConsoleActions.NAMES) {
			assertThat(table).contains("<form method=\"post\" action=\"/ops/pipelines/main/tables/shop.orders/actions/"
					+ action + "\">");
		}
		assertThat(table).contains(">Pause</button>").contains(">Resume</button>").contains(">Flush</button>")
			.contains("class=\"button button-caution\"").contains(">Resnapshot…</button>").contains(">Restart</button>")
			.contains(">Checksum</button>");

		ACTIONS.available = false;
		assertThat(this.mvc.perform(get("/ops")).andReturn().getResponse().getContentAsString())
			.doesNotContain("<form").doesNotContain("<button").doesNotContain("Actions on every table");
		assertThat(tablePage()).doesNotContain("<form").doesNotContain("<button").contains("shop.orders");
	}

	private String tablePage() throws Exception {
		return this.mvc.perform(get("/ops/pipelines/main/tables/shop.orders")).andExpect(status().isOk()).andReturn()
			.getResponse().getContentAsString();
	}

	private static List<PipelineStatus> statuses(long eventsRead, long ordersApplied, long ordersContention) {
		TableStatus.Checksum done = new TableStatus.Checksum(TableStatus.Checksum.State.DONE, 12, 1, 0, 0, 40_000,
				NOW.minusSeconds(60), NOW.minusSeconds(50), null);
		TableStatus orders = everyCounter("shop.orders", ordersApplied, ordersContention);
		orders = orders.toBuilder()
			.copy(new TableStatus.Copy(0, 0, 0, 0, null, true))
			.lastError(null)
			.checksum(done)
			.build();
		TableStatus items = table("shop.items", Phase.SNAPSHOTTING, 0, 0, 400_000, 1_000_000, 49L,
				TableStatus.Checksum.IDLE);
		PipelineStatus main = pipeline("main", eventsRead, 1_500, 8_192L, orders, items);
		PipelineStatus archive = pipeline("archive", 0, 0, null, streaming("logs.audit", 0, 0));
		archive = new PipelineStatus(archive.name(), PipelineStatus.State.FAILED, archive.source(), archive.position(),
				0, null, archive.tables(), archive.startedAt(), "Binlog purged: start the pipeline again", false,
				archive.counters());
		return List.of(main, archive);
	}

}
