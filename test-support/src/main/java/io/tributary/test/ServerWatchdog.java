package io.tributary.test;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small {@code /bin/sh} process that ends an embedded server, or another process this JVM started
 * (a pipeline in a child JVM, say), when the JVM that started it dies.
 *
 * <p>The watchdog blocks reading its standard input, a pipe whose only writer is this JVM. When the
 * JVM ends in any way, SIGKILL included, the kernel closes that pipe and the read returns; the
 * watchdog then sends the process SIGTERM (a clean shutdown), SIGKILL if it still runs after 60
 * seconds (a process stopped with SIGSTOP does too), and deletes the process's directory once it has
 * exited. Before each signal it checks that the pid still carries the argument it was given (the
 * server's {@code --datadir=}), so a recycled pid is never hit.
 * {@link #release()} tells it the owner has stopped the server itself, and it exits doing nothing.
 *
 * <p>It ignores SIGINT, SIGHUP and SIGQUIT, which a terminal sends to the whole process group, so
 * that Ctrl-C on a build leaves it running for as long as the JVM's own shutdown takes.
 */
public final class ServerWatchdog {

	private static final String RELEASE = "release";

	private static final String SCRIPT = String.join("\n",
			"trap '' INT HUP QUIT",
			"pid=$1",
			"marker=$2",
			"dir=$3",
			"IFS= read -r word",
			"if [ \"$word\" = " + RELEASE + " ]; then exit 0; fi",
			"running() { tr '\\000' '\\n' 2>/dev/null < \"/proc/$pid/cmdline\" | grep -qxF -e \"$marker\"; }",
			"if running; then",
			"  kill -TERM \"$pid\" 2>/dev/null",
			"  i=0",
			"  while running && [ \"$i\" -lt 60 ]; do sleep 1; i=$((i + 1)); done",
			"  if running; then kill -KILL \"$pid\" 2>/dev/null; fi",
			"  i=0",
			"  while running && [ \"$i\" -lt 10 ]; do sleep 1; i=$((i + 1)); done",
			"fi",
			"if ! running; then rm -rf -- \"$dir\"; fi",
			"");

	private final Process process;

	/** Held, never written until release: closing it is the signal that this JVM is gone. */
	private final OutputStream ownerAlive;

	private ServerWatchdog(Process process) {
		this.process = process;
		this.ownerAlive = process.getOutputStream();
	}

	/**
	 * Starts a watchdog for a running process.
	 *
	 * @param pid the process id
	 * @param marker an exact argument on the process's command line, such as a server's
	 *     {@code --datadir=...}, that tells it from a later process given the same pid
	 * @param directory the directory to delete once the process has exited
	 */
	public static ServerWatchdog start(long pid, String marker, Path directory) throws IOException {
		Process process = new ProcessBuilder("/bin/sh", "-c", SCRIPT, "tributary-server-watchdog",
				Long.toString(pid), marker, directory.toString())
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.start();
		return new ServerWatchdog(process);
	}

	/** Tells the watchdog to exit without touching the process; call once the process has ended. */
	public void release() {
		try {
			ownerAlive.write((RELEASE + "\n").getBytes(StandardCharsets.US_ASCII));
			ownerAlive.close();
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroy();
			}
		}
		catch (IOException e) {
			// The watchdog is gone already; there is nothing to release.
			process.destroy();
		}
		catch (InterruptedException e) {
			process.destroy();
			Thread.currentThread().interrupt();
		}
	}
}
