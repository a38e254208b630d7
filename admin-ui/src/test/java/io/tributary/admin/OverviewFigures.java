package io.tributary.admin;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import static io.tributary.admin.FakeConsoleApplication.CLOCK;
import static io.tributary.admin.FakeConsoleApplication.STATUSES;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * Prints what the overview costs at 10, 100 and 1,000 synthetic tables: the bytes and the render
 * time (median of 15 after a warm-up) of the page, of the fragment it polls, and of the history its
 * charts fetch, filled to its 10 samples. A measurement, not a test: it asserts nothing, and its name keeps it out of the
 * build's test runs; run it with {@code -Dtest=OverviewFigures}.
 */
@SpringBootTest(classes = FakeConsoleApplication.class, properties = { "cdc.admin.path=/ops",
		"spring.application.name=overview-figures" })
class OverviewFigures {

	private static final int RUNS = 15;

	@Autowired
	private WebApplicationContext context;

	@Autowired
	private StatusHistory history;

	@Test
	void print() throws Exception {
		FakeConsoleApplication.reset();
		MockMvc mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		StringBuilder figures = new StringBuilder(String.format(Locale.ROOT, "%n%-7s %-26s %12s %10s%n", "tables",
				"request", "bytes", "median ms"));
		for (int tables : List.of(10, 100, 1_000)) {
			STATUSES.set(List.of(Statuses.many("main", tables)));
			// Fills the history (10 samples in this application; 450 by default).
			for (int sample = 0; sample < 10; sample++) {
				CLOCK.step();
				this.history.sample();
			}
			for (String path : List.of("/ops", "/ops/fragments/overview", "/ops/history.json")) {
				for (int i = 0; i < 5; i++) {
					body(mvc, path);
				}
				long[] nanos = new long[RUNS];
				int bytes = 0;
				for (int i = 0; i < RUNS; i++) {
					long start = System.nanoTime();
					bytes = body(mvc, path).length;
					nanos[i] = System.nanoTime() - start;
				}
				Arrays.sort(nanos);
				figures.append(String.format(Locale.ROOT, "%-7d %-26s %,12d %10.1f%n", tables, path, bytes,
						nanos[RUNS / 2] / 1e6));
			}
		}
		STATUSES.set(List.of());
		System.out.println(figures);
	}

	private static byte[] body(MockMvc mvc, String path) throws Exception {
		return mvc.perform(get(path)).andReturn().getResponse().getContentAsByteArray();
	}

}
