package io.tributary.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link TablesApplication} running in a JVM of its own, with a fixed {@code -Xmx}, so that the
 * heap and threads measured are the application's alone. It serves HTTP on a free port of
 * 127.0.0.1, logs to a file of the run's work directory, and is ended when closed (or when the
 * benchmark's JVM exits first).
 */
final class ApplicationJvm implements AutoCloseable {

	private final Process process;

	private final Path log;

	private final String baseUrl;

	private final long startedNanos;

	private final Thread killer;

	private ApplicationJvm(Process process, Path log, String baseUrl, long startedNanos) {
		this.process = process;
		this.log = log;
		this.baseUrl = baseUrl;
		this.startedNanos = startedNanos;
		this.killer = new Thread(process::destroyForcibly);
		Runtime.getRuntime().addShutdownHook(this.killer);
	}

	/**
	 * Starts the application.
	 * @param log where its output goes
	 * @param heap its {@code -Xmx}, for example {@code 512m}
	 * @param properties its Spring properties, each passed as {@code --name=value}
	 */
	static ApplicationJvm start(Path log, String heap, Map<String, String> properties) throws IOException {
		int port = freePort();
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xmx" + heap);
		command.add("-cp");
		command.add(ReaderJvm.classPath(false));
		command.add(TablesApplication.class.getName());
		command.add("--server.address=127.0.0.1");
		command.add("--server.port=" + port);
		properties.forEach((name, value) -> command.add("--" + name + "=" + value));
		Files.deleteIfExists(log);
		long started = System.nanoTime();
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		return new ApplicationJvm(process, log, "http://127.0.0.1:" + port, started);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/** {@code http://127.0.0.1:<port>}. */
	String baseUrl() {
		return this.baseUrl;
	}

	/** Seconds since the JVM was started. */
	double seconds() {
		return (System.nanoTime() - this.startedNanos) / 1e9;
	}

	long pid() {
		return this.process.pid();
	}

	/**
	 * Fails, with the end of the log, when the JVM has exited.
	 * @param waitingFor what the caller was waiting for, for the message
	 */
	void requireAlive(String waitingFor) {
		if (!this.process.isAlive()) {
			throw new IllegalStateException("The application JVM exited (code " + this.process.exitValue()
					+ ") while waiting for " + waitingFor + "; its log " + this.log + " ends with:\n" + tail());
		}
	}

	/** The last lines of its log. */
	String tail() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

	/** Ends the JVM as a stop of the application would, or forcibly after 30 s. */
	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
		Runtime.getRuntime().removeShutdownHook(this.killer);
	}

}
