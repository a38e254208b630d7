package io.tributary.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

/**
 * Runs the benchmark command at tiny sizes on the server of this failsafe execution
 * ({@code tributary.test.db}: mariadb or mysql) and checks that every scenario that runs on it
 * produced its figures and its comparisons, and that the results files were written. It never
 * looks at a time: it keeps the benchmarks working, not fast. Results go to {@code target/}.
 * (A figure may be zero: the smoke memory run can hold no more heap than before it started.)
 */
class BenchSmokeIT {

	@Test
	void everyScenarioProducesItsFiguresAtTinySizes() throws Exception {
		String flavor = flavor();
		BenchRun.Outcome outcome = runSmoke("bench-smoke-" + flavor, new Properties());

		assertThat(outcome.rows()).filteredOn(ResultRow::isFailure).isEmpty();
		List<String> expected = BenchRun.scenarios().stream().filter((s) -> s.runsOn(flavor)).map(Scenario::name)
			.toList();
		assertThat(expected).isNotEmpty();
		for (String scenario : expected) {
			assertThat(outcome.rows()).as("figures of %s on %s", scenario, flavor)
				.filteredOn((row) -> row.scenario().equals(scenario) && row.server().equals(flavor))
				.anyMatch(ResultRow::isComparison)
				.allMatch((row) -> row.value() >= 0 && Double.isFinite(row.value()));
		}
		assertThat(outcome.markdown()).exists();
		assertThat(Path.of(outcome.markdown().toString().replaceFirst("\\.md$", ".csv"))).exists();
		assertThat(Files.readString(outcome.markdown())).contains("## Targets").contains("## What bounds each figure");
	}

	/**
	 * When its sizes differ from the ingestion scenario's, the apply scenario loads a table of its
	 * own and writes its own uniform backlog rather than reading the ingestion one.
	 */
	@Test
	void theApplyScenarioWritesItsOwnBacklogWhenItsSizesDiffer() throws Exception {
		Properties sizes = new Properties();
		sizes.setProperty("bench.scenarios", "apply");
		sizes.setProperty("bench.applyBacklog", "1000");
		BenchRun.Outcome outcome = runSmoke("bench-smoke-apply-" + flavor(), sizes);

		assertThat(outcome.rows()).filteredOn(ResultRow::isFailure).isEmpty();
		assertThat(outcome.rows()).filteredOn((row) -> row.scenario().equals("apply")).anyMatch(ResultRow::isComparison);
		assertThat(Files.readString(outcome.markdown())).contains("Loaded 2,000 rows")
			.contains("1,000 single-row transactions on 2,000 rows: written in")
			.doesNotContain("the ingestion scenario's backlog");
	}


	private static String flavor() {
		return System.getProperty("tributary.test.db", "mariadb");
	}

	/**
	 * Runs the command in smoke mode on this execution's server, with the given properties on top;
	 * aborts the test when a tool the run needs is missing.
	 */
	private static BenchRun.Outcome runSmoke(String out, Properties extra) throws Exception {
		Properties properties = new Properties();
		properties.setProperty("bench.mode", "smoke");
		properties.setProperty("bench.servers", flavor());
		properties.setProperty("bench.out", Path.of("target", out).toString());
		properties.putAll(extra);
		try {
			return BenchRun.run(BenchSettings.from(properties));
		}
		catch (Preflight.MissingToolException ex) {
			abort(ex.getMessage());
			throw ex;
		}
	}

}
