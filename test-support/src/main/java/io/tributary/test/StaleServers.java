package io.tributary.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends embedded servers whose owning JVM has died, and deletes their directories: the clean-up a
 * JVM killed with SIGKILL could not do, run by the next JVM that starts a server.
 *
 * <p>A server directory is stale when its owner record names a JVM of this machine (same boot,
 * same pid namespace) that no longer runs: no process has its pid, or the one that has started at
 * another time. Records of other machines or containers sharing the directory are left alone,
 * because their pids mean nothing here. In a stale directory, every process whose
 * {@code --datadir=} lies inside it is sent SIGTERM, then SIGKILL after 60 seconds;
 * the directory is deleted once none is left.
 */
final class StaleServers {

	/** Whether process command lines can be read ({@code /proc}); without them nothing is ended. */
	static final boolean SUPPORTED = Files.isReadable(Path.of("/proc/self/cmdline"));

	private static final Logger LOG = LoggerFactory.getLogger(StaleServers.class);
	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
	private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);
	/** Two JDKs may round a process's start time differently; a recycled pid starts much later. */
	private static final long START_TOLERANCE_MS = 2_000;
	private static final String MACHINE = machine();

	private StaleServers() {}

	/** Ends the servers of stale directories named {@code tributary-*} in {@code root}. */
	static void end(Path root) {
		if (!SUPPORTED) {
			return;
		}
		try (DirectoryStream<Path> directories = Files.newDirectoryStream(root, ServerDirectory.NAME_PREFIX + "*")) {
			for (Path directory : directories) {
				Optional<Owner> owner = Owner.read(directory.resolve(ServerDirectory.OWNER_RECORD));
				if (owner.isPresent() && owner.get().isDeadJvmOfThisMachine()) {
					endServersOf(directory, owner.get());
				}
			}
		} catch (IOException e) {
			LOG.debug("Cannot look for stale server directories in {}: {}", root, e.toString());
		}
	}

	private static void endServersOf(Path directory, Owner owner) {
		Path real = realPath(directory);
		for (ProcessHandle process : ProcessHandle.allProcesses().toList()) {
			String dataDir = dataDirIn(process, real);
			if (dataDir == null) {
				continue;
			}
			LOG.info("Ending embedded server process {} of {}: the JVM {} that started it has died", process.pid(),
					directory, owner.pid());
			if (!stop(process, dataDir)) {
				LOG.warn("Embedded server process {} of {} does not stop; leaving its directory", process.pid(),
						directory);
				return;
			}
		}
		Local.deleteQuietly(directory);
	}

	/** Sends SIGTERM, then SIGKILL; returns whether the process no longer runs the server. */
	private static boolean stop(ProcessHandle server, String dataDir) {
		server.destroy();
		if (awaitGone(server, dataDir, STOP_TIMEOUT)) {
			return true;
		}
		server.destroyForcibly();
		return awaitGone(server, dataDir, KILL_TIMEOUT);
	}

	private static boolean awaitGone(ProcessHandle server, String dataDir, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (runs(server, dataDir)) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			// Poll interval while a server shuts down; it is not our child, so there is no exit event.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
		}
		return true;
	}

	/**
	 * Whether the process runs with this exact {@code --datadir=} argument. A process that has exited
	 * but was not yet reaped by its new parent has an empty command line, and so does not.
	 */
	static boolean runs(ProcessHandle process, String dataDirArgument) {
		return process.info().arguments().map((arguments) -> Arrays.asList(arguments).contains(dataDirArgument))
				.orElse(false);
	}

	/** The process's {@code --datadir=} argument if it names a directory inside {@code directory}, else null. */
	private static String dataDirIn(ProcessHandle process, Path directory) {
		String[] arguments = process.info().arguments().orElse(new String[0]);
		for (String argument : arguments) {
			if (argument.startsWith(ServerDirectory.DATADIR_OPTION)) {
				try {
					Path dataDir = realPath(Path.of(argument.substring(ServerDirectory.DATADIR_OPTION.length())));
					return dataDir.startsWith(directory) ? argument : null;
				} catch (InvalidPathException e) {
					return null;
				}
			}
		}
		return null;
	}

	private static Path realPath(Path path) {
		try {
			return path.toRealPath();
		} catch (IOException e) {
			return path.toAbsolutePath().normalize();
		}
	}

	/** The boot and pid namespace this JVM runs in; pids are only comparable within one. */
	private static String machine() {
		try {
			return Files.readString(Path.of("/proc/sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).trim()
					+ " " + Files.readSymbolicLink(Path.of("/proc/self/ns/pid"));
		} catch (IOException | UnsupportedOperationException e) {
			return "";
		}
	}

	/**
	 * The JVM that owns a server directory.
	 *
	 * @param pid its process id
	 * @param startMillis when it started, in epoch milliseconds; 0 if unknown
	 * @param machine the boot and pid namespace it ran in
	 */
	record Owner(long pid, long startMillis, String machine) {

		static Owner thisJvm() {
			ProcessHandle self = ProcessHandle.current();
			return new Owner(self.pid(), self.info().startInstant().map(Instant::toEpochMilli).orElse(0L), MACHINE);
		}

		/** Writes the record so that a reader sees either none or all of it. */
		void write(Path file) throws IOException {
			Properties properties = new Properties();
			properties.setProperty("owner.pid", Long.toString(pid));
			properties.setProperty("owner.started", Long.toString(startMillis));
			properties.setProperty("machine", machine);
			Path partial = file.resolveSibling(file.getFileName() + ".partial");
			try (OutputStream out = Files.newOutputStream(partial)) {
				properties.store(out, "JVM that owns this embedded server directory");
			}
			Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		}

		static Optional<Owner> read(Path file) {
			Properties properties = new Properties();
			try (InputStream in = Files.newInputStream(file)) {
				properties.load(in);
				return Optional.of(new Owner(Long.parseLong(properties.getProperty("owner.pid")),
						Long.parseLong(properties.getProperty("owner.started")), properties.getProperty("machine")));
			} catch (IOException | RuntimeException e) {
				return Optional.empty(); // no record (yet), or not ours
			}
		}

		boolean isDeadJvmOfThisMachine() {
			if (machine.isEmpty() || !machine.equals(MACHINE)) {
				return false;
			}
			Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
			if (process.isEmpty()) {
				return true;
			}
			Optional<Instant> started = process.get().info().startInstant();
			return startMillis != 0 && started.isPresent()
					&& Math.abs(started.get().toEpochMilli() - startMillis) > START_TOLERANCE_MS;
		}
	}
}
