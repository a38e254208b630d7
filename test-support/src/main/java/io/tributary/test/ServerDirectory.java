package io.tributary.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fresh directory under {@code java.io.tmpdir} for one embedded server's files, marked with the
 * JVM that owns it, so that the server does not outlive that JVM even when the JVM is killed with
 * SIGKILL and runs no shutdown hook.
 *
 * <p>Two guards cover that case:
 *
 * <ol>
 *   <li>{@link #guard(ProcessHandle)} starts a {@link ServerWatchdog}, a small shell process that
 *       stops the server and deletes this directory as soon as this JVM is gone.
 *   <li>{@link #create(String)} first runs {@link StaleServers#end(Path)}, which ends the servers of
 *       directories whose owning JVM has died and deletes those directories. This catches what the
 *       watchdog could not: a watchdog killed together with its JVM, or a JVM killed while its server
 *       was still starting.
 * </ol>
 *
 * <p>Neither ever ends a server whose owning JVM is alive, so builds running side by side on one
 * machine do not stop each other's servers. Directory names start with {@value #NAME_PREFIX}; each
 * holds the owner record {@value #OWNER_RECORD}.
 */
public final class ServerDirectory implements AutoCloseable {

	static final String NAME_PREFIX = "tributary-";
	static final String OWNER_RECORD = "tributary-owner.properties";
	static final String DATADIR_OPTION = "--datadir=";

	private static final Logger LOG = LoggerFactory.getLogger(ServerDirectory.class);

	private final Path path;
	private ServerWatchdog watchdog;

	private ServerDirectory(Path path) {
		this.path = path;
	}

	/**
	 * Ends servers left behind by dead JVMs, then creates a directory owned by this JVM.
	 *
	 * @param prefix start of the directory's name; must begin with {@value #NAME_PREFIX}
	 */
	public static ServerDirectory create(String prefix) throws IOException {
		if (!prefix.startsWith(NAME_PREFIX)) {
			throw new IllegalArgumentException("server directory names start with " + NAME_PREFIX + ": " + prefix);
		}
		Path root = Path.of(System.getProperty("java.io.tmpdir"));
		StaleServers.end(root);
		Path path = Files.createTempDirectory(root, prefix);
		StaleServers.Owner.thisJvm().write(path.resolve(OWNER_RECORD));
		return new ServerDirectory(path);
	}

	/** The directory. */
	public Path path() {
		return path;
	}

	/**
	 * Has a watchdog stop the server and delete this directory if this JVM dies before
	 * {@link #close()}. The server's command line must carry a {@code --datadir=} inside this
	 * directory. Does nothing where there is no {@code /proc} to check process command lines. A
	 * server started again in this directory is guarded again; the watchdog of its earlier process
	 * is released.
	 *
	 * @param server the running server process
	 */
	public void guard(ProcessHandle server) {
		if (!StaleServers.SUPPORTED) {
			return;
		}
		ServerWatchdog earlier = watchdog;
		watchdog = null;
		if (earlier != null) {
			earlier.release();
		}
		String dataDir = server.info().arguments().stream().flatMap(Arrays::stream)
				.filter((argument) -> argument.startsWith(DATADIR_OPTION)).findFirst().orElse(null);
		if (dataDir == null) {
			LOG.warn("Cannot read the {} of server process {}; it will keep running if this JVM is killed",
					DATADIR_OPTION, server.pid());
			return;
		}
		try {
			watchdog = ServerWatchdog.start(server.pid(), dataDir, path);
		} catch (IOException e) {
			LOG.warn("Cannot start the watchdog of server process {} ({}); if this JVM is killed, the next start "
					+ "ends the server", server.pid(), e.getMessage());
		}
	}

	/** Releases the watchdog and deletes the directory; call once the server has stopped. */
	@Override
	public void close() {
		ServerWatchdog w = watchdog;
		watchdog = null;
		if (w != null) {
			w.release();
		}
		Local.deleteQuietly(path);
	}
}
