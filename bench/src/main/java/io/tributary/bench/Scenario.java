package io.tributary.bench;

/**
 * One scenario of a benchmark run: it measures Tributary and its references on one server and
 * records the figures in the context. A new scenario implements this and is listed in
 * {@link BenchRun#scenarios()} and {@link BenchSettings#ALL_SCENARIOS}.
 */
public interface Scenario {

	/** The name used in {@code bench.scenarios} and in the results. */
	String name();

	/**
	 * Returns whether the scenario runs on a server.
	 * @param server {@code mariadb} or {@code mysql}
	 */
	boolean runsOn(String server);

	/**
	 * Measures, and records every figure in the context; a figure it cannot measure ends the
	 * scenario with an exception, which the run records as a failure.
	 */
	void run(ScenarioContext context) throws Exception;

}
