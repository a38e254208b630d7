package io.tributary.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Runs a backlog reader ({@link ReaderMain}), or another child main class such as
 * {@link MemoryMain}, in a JVM of its own, so that its first read is a cold one (nothing compiled
 * yet), its heap holds nothing else, and each reader has the binlog client it was built with:
 * Tributary and the raw read use {@code com.zendesk:mysql-binlog-connector-java}, Debezium its own
 * fork of it, and both hold the same classes. Each JVM therefore gets the run's class path without
 * the other's jars. Its output goes to a log file in the run's work directory; a JVM that fails or
 * outlives its time limit is ended and its log's last lines are put in the error.
 */
final class ReaderJvm {

	private static final String FORK_JAR = "/io/debezium/mysql-binlog-connector-java/";

	private static final String ZENDESK_JAR = "/com/zendesk/mysql-binlog-connector-java/";

	/** Server ids of the readers' replication connections: each JVM takes a block, each round one id of it. */
	private static final AtomicLong NEXT_SERVER_ID = new AtomicLong(10_000);

	private final ScenarioContext context;

	ReaderJvm(ScenarioContext context) {
		this.context = context;
	}

	/**
	 * Runs one reader JVM to its end.
	 * @param label names its log, result and recording files
	 * @param reader the reader kind (see {@link ReaderMain})
	 * @param args the reader's arguments
	 * @return the rounds it read
	 */
	List<ReaderMain.Round> run(String label, String reader, Map<String, String> args) throws Exception {
		Map<String, String> all = new LinkedHashMap<>();
		all.put("reader", reader);
		all.putAll(args);
		// The schema history is a preparation, not a measurement: no recording.
		return ReaderMain.Round.all(launch(label, ReaderMain.class, reader.startsWith("debezium"),
				!reader.equals("debezium-schema"), all));
	}

	/**
	 * Runs the main class of a child JVM to its end: it gets {@code key=value} arguments, among them
	 * {@code result} (the properties file it must write) and {@code serverId} (a block of 100
	 * replication server ids of its own), and {@code -Xmx} of {@code childHeap}.
	 * @param label names its log, result and recording files
	 * @param main the class to run
	 * @param debezium whether it needs Debezium's binlog client rather than Tributary's
	 * @param recorded whether it runs under Flight Recorder when the run asks for it
	 * @param args its other arguments
	 * @return the properties it wrote
	 */
	Properties launch(String label, Class<?> main, boolean debezium, boolean recorded, Map<String, String> args)
			throws Exception {
		RunFiles files = this.context.files();
		String name = this.context.scenario() + "-" + this.context.flavor() + "-" + label;
		Path result = files.scratch(name + ".properties");
		Path log = files.scratch(name + ".log");
		Files.deleteIfExists(result);
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xmx" + this.context.settings().text("childHeap"));
		Path jfr = null;
		if (this.context.settings().jfr() && recorded) {
			jfr = this.context.jfrFile(label);
			command.add("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile,dumponexit=true");
		}
		command.add("-cp");
		command.add(classPath(debezium));
		command.add(main.getName());
		args.forEach((key, value) -> command.add(key + "=" + value));
		command.add("result=" + result);
		command.add("serverId=" + NEXT_SERVER_ID.getAndAdd(100));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		long limit = this.context.settings().number("childTimeoutMinutes");
		boolean ended;
		try {
			ended = process.waitFor(limit, TimeUnit.MINUTES);
		}
		finally {
			if (process.isAlive()) {
				process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
			}
		}
		if (!ended) {
			throw new IllegalStateException("The " + label + " JVM did not finish within " + limit
					+ " minutes (bench.childTimeoutMinutes) and was ended; its log " + log + " ends with:\n" + tail(log));
		}
		if (process.exitValue() != 0 || !Files.exists(result)) {
			throw new IllegalStateException("The " + label + " JVM failed (exit " + process.exitValue() + "); its log "
					+ log + " ends with:\n" + tail(log));
		}
		if (jfr != null) {
			this.context.reportHotMethods(label, jfr);
		}
		Properties properties = new Properties();
		try (InputStream in = Files.newInputStream(result)) {
			properties.load(in);
		}
		return properties;
	}

	/** The run's class path without the binlog client jar the reader must not see. */
	static String classPath(boolean debezium) throws IOException {
		List<String> entries = new ArrayList<>();
		for (String entry : expanded(System.getProperty("java.class.path"))) {
			String path = entry.replace('\\', '/');
			if (debezium ? path.contains(ZENDESK_JAR) : path.contains("/io/debezium/")) {
				continue;
			}
			entries.add(entry);
		}
		return String.join(java.io.File.pathSeparator, entries);
	}

	/**
	 * The entries of a class path; a test runner's single jar whose manifest holds the real class
	 * path is opened.
	 */
	private static List<String> expanded(String classPath) throws IOException {
		List<String> entries = Arrays.asList(classPath.split(java.io.File.pathSeparator));
		if (entries.size() != 1 || !entries.get(0).endsWith(".jar")) {
			return entries;
		}
		try (JarFile jar = new JarFile(entries.get(0))) {
			Manifest manifest = jar.getManifest();
			String listed = (manifest != null) ? manifest.getMainAttributes().getValue("Class-Path") : null;
			if (listed == null || listed.isBlank()) {
				return entries;
			}
			List<String> expanded = new ArrayList<>();
			for (String url : listed.trim().split("\\s+")) {
				expanded.add(url.startsWith("file:") ? Path.of(URI.create(url)).toString() : url);
			}
			return expanded;
		}
	}

	/** Whether the run's class path holds both binlog client jars, which the readers need. */
	static String missingJars() throws IOException {
		List<String> entries = expanded(System.getProperty("java.class.path")).stream()
			.map((entry) -> entry.replace('\\', '/'))
			.toList();
		List<String> missing = new ArrayList<>();
		if (entries.stream().noneMatch((entry) -> entry.contains(ZENDESK_JAR))) {
			missing.add("com.zendesk:mysql-binlog-connector-java");
		}
		if (entries.stream().noneMatch((entry) -> entry.contains(FORK_JAR))) {
			missing.add("io.debezium:mysql-binlog-connector-java");
		}
		if (entries.stream().noneMatch((entry) -> entry.contains("/io/debezium/debezium-embedded/"))) {
			missing.add("io.debezium:debezium-embedded");
		}
		return String.join(", ", missing);
	}

	private static String tail(Path log) {
		try {
			List<String> lines = Files.readAllLines(log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

}
