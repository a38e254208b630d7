package io.tributary.test;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One way of providing a database server: an embedded MariaDB, an embedded MySQL, or an external
 * server that already runs.
 */
interface ServerBackend {

	/** Starts the server if this backend owns one; returns once it accepts connections. */
	void start() throws Exception;

	/** "mariadb" or "mysql"; null if it must be detected from the server's version string. */
	String knownFlavor();

	String host();

	int port();

	/** The account used once, right after start, to create the test account: root without a password. */
	default String bootstrapUser() {
		return "root";
	}

	default String bootstrapPassword() {
		return "";
	}

	/**
	 * SQL run as the bootstrap account right after start, before anything else; it must leave the
	 * server with the test account in place. Empty for an external server, whose accounts are not
	 * touched.
	 */
	String[] bootstrapStatements();

	/** The account tests use: the test account the bootstrap statements create, unless overridden. */
	default String username() {
		return TestDatabaseServer.TEST_USER;
	}

	default String password() {
		return TestDatabaseServer.TEST_PASSWORD;
	}

	/** Extra JDBC URL parameters (already encoded, "k=v" pairs joined by {@code &}), or an empty string. */
	default String extraUrlParameters() {
		return "";
	}

	/**
	 * PEM file of the certificate authority that signed the server's TLS certificate, once the
	 * server has started; empty if it is not known.
	 */
	default Optional<Path> caCertificate() {
		return Optional.empty();
	}

	/** Stops the server and deletes its files if this backend owns them; never throws. */
	void stop();

	/**
	 * Stops the server process, and only it: port, data directory and files stay, so
	 * {@link #startProcess()} starts the same server again. Returns once the process has ended.
	 *
	 * @param kill SIGKILL rather than a clean shutdown
	 */
	default void stopProcess(boolean kill) throws Exception {
		throw new UnsupportedOperationException(this + " cannot be stopped and started by a test");
	}

	/** Starts the server process again after {@link #stopProcess(boolean)}; returns once it accepts connections. */
	default void startProcess() throws Exception {
		throw new UnsupportedOperationException(this + " cannot be stopped and started by a test");
	}

	/**
	 * SQL run as the test account on a new server of this kind to make it a replica of
	 * {@code primary} and start replicating: by GTID where {@link #gtids()}, else from the primary's
	 * first binlog file.
	 */
	default String[] replicaStatements(ServerBackend primary) {
		throw new UnsupportedOperationException(this + " cannot be made a replica by a test");
	}

	/** Whether the server writes GTIDs: always on MariaDB, where {@code gtid_mode} is ON on MySQL. */
	default boolean gtids() {
		return true;
	}
}
