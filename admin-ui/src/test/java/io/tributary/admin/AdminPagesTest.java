package io.tributary.admin;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

import static io.tributary.admin.Statuses.NOW;
import static io.tributary.admin.Statuses.pipeline;
import static io.tributary.admin.Statuses.streaming;
import static io.tributary.admin.Statuses.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The overview page, its polled fragment, the history and the assets, in a web application whose
 * pipelines' statuses are built by hand: a streaming table, a snapshotting one, and a second,
 * failed pipeline.
 */
@SpringBootTest(classes = AdminPagesTest.Application.class, properties = "cdc.admin.path=/ops")
class AdminPagesTest {

	static final AtomicReference<List<PipelineStatus>> CURRENT = new AtomicReference<>(List.of());

	static final SteppingClock CLOCK = new SteppingClock(NOW);

	@Autowired
	private WebApplicationContext context;

	@Autowired
	private StatusHistory history;

	private MockMvc mvc;

	@BeforeEach
	void sampleTwice() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		CURRENT.set(statuses(1_000_000, 1_000));
		this.history.sample();
		CLOCK.step();
		CURRENT.set(statuses(1_001_000, 1_234_567));
		this.history.sample();
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
		assertThat(page).contains("DONE: 12 chunks, 1 differing, 0 after re-check, 0 repaired");
	}

	@Test
	void aStandbyShowsItsStateAndWhoLeadsRatherThanADisconnectedSource() throws Exception {
		PipelineStatus main = pipeline("main", 0, 0, null, table("shop.orders", Phase.STARTING, 0, 0, 0, 0, null,
				TableStatus.Checksum.IDLE));
		PipelineStatus.Source idle = new PipelineStatus.Source("db", 3306, 4242, null, null, null, false, null, 0, 0,
				null);
		CURRENT.set(List.of(new PipelineStatus("main", PipelineStatus.State.STANDBY, idle, main.position(), 0, null,
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

	private static List<PipelineStatus> statuses(long eventsRead, long ordersApplied) {
		TableStatus.Checksum done = new TableStatus.Checksum(TableStatus.Checksum.State.DONE, 12, 1, 0, 0, 40_000,
				NOW.minusSeconds(60), NOW.minusSeconds(50), null);
		TableStatus orders = table("shop.orders", Phase.STREAMING, ordersApplied, 1_234_567, 0, 0, null, done);
		TableStatus items = table("shop.items", Phase.SNAPSHOTTING, 0, 0, 400_000, 1_000_000, 49L,
				TableStatus.Checksum.IDLE);
		PipelineStatus main = pipeline("main", eventsRead, 1_500, 8_192L, orders, items);
		PipelineStatus archive = pipeline("archive", 0, 0, null, streaming("logs.audit", 0, 0));
		archive = new PipelineStatus(archive.name(), PipelineStatus.State.FAILED, archive.source(), archive.position(),
				0, null, archive.tables(), archive.startedAt(), "Binlog purged: start the pipeline again", false,
				archive.counters());
		return List.of(main, archive);
	}

	/** The admin beans over hand-built statuses; the pipelines and their database are left out. */
	@SpringBootConfiguration
	@EnableAutoConfiguration(exclude = { TributaryAutoConfiguration.class, TributaryAdminAutoConfiguration.class },
			excludeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
	@Import(TributaryAdminAutoConfiguration.AdminAssets.class)
	static class Application {

		@Bean
		StatusHistory statusHistory() {
			// Sampled by the tests alone: the scheduler's next tick is an hour away.
			return new StatusHistory(CURRENT::get, CLOCK, Duration.ofHours(1), 10);
		}

		@Bean
		AdminController adminController(StatusHistory history) {
			return new AdminController(CURRENT::get, history, "/ops/", CLOCK);
		}

	}

}
