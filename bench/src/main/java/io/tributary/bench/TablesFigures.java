package io.tributary.bench;

import java.util.Map;

/**
 * What the tables scenario measured at one table count, and how it is recorded: every figure as
 * a measurement, the scrape with {@code cdc.metrics.tables=trouble} against the default's, and
 * the time to stream, the heap and the threads against the smallest count's.
 *
 * @param scenario the scenario's name
 * @param flavor the server
 * @param count tables in the pipeline
 * @param rows rows of each table
 * @param firstStart the first start, which copies every table
 * @param jvm the application's heap and threads once every table streamed
 * @param source the source account's connections then
 * @param target the target account's connections then
 * @param gets the timed requests, by path
 * @param writeSeconds how long the light write took to reach the targets
 * @param restart the start from the checkpoints, with {@code cdc.metrics.tables=trouble}
 * @param troubleScrape the Prometheus scrape of that start
 */
record TablesFigures(String scenario, String flavor, int count, int rows, StreamingWait firstStart, JvmFigures jvm,
		ServerConnections source, ServerConnections target, Map<String, TimedGets.Timing> gets, double writeSeconds,
		StreamingWait restart, TimedGets.Timing troubleScrape) {

	private static final double MB = 1024 * 1024;

	private static final String SCRAPE = "/actuator/prometheus";

	/**
	 * Records every figure.
	 * @param smallest the figures of the run's smallest count, or null when these are they
	 */
	void record(ScenarioContext context, TablesFigures smallest) {
		String shape = String.format("%,d tables of %,d rows", this.count, this.rows);
		measured(context, shape, "first start, application answering", this.firstStart.readySeconds(), "s",
				"from the JVM's start until /actuator/cdc first answered");
		ResultRow streaming = measured(context, shape, "first start, every table streaming",
				this.firstStart.streamingSeconds(), "s", String.format("from the JVM's start, copying %,d rows; "
						+ "%d polls of /actuator/cdc; the JVM had used %.1f CPU s by the end of the settle",
						(long) this.count * this.rows, this.firstStart.polls(), this.jvm.cpuSeconds()));
		measured(context, shape, "restart from checkpoints, every table streaming", this.restart.streamingSeconds(), "s",
				String.format("application answering after %.1f s; cdc.metrics.tables=trouble",
						this.restart.readySeconds()));
		ResultRow heap = measured(context, shape, "heap used after a full collection", this.jvm.heapUsedBytes() / MB,
				"MB", String.format("committed %.0f MB, -Xmx %.0f MB", this.jvm.heapCommittedBytes() / MB,
						this.jvm.heapMaxBytes() / MB));
		ResultRow threads = measured(context, shape, "threads live", this.jvm.threadsLive(), "threads",
				"most numerous: " + this.jvm.topKinds(6));
		measured(context, shape, "threads at their peak", this.jvm.threadsPeak(), "threads",
				"most alive at once since the JVM's start");
		measured(context, shape, "connections to the source", this.source.total(), "connections",
				String.format("account %s: %d binlog dump, %d JDBC", TablesScenario.SOURCE_USER,
						this.source.binlogDumps(), this.source.jdbc()));
		measured(context, shape, "connections to the target", this.target.total(), "connections",
				"account " + TablesScenario.TARGET_USER);
		for (TimedGets.Timing get : this.gets.values()) {
			recordGet(context, shape, "GET " + get.path(), get);
		}
		TimedGets.Timing scrape = this.gets.get(SCRAPE);
		recordGet(context, shape, "GET " + SCRAPE + ", cdc.metrics.tables=trouble", this.troubleScrape);
		context.record(ResultRow.compared(this.scenario, this.flavor, shape,
				"GET " + SCRAPE + ", cdc.metrics.tables=trouble, size", this.troubleScrape.bytes() / 1024.0, "KB",
				"cdc.metrics.tables=all", scrape.bytes() / 1024.0, Double.NaN, "every table streaming"));
		measured(context, shape, "light write reached the targets", this.writeSeconds, "s", String.format(
				"an INSERT ... SELECT of rows into each of the first %d tables, until their targets hold as many rows",
				Math.min(10, this.count)));
		if (smallest != null) {
			String at = String.format("at %,d tables", smallest.count);
			compare(context, streaming, at, smallest.firstStart.streamingSeconds());
			compare(context, heap, at, smallest.jvm.heapUsedBytes() / MB);
			compare(context, threads, at, smallest.jvm.threadsLive());
		}
		StringBuilder kinds = new StringBuilder("### Threads of the tables scenario's application: " + this.flavor + ", "
				+ shape + "\n\nAlive once every table streamed, by name with its numbers replaced by N:\n\n```\n");
		this.jvm.threadKinds().forEach((kind, alive) -> kinds.append(String.format("%4d  %s%n", alive, kind)));
		context.detail(kinds.append("```\n").toString());
		context.bound(String.format("%,d tables: /actuator/cdc carries %,d bytes a table, /actuator/prometheus %,d "
				+ "(cdc.metrics.tables=all) and %,d (trouble), the console's overview page %,d and its polled fragment "
				+ "%,d; %d threads, most numerous %s", this.count, perTable(this.gets.get("/actuator/cdc")),
				perTable(scrape), perTable(this.troubleScrape), perTable(this.gets.get("/tributary")),
				perTable(this.gets.get("/tributary/fragments/overview")), this.jvm.threadsLive(), this.jvm.topKinds(4)));
	}

	private ResultRow measured(ScenarioContext context, String shape, String measure, double value, String unit,
			String note) {
		ResultRow row = ResultRow.measured(this.scenario, this.flavor, shape, measure, value, unit, note);
		context.record(row);
		return row;
	}

	private void recordGet(ScenarioContext context, String shape, String measure, TimedGets.Timing get) {
		measured(context, shape, measure + ", size", get.bytes() / 1024.0, "KB",
				String.format("%,d bytes, %,d a table", get.bytes(), perTable(get)));
		measured(context, shape, measure + ", median", get.medianMillis(), "ms", String.format(
				"median of %d requests after 2 unmeasured; fastest %.1f ms, slowest %.1f ms", get.nanos().length,
				get.minMillis(), get.maxMillis()));
	}

	private long perTable(TimedGets.Timing get) {
		return Math.round(get.bytes() / (double) this.count);
	}

	private void compare(ScenarioContext context, ResultRow row, String reference, double referenceValue) {
		context.record(ResultRow.compared(this.scenario, this.flavor, row.shape(), row.measure(), row.value(),
				row.unit(), reference, referenceValue, Double.NaN, ""));
	}

}
