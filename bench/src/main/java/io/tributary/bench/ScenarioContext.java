package io.tributary.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import io.tributary.test.TestDatabaseServer;

/**
 * What a scenario gets from the run: the settings, the server it runs on, where to record figures,
 * Flight Recorder when asked for, reader JVMs, and what the scenarios of one server share: the
 * ingestion backlogs and the native replica.
 */
public final class ScenarioContext {

	private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

	/** Server id of the MariaDB replica; the embedded sources take small ones. */
	private static final int REPLICA_SERVER_ID = 900;

	private final BenchSettings settings;

	private final TestDatabaseServer server;

	private final String flavor;

	private final String scenario;

	private final List<ResultRow> rows;

	private final List<String> details;

	private final List<String> bounds;

	private final RunFiles files;

	private final ServerState state;

	ScenarioContext(BenchSettings settings, TestDatabaseServer server, String flavor, String scenario,
			List<ResultRow> rows, List<String> details, List<String> bounds, RunFiles files, ServerState state) {
		this.settings = settings;
		this.server = server;
		this.flavor = flavor;
		this.scenario = scenario;
		this.rows = rows;
		this.details = details;
		this.bounds = bounds;
		this.files = files;
		this.state = state;
	}

	public BenchSettings settings() {
		return this.settings;
	}

	public TestDatabaseServer server() {
		return this.server;
	}

	/** {@code mariadb} or {@code mysql}. */
	public String flavor() {
		return this.flavor;
	}

	/** Records a figure, and prints it. */
	public void record(ResultRow row) {
		this.rows.add(row);
		say(String.format("%s / %s = %,.2f %s%s", row.shape(), row.measure(), row.value(),
				row.unit(), row.isComparison() ? String.format(" vs %s %,.2f %s: %.2fx (target %s%s)",
						row.reference(), row.referenceValue(), row.referenceUnitText(), row.ratio(), row.targetText(),
						row.verdict().isEmpty() ? "" : ", " + row.verdict()) : ""));
	}

	/** Adds a Markdown section to the end of the results file. */
	public void detail(String markdown) {
		this.details.add(markdown);
	}

	/**
	 * Says what bounds one of this scenario's figures on this machine, in a line of the results
	 * file's section of bounds.
	 */
	public void bound(String line) {
		this.bounds.add(this.scenario + " (" + this.flavor + "): " + line);
		say("bound: " + line);
	}

	/** Prints a progress line with the time of day, scenario and server. */
	public void say(String line) {
		System.out.println(LocalTime.now().format(CLOCK) + " [" + this.scenario + "/" + this.flavor
				+ "] " + line);
	}

	/**
	 * Runs a task, under Flight Recorder and under {@code perf} when the run asks for them; a Flight
	 * Recorder recording is written next to the results and its hot methods are printed and added to
	 * the results file, and so is the summary of a {@code perf} recording.
	 * @param label names the recording, for example {@code tributary-4-threads}
	 */
	public <T> T profiled(String label, Callable<T> task) throws Exception {
		Callable<T> recorded = task;
		if (this.settings.jfr()) {
			recorded = () -> {
				Path file = jfrFile(label);
				T result = Profiles.record(file, task);
				reportHotMethods(label, file);
				return result;
			};
		}
		if (!this.settings.perf()) {
			return recorded.call();
		}
		Path file = this.files.perf(this.scenario + "-" + this.flavor + "-" + label);
		SystemProfiles.Recorded<T> run = SystemProfiles.record(file, ProcessHandle.current().pid(), recorded);
		StringBuilder out = new StringBuilder("### Where the machine's CPU went: " + this.scenario + ", " + this.flavor
				+ ", " + label + "\n\n`perf record -a -g` over the stretch, summed from `" + file.getFileName()
				+ "`:\n\n```\n");
		run.summary().forEach((line) -> out.append(line).append('\n'));
		out.append("```\n");
		say("where the CPU went during " + label + " (" + file.getFileName() + "):");
		run.summary().forEach((line) -> System.out.println("    " + line));
		detail(out.toString());
		return run.result();
	}

	/** Returns where the recording of a labelled stretch of this scenario goes. */
	Path jfrFile(String label) {
		return this.files.jfr(this.scenario + "-" + this.flavor + "-" + label);
	}

	/** Prints the hot methods of a recording and adds them to the results file. */
	void reportHotMethods(String label, Path file) throws IOException {
		List<String> hot = Profiles.hotMethods(file, 12);
		StringBuilder out = new StringBuilder("### Hot methods: " + this.scenario + ", " + this.flavor + ", " + label
				+ "\n\nTop frames of `jdk.ExecutionSample` in `" + file.getFileName() + "` (share, samples, method):\n\n```\n");
		hot.forEach((line) -> out.append(line).append('\n'));
		out.append("```\n");
		say("hot methods of " + label + " (" + file.getFileName() + "):");
		hot.forEach((line) -> System.out.println("    " + line));
		detail(out.toString());
	}

	/** Starts reader JVMs for this scenario. */
	ReaderJvm readers() {
		return new ReaderJvm(this);
	}

	RunFiles files() {
		return this.files;
	}

	String scenario() {
		return this.scenario;
	}

	/** The ingestion backlogs on this server, written on first use and shared by later scenarios. */
	IngestionBacklogs backlogs() throws Exception {
		if (this.state.failure != null) {
			throw new IllegalStateException("The ingestion backlogs could not be written: " + this.state.failure.getMessage(),
					this.state.failure);
		}
		if (this.state.backlogs == null) {
			try {
				this.state.backlogs = IngestionBacklogs.write(this);
			}
			catch (Exception ex) {
				this.state.failure = ex;
				throw ex;
			}
		}
		return this.state.backlogs;
	}

	/**
	 * Keeps the rounds of a raw read of one of this server's ingestion backlogs, for later scenarios
	 * that need the same stretch of binlog read raw.
	 */
	void rememberRawRead(IngestionBacklogs.Backlog backlog, List<ReaderMain.Round> rounds) {
		this.state.rawReads.put(backlog, List.copyOf(rounds));
	}

	/** The rounds of the raw read of an ingestion backlog, when a scenario before read it. */
	Optional<List<ReaderMain.Round>> rawRead(IngestionBacklogs.Backlog backlog) {
		return Optional.ofNullable(this.state.rawReads.get(backlog));
	}

	/**
	 * The native replica of this server, started on first use with {@code replicaThreads} parallel
	 * appliers and {@code innodb_flush_log_at_trx_commit=1}, and shared by later scenarios until the
	 * run moves to the next server. Each scenario points it where it needs it.
	 */
	NativeReplica replica() throws Exception {
		if (this.state.replica == null) {
			int threads = this.settings.number("replicaThreads");
			if (this.server.isMariaDb()) {
				ReplicaServer replica = new ReplicaServer(REPLICA_SERVER_ID, threads, "optimistic", "2G");
				this.state.replica = replica;
				replica.start();
				replica.execute("SET GLOBAL innodb_flush_log_at_trx_commit = 1");
			}
			else {
				MySqlReplica replica = new MySqlReplica(threads, 2L << 30);
				this.state.replica = replica;
				replica.start();
			}
			say("started the " + this.state.replica.name() + ": " + this.state.replica.describe());
		}
		return this.state.replica;
	}

	/** What the scenarios of one server share; closed when the run moves to the next server. */
	static final class ServerState implements AutoCloseable {

		private IngestionBacklogs backlogs;

		private Exception failure;

		private final Map<IngestionBacklogs.Backlog, List<ReaderMain.Round>> rawReads = new HashMap<>();

		private NativeReplica replica;

		/** Stops the replica, if one was started. */
		@Override
		public void close() {
			if (this.replica != null) {
				this.replica.close();
				this.replica = null;
			}
		}

	}

}
