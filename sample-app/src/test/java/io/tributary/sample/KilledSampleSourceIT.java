package io.tributary.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.tributary.test.Await;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The sample's embedded MariaDB does not outlive the application when the application is killed
 * with SIGKILL: its watchdog stops the server and deletes its directory.
 */
class KilledSampleSourceIT {

	private static final String DATADIR = "--datadir=";

	@Test
	void killedApplicationLeavesNoServerRunning() throws Exception {
		assumeTrue(Files.isReadable(Path.of("/proc/self/cmdline")), "the watchdog needs /proc");
		Path log = Files.createTempFile("sample-source", ".log");
		Process jvm = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), EmbeddedSourceProcess.class.getName()))
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		ProcessHandle server = null;
		String dataDir = null;
		try {
			await("the embedded source is ready", () -> {
				assertThat(jvm.isAlive()).as("child JVM alive; its output:%n%s", read(log)).isTrue();
				return read(log).contains(EmbeddedSourceProcess.READY);
			}, Duration.ofMinutes(5));
			server = jvm.toHandle()
				.children()
				.filter((p) -> dataDir(p).isPresent())
				.findFirst()
				.orElseThrow(() -> new AssertionError("no child of the JVM has a " + DATADIR));
			dataDir = dataDir(server).orElseThrow();
			Path directory = Path.of(dataDir.substring(DATADIR.length())).getParent();

			jvm.destroyForcibly();
			assertThat(jvm.waitFor(1, TimeUnit.MINUTES)).as("child JVM exited").isTrue();

			ProcessHandle killedServer = server;
			String argument = dataDir;
			await("the server of the killed application has stopped", () -> !runs(killedServer, argument),
					Duration.ofSeconds(90));
			await("its directory is deleted", () -> !Files.exists(directory), Duration.ofSeconds(90));
		}
		finally {
			jvm.destroyForcibly();
			if (server != null && runs(server, dataDir)) {
				// Only when an assertion failed before the server was stopped.
				server.destroyForcibly();
				ProcessHandle killedServer = server;
				String argument = dataDir;
				await("the server has stopped after SIGKILL", () -> !runs(killedServer, argument), Duration.ofMinutes(1));
				try (Stream<Path> paths = Files.walk(Path.of(dataDir.substring(DATADIR.length())).getParent())) {
					paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
				}
			}
			Files.deleteIfExists(log);
		}
	}

	/** Whether the process still runs the server; one that exited but was not reaped has no arguments. */
	private static boolean runs(ProcessHandle process, String dataDirArgument) {
		return process.info().arguments().map((a) -> Arrays.asList(a).contains(dataDirArgument)).orElse(false);
	}

	private static Optional<String> dataDir(ProcessHandle process) {
		return process.info().arguments().stream().flatMap(Arrays::stream).filter((a) -> a.startsWith(DATADIR)).findFirst();
	}

	private static void await(String what, Await.Condition condition, Duration timeout) throws Exception {
		// Polled: the server is not this JVM's child, so there is no exit event to wait on.
		Await.until(what, timeout, Duration.ofMillis(100), condition);
	}

	private static String read(Path log) {
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return "(cannot read " + log + ": " + ex + ")";
		}
	}

}
