package io.tributary.admin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.util.HtmlUtils;

import io.tributary.autoconfigure.TableTrouble;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

import static io.tributary.admin.FakeConsoleApplication.CLOCK;
import static io.tributary.admin.FakeConsoleApplication.STATUSES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The overview of a pipeline of 1,000 tables: it counts them by phase and by rule, lists 50 per
 * page with those that need attention first, filters them on the server, and its page and the
 * fragment it polls stay small.
 */
// A context of its own: the history keeps every table it saw, and the other tests expect theirs alone.
@SpringBootTest(classes = FakeConsoleApplication.class, properties = { "cdc.admin.path=/ops",
		"spring.application.name=overview-at-scale" })
class OverviewAtScaleTest {

	private static final Pattern ROW = Pattern.compile("<tr[^>]* data-table=\"([^\"]+)\"");

	private static final PipelineStatus MAIN = Statuses.many("main", 1_000);

	@Autowired
	private WebApplicationContext context;

	@Autowired
	private StatusHistory history;

	private MockMvc mvc;

	@BeforeEach
	void thousandTables() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		FakeConsoleApplication.reset();
		STATUSES.set(List.of(MAIN));
		this.history.sample();
		CLOCK.step();
		this.history.sample();
	}

	/** A context started after this one samples the statuses at once: leave it none of these. */
	@AfterEach
	void noTables() {
		STATUSES.set(List.of());
	}

	@Test
	void thePageAndItsFragmentStaySmall() throws Exception {
		assertThat(page("/ops").length()).as("characters of the overview of 1,000 tables").isLessThan(150_000);
		assertThat(page("/ops/fragments/overview").length()).as("characters of the fragment it polls")
			.isLessThan(120_000);
		assertThat(page("/ops/history.json").length()).as("characters of the history its charts draw")
			.isLessThan(20_000);
		this.mvc.perform(get("/ops/history.json"))
			.andExpect(jsonPath("$.pipelines[0].tables.length()").value(2 * StatusHistory.OVERVIEW_TABLES))
			.andExpect(jsonPath("$.pipelines[0].tablesLeftOut").value(1_000 - 2 * StatusHistory.OVERVIEW_TABLES));
	}

	@Test
	void theTablesAreCountedByPhaseAndByRule() throws Exception {
		String page = page("/ops");
		Map<String, Long> byPhase = MAIN.tables().stream()
			.collect(Collectors.groupingBy((table) -> table.phase().name().toLowerCase(Locale.ROOT), Collectors.counting()));
		assertThat(byPhase).containsOnlyKeys("streaming", "failed", "paused", "catching_up", "snapshotting");
		for (Map.Entry<String, Long> phase : byPhase.entrySet()) {
			assertThat(page).containsPattern("href=\"/ops\\?q=phase:" + phase.getKey() + "\">"
					+ String.format(Locale.ROOT, "%,d", phase.getValue()) + " " + phase.getKey().replace('_', ' ') + "</a>");
		}
		assertThat(page).contains(">1,000 tables<").contains(">" + trouble().size() + " need attention<");
		String byRule = page.substring(page.indexOf("<table class=\"by-rule\""), page.indexOf("</table>",
				page.indexOf("<table class=\"by-rule\"")));
		assertThat(byRule).contains(">listed on their own</a>").contains("href=\"/ops?q=rule:cdc.tables%5B1%5D\"");
		for (String rule : List.of("cdc.tables[1]", "cdc.tables[2]", "cdc.tables[3]")) {
			List<TableStatus> taken = MAIN.tables().stream().filter((table) -> rule.equals(table.rule())).toList();
			long inTrouble = taken.stream().filter((table) -> TableTrouble.of(table) != null).count();
			assertThat(byRule).containsPattern(">" + Pattern.quote(rule) + "</a></th>\\s*<td>" + taken.size()
					+ "</td>\\s*<td class=\"[a-z-]+\">" + inTrouble + "</td>");
		}
	}

	@Test
	void fiftyTablesAPageThoseThatNeedAttentionFirstTheMostPressingFirst() throws Exception {
		List<TableStatus> trouble = trouble();
		assertThat(trouble.size()).as("tables in trouble, more than a page holds").isBetween(51, 99);
		List<String> all = new ArrayList<>();
		for (int number = 1; number <= 20; number++) {
			List<String> rows = rows(page("/ops?page=" + number));
			assertThat(rows).as("page %d", number).hasSize(PipelineOverview.PAGE_SIZE);
			all.addAll(rows);
		}
		assertThat(all).as("every table once over the 20 pages").doesNotHaveDuplicates().hasSize(1_000);
		assertThat(all.subList(0, trouble.size())).as("those that need attention first, the most pressing first")
			.containsExactlyElementsOf(trouble.stream()
				.sorted(Comparator.comparing(TableTrouble::of))
				.map(TableStatus::name)
				.toList());
		assertThat(all.get(0)).isEqualTo("shop.t_0041");
		assertThat(all.subList(trouble.size(), 1_000)).as("then the others in their groups, in status order")
			.startsWith("shop.t_0000", "shop.t_0010", "shop.t_0020");
		assertThat(page("/ops")).contains(trouble.size() + " tables need attention, the most pressing first")
			.contains("Tables 1–50 of 1,000, those that need attention first");
		assertThat(page("/ops?page=2")).as("the heading again on the next page")
			.contains(trouble.size() + " tables need attention").contains("Listed on their own");
		assertThat(rows(page("/ops?page=21"))).as("past the end reads as the last page").isEqualTo(all.subList(950, 1_000));
		String third = page("/ops?page=3");
		assertThat(third).contains("Tables 101–150 of 1,000").contains("aria-current=\"page\">3<")
			.contains("href=\"/ops?pipeline=main&amp;page=2\"").contains("href=\"/ops?pipeline=main&amp;page=20\"");
		assertThat(page("/ops?page=5")).as("a rule's heading again on a page that starts inside its group")
			.containsPattern("<tbody>\\s*<tr class=\"rule-group\">\\s*<th scope=\"rowgroup\" colspan=\"9\" class=\"text\">"
					+ "<span>cdc.tables\\[2\\]</span>");
	}

	@Test
	void theFilterKeepsMatchingTablesAndThePollKeepsTheFilterAndThePage() throws Exception {
		assertThat(rows(page("/ops?q=t_0123"))).containsExactly("shop.t_0123");
		List<String> paused = MAIN.tables().stream().filter((table) -> table.phase() == TableStatus.Phase.PAUSED)
			.map(TableStatus::name)
			.toList();
		assertThat(rows(page("/ops?q=phase:paused"))).containsExactlyElementsOf(paused);
		assertThat(rows(page("/ops?q=paused"))).containsExactlyElementsOf(paused);
		assertThat(rows(page("/ops?q=is:trouble"))).hasSize(PipelineOverview.PAGE_SIZE);
		assertThat(rows(page("/ops?q=is:trouble&page=2"))).hasSize(trouble().size() - PipelineOverview.PAGE_SIZE);
		assertThat(page("/ops?q=is:trouble")).contains("Tables 1–50 of " + trouble().size() + " matching “is:trouble”");
		List<String> ruleTwo = rows(page("/ops/fragments/overview?q=rule:cdc.tables[2]&page=2"));
		assertThat(ruleTwo).hasSize(50).allMatch((name) -> MAIN.tables().stream()
			.anyMatch((table) -> table.name().equals(name) && "cdc.tables[2]".equals(table.rule())));
		assertThat(page("/ops/fragments/overview?q=rule:cdc.tables[2]&page=2"))
			.contains("hx-get=\"/ops/fragments/overview?q=rule:cdc.tables%5B2%5D&amp;page=2\"");
		assertThat(page("/ops?q=nothing.like.this")).contains("No table matches “nothing.like.this”.")
			.doesNotContain("<tr data-table=");
		assertThat(page("/ops?q=phase:paused")).contains("value=\"phase:paused\"").contains(">Clear filter<");
	}

	private static List<TableStatus> trouble() {
		return MAIN.tables().stream().filter((table) -> TableTrouble.of(table) != null).toList();
	}

	private static List<String> rows(String page) {
		Matcher row = ROW.matcher(page);
		return row.results().map((match) -> HtmlUtils.htmlUnescape(match.group(1))).toList();
	}

	private String page(String path) throws Exception {
		return this.mvc.perform(get(path)).andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
	}

}
