package io.tributary.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * What one benchmark run does: which servers and scenarios, the sizes, where the results go. Read
 * from {@code bench.*} system properties; every size has a default for the {@code full} mode (the
 * issue's sizes) and one for the {@code smoke} mode (tiny, for CI), and any size given explicitly
 * wins over both.
 *
 * @param mode {@code full} or {@code smoke}
 * @param servers embedded servers to run on, in order: {@code mariadb}, {@code mysql}
 * @param scenarios scenario names to run, in order
 * @param out directory the results files are written to
 * @param jfr whether each scenario runs under Java Flight Recorder
 * @param perf whether Linux {@code perf} samples the whole machine, servers included, while each
 * profiled stretch of a scenario runs
 * @param sizes every size and count, by property name without the {@code bench.} prefix
 */
public record BenchSettings(String mode, List<String> servers, List<String> scenarios, Path out, boolean jfr,
		boolean perf, Map<String, String> sizes) {

	/** Every scenario, in the order a run takes them. */
	public static final List<String> ALL_SCENARIOS = List.of("ingestion", "unsubscribed", "apply", "snapshot",
			"kafka", "latency", "memory", "tables");

	/** Property name, full-mode default, smoke-mode default, what it sets. */
	private static final String[][] SIZES = {
			{ "mysqlScenarios", "ingestion,apply", "all", "scenarios that run on MySQL too (all: every one that can)" },
			{ "changes", "1000000", "2000", "single-row updates in each ingestion backlog" },
			{ "perTransaction", "100", "100", "updates per transaction in the batched ingestion backlog" },
			{ "tableRows", "1000000", "2000", "rows of the ingestion table the updates hit" },
			{ "clients", "4", "2", "connections that write a backlog" },
			{ "warmRounds", "2", "1", "reads of a backlog after the cold one, in the same JVM" },
			{ "childHeap", "2g", "512m", "heap of each reader JVM (-Xmx)" },
			{ "childTimeoutMinutes", "20", "5", "longest a reader JVM may run before it is killed" },
			{ "snapshotRows", "1000000", "2000", "rows of the snapshot table" },
			{ "snapshotRounds", "2", "1", "rounds of the snapshot methods (each figure is the best of them)" },
			{ "snapshotThreads", "1,2,4", "2", "copy threads of the Tributary snapshots" },
			{ "applyRows", "1000000", "2000", "rows of the apply table" },
			{ "applyBacklog", "1000000", "2000", "single-row update transactions in the apply backlog" },
			{ "applyWorkers", "4", "2", "apply workers of the Tributary catch-up runs" },
			{ "applyClients", "8", "2", "connections that write the apply backlog" },
			{ "hotKeys", "10", "10", "ids the hot-row updates hit" },
			{ "hotUpdates", "50000", "500", "hot-row update transactions" },
			{ "replicaThreads", "4", "2", "parallel applier threads of the native replica" },
			{ "replicaSeconds", "15", "20", "longest the native replica applies a backlog; its rate is what it applied by then" },
			{ "applyMixBacklog", "300000", "2000", "single-row update transactions in the apply scenario's hot-row mix" },
			{ "applyMixHotPercent", "50", "50", "percent of the mix's transactions that hit a hot id" },
			{ "kafkaBacklog", "300000", "2000", "single-row update transactions in the kafka scenario's backlog" },
			{ "kafkaPartitions", "4", "2", "partitions of the kafka scenario's topic" },
			{ "latencySeconds", "120", "3", "seconds the latency run with default settings writes for" },
			{ "latencyVariantSeconds", "20", "3", "seconds each other latency run (flush when idle off, hot rows) writes for" },
			{ "latencyRate", "1000", "1000", "transactions per second the latency writers keep" },
			{ "latencyClients", "4", "2", "connections the latency writers share the rate among" },
			{ "latencyWarmupSeconds", "5", "1", "first seconds of a latency run left out of its percentiles" },
			{ "latencyPollMicros", "1000", "1000", "pause of the latency pollers between two reads of a target" },
			{ "latencyHotPercent", "90", "90", "percent of the hot variant's transactions that update a hot row" },
			{ "latencyHotKeys", "2", "2", "hot rows of the latency scenario's hot variant" },
			{ "memoryChanges", "5000000", "20000", "row changes in the memory scenario's burst" },
			{ "memoryRows", "400000", "5000", "rows of the memory scenario's table the burst updates" },
			{ "memorySoftLimitMb", "64", "1", "cdc.buffer.soft-limit of the memory runs, in MB" },
			{ "memoryListenerMicrosPerChange", "10", "10",
					"pause of the slow ChangeListener per change of a batch, in microseconds" },
			{ "memorySampleMillis", "250", "20", "pause of the live-heap sampler between two readings" },
			{ "tablesCounts", "10,100,1000", "3,10", "tables of the tables scenario's pipeline, one run per count" },
			{ "tablesRows", "1000", "100", "rows of each table of the tables scenario" },
			{ "tablesHeap", "512m", "512m", "heap of the tables scenario's application JVM (-Xmx)" },
			{ "tablesRequests", "10", "3", "timed requests of each path of the tables scenario (the figure is their median)" },
			{ "tablesSettleSeconds", "10", "1", "pause after every table streams before the tables scenario measures" },
			{ "tablesWriteRows", "100", "10", "rows the tables scenario's light write inserts into each of 10 tables" } };

	/** Reads the settings from system properties. */
	public static BenchSettings fromSystemProperties() {
		return from(System.getProperties());
	}

	/**
	 * Reads the settings from properties named {@code bench.*}.
	 * @param properties where to read them from
	 * @return the settings
	 * @throws IllegalArgumentException naming the property whose value is not understood
	 */
	public static BenchSettings from(Properties properties) {
		String mode = properties.getProperty("bench.mode", "full").trim().toLowerCase(Locale.ROOT);
		if (!mode.equals("full") && !mode.equals("smoke")) {
			throw new IllegalArgumentException("bench.mode must be full or smoke, was '" + mode + "'");
		}
		List<String> servers = list(properties.getProperty("bench.servers", "mariadb,mysql"));
		for (String server : servers) {
			if (!server.equals("mariadb") && !server.equals("mysql")) {
				throw new IllegalArgumentException("bench.servers lists '" + server + "'; use mariadb and/or mysql");
			}
		}
		String scenarioList = properties.getProperty("bench.scenarios", "all").trim();
		List<String> scenarios = scenarioList.equals("all") || scenarioList.isEmpty() ? ALL_SCENARIOS
				: list(scenarioList);
		for (String scenario : scenarios) {
			if (!ALL_SCENARIOS.contains(scenario)) {
				throw new IllegalArgumentException("bench.scenarios lists '" + scenario + "'; known: "
						+ String.join(", ", ALL_SCENARIOS) + " (or all)");
			}
		}
		Path out = Path.of(properties.getProperty("bench.out", defaultOut()));
		boolean jfr = Boolean.parseBoolean(properties.getProperty("bench.jfr", properties.getProperty("jfr", "false")));
		boolean perf = Boolean.parseBoolean(properties.getProperty("bench.perf", properties.getProperty("perf", "false")));
		Map<String, String> sizes = new LinkedHashMap<>();
		for (String[] size : SIZES) {
			String given = properties.getProperty("bench." + size[0], "").trim();
			sizes.put(size[0], given.isEmpty() ? (mode.equals("smoke") ? size[2] : size[1]) : given);
		}
		return new BenchSettings(mode, servers, scenarios, out, jfr, perf, sizes);
	}

	/** {@code bench/results} from the project's root, {@code results} from the bench module's. */
	private static String defaultOut() {
		return Path.of("bench", "results").toFile().isDirectory() ? "bench/results" : "results";
	}

	private static List<String> list(String text) {
		return Arrays.stream(text.split(",")).map(String::trim).filter((s) -> !s.isEmpty())
			.map((s) -> s.toLowerCase(Locale.ROOT)).toList();
	}

	/** Returns a size as an int. */
	public int number(String name) {
		try {
			return Integer.parseInt(text(name).replace("_", ""));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("bench." + name + " must be a whole number, was '" + text(name) + "'");
		}
	}

	/** Returns a size as a list of ints, from a comma-separated value. */
	public int[] numbers(String name) {
		return Arrays.stream(text(name).split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
	}

	/** Returns a size as given. */
	public String text(String name) {
		String value = this.sizes.get(name);
		if (value == null) {
			throw new IllegalArgumentException("No benchmark size named " + name);
		}
		return value;
	}

	/**
	 * Returns whether a scenario of the run is measured on a server: on MySQL, only those of
	 * {@code bench.mysqlScenarios}, by default the ones the issue asks of both servers.
	 */
	public boolean measuresOn(String scenario, String server) {
		String onMysql = text("mysqlScenarios").trim().toLowerCase(Locale.ROOT);
		return !server.equals("mysql") || onMysql.equals("all") || list(onMysql).contains(scenario);
	}

	/** Returns whether a scenario is part of the run. */
	public boolean runs(String scenario) {
		return this.scenarios.contains(scenario);
	}

	/** Describes the settings for the results file, one {@code name=value} per size. */
	public String describe() {
		StringBuilder out = new StringBuilder("mode=" + this.mode + ", servers=" + String.join(",", this.servers)
				+ ", scenarios=" + String.join(",", this.scenarios) + ", jfr=" + this.jfr + ", perf=" + this.perf);
		this.sizes.forEach((name, value) -> out.append(", ").append(name).append('=').append(value));
		return out.toString();
	}

	/** Lists every property with its defaults, for the README and {@code -Dbench.help}. */
	public static String help() {
		StringBuilder out = new StringBuilder();
		for (String[] size : SIZES) {
			out.append(String.format("  -Dbench.%-20s %s (full %s, smoke %s)%n", size[0], size[3], size[1], size[2]));
		}
		return out.toString();
	}

}
