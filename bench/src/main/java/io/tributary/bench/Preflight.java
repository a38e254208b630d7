package io.tributary.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.github.shyiko.mysql.binlog.BinaryLogClient;

import io.tributary.test.TestDatabaseServer;

/**
 * Checks, before any scenario runs, that everything the run needs is there, and stops it with a
 * message that names what is missing and how to get it: the JVM's {@code java} for the reader JVMs
 * and Flight Recorder when asked for, the binlog client jars, each embedded server, and the
 * MariaDB client programs of the embedded distribution that the snapshot's dump pipe runs.
 */
final class Preflight {

	private Preflight() {
	}

	/** Thrown when something the run needs is missing; its message says what to do. */
	static final class MissingToolException extends RuntimeException {

		MissingToolException(String message) {
			super(message);
		}

	}

	/** Checks the JVM and the class path. */
	static void checkJvm(BenchSettings settings) throws IOException {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		if (!Files.isExecutable(java)) {
			throw new MissingToolException("The benchmark starts reader JVMs with " + java + ", which is missing: "
					+ "run it with a full JDK 17 or later");
		}
		if (settings.jfr() && ModuleLayer.boot().findModule("jdk.jfr").isEmpty()) {
			throw new MissingToolException("-Dbench.jfr=true needs Java Flight Recorder (module jdk.jfr), which this "
					+ "JVM lacks: run it with a full JDK 17 or later");
		}
		if (settings.perf()) {
			String unavailable = SystemProfiles.unavailable();
			if (unavailable != null) {
				throw new MissingToolException("-Dbench.perf=true samples the whole machine with Linux perf, but "
						+ unavailable + ": install it, run as root or set kernel.perf_event_paranoid to 0 or less, "
						+ "or leave perf off");
			}
		}
		String location = String.valueOf(BinaryLogClient.class.getProtectionDomain().getCodeSource().getLocation());
		if (!location.contains("com/zendesk/mysql-binlog-connector-java")) {
			throw new MissingToolException("This JVM loads the binlog client from " + location + " instead of "
					+ "com.zendesk:mysql-binlog-connector-java, which Tributary is built with: put tributary-core "
					+ "before the Debezium jars on the class path (run the benchmark through Maven as bench/README.md says)");
		}
		if (settings.runs("ingestion") || settings.runs("unsubscribed")) {
			String missing = ReaderJvm.missingJars();
			if (!missing.isEmpty()) {
				throw new MissingToolException("The ingestion readers need " + missing + " on the class path: run the "
						+ "benchmark through Maven as bench/README.md says");
			}
		}
	}

	/**
	 * Starts an embedded server, turning "cannot run on this machine" into a message that names the
	 * package to install.
	 */
	static TestDatabaseServer startServer(String flavor) {
		try {
			return TestDatabaseServer.startEmbedded(flavor);
		}
		catch (org.opentest4j.TestAbortedException ex) {
			throw new MissingToolException(ex.getMessage() + " (to leave this server out of the benchmark: "
					+ "-Dbench.servers=" + (flavor.equals("mysql") ? "mariadb" : "mysql") + ")");
		}
	}

	/**
	 * Runs the MariaDB client programs of the embedded distribution with {@code --version}: the
	 * snapshot scenario pipes {@code mariadb-dump} into {@code mariadb}.
	 * @return their versions
	 */
	static String checkMariaDbClients(TestDatabaseServer server) throws SQLException, IOException, InterruptedException {
		Path bin = Path.of(basedir(server)).resolve("bin");
		StringBuilder versions = new StringBuilder();
		for (String tool : List.of("mariadb", "mariadb-dump")) {
			versions.append((versions.length() > 0) ? "; " : "").append(version(bin.resolve(tool)));
		}
		return versions.toString();
	}

	static String basedir(TestDatabaseServer server) throws SQLException {
		try (Connection connection = server.dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT @@basedir")) {
			rs.next();
			return rs.getString(1);
		}
	}

	private static String version(Path tool) throws IOException, InterruptedException {
		if (!Files.isExecutable(tool)) {
			throw new MissingToolException("The embedded MariaDB distribution has no " + tool.getFileName() + " at "
					+ tool + "; the snapshot scenario's dump pipe needs it (or leave the scenario out: "
					+ "-Dbench.scenarios=ingestion,unsubscribed,apply)");
		}
		String output = run(List.of(tool.toString(), "--version"));
		if (output.startsWith("exit 0:")) {
			return output.substring("exit 0:".length()).strip().replaceFirst("^.*/", "");
		}
		String missing = run(List.of("ldd", tool.toString())).lines()
			.filter((line) -> line.contains("not found"))
			.map((line) -> line.trim().split("\\s")[0])
			.collect(Collectors.joining(", "));
		throw new MissingToolException("The MariaDB client " + tool.getFileName() + " of the embedded distribution "
				+ "does not run: " + output.replaceFirst("^exit -?\\d+:", "").strip()
				+ (missing.isEmpty() ? "" : " (missing shared libraries: " + missing + ")")
				+ ". The snapshot scenario pipes mariadb-dump into mariadb. " + packageHint(missing + output)
				+ " Or leave the scenario out: -Dbench.scenarios=ingestion,unsubscribed,apply");
	}

	private static String packageHint(String libraries) {
		if (libraries.contains("libncurses.so.5") || libraries.contains("libtinfo.so.5")) {
			return "Install the ncurses 5 libraries: apt-get install libncurses5 libtinfo5 (Debian 12, Ubuntu 22.04).";
		}
		return "Install the packages that provide the missing libraries.";
	}

	/** Runs a command and returns {@code exit N:} followed by its output, ending it after 30 seconds. */
	private static String run(List<String> command) throws IOException, InterruptedException {
		Path output = Files.createTempFile("bench-preflight", ".txt");
		try {
			Process process;
			try {
				process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
			}
			catch (IOException ex) {
				return "exit -1: " + ex.getMessage();
			}
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return "exit -1: " + command.get(0) + " did not end within 30 s";
			}
			return "exit " + process.exitValue() + ": " + Files.readString(output, StandardCharsets.UTF_8);
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

}
