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
}
