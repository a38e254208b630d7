package io.tributary.source.binlog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.tributary.settings.SettingNames;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestCertificateAuthority;
import io.tributary.test.TestDatabase;
import io.tributary.test.TestDatabaseServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link SourceSettings#sslMode()} on the replication connection ({@link BinlogChangeSource}) and
 * on JDBC connections from {@link SourceJdbc#url(SourceSettings)}, against the embedded server's
 * certificate for {@code 127.0.0.1} issued by the test CA.
 *
 * <p>Every connection logs in as an account created {@code REQUIRE SSL}, which the server admits
 * over TLS only: a connection that gets in is encrypted, and a plain one is refused with "Access
 * denied". JDBC connections also show their cipher in {@code Ssl_cipher}, and the replication
 * connection shows up as that account's {@code Binlog Dump} thread.
 */
@ExtendWith(DatabaseExtension.class)
class TlsIT {

	private static final String USER = "tributary_tls";

	private static final String PASSWORD = "Tls-only-7";

	private static final String[] USER_HOSTS = { "%", "localhost" };

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private TestDatabaseServer server;

	@BeforeAll
	static void createTlsOnlyAccount(TestDatabase db) {
		TestDatabaseServer server = db.server();
		assumeTrue(offersTls(server), "Skipping: the test database server " + server + " does not offer TLS "
				+ "(have_ssl is not YES); start it with --ssl-cert and --ssl-key");
		dropAccount(db);
		for (String host : USER_HOSTS) {
			String account = "'" + USER + "'@'" + host + "'";
			server.execute(null, "CREATE USER " + account + " IDENTIFIED BY '" + PASSWORD + "' REQUIRE SSL",
					"GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO " + account);
		}
	}

	@AfterAll
	static void dropAccount(TestDatabase db) {
		for (String host : USER_HOSTS) {
			db.server().execute(null, "DROP USER IF EXISTS '" + USER + "'@'" + host + "'");
		}
	}

	@BeforeEach
	void server(TestDatabase db) {
		this.server = db.server();
	}

	@Test
	void requiredEncryptsBothConnections() throws Exception {
		SourceSettings settings = settings(this.server.host(), SslMode.REQUIRED, null);
		assertThat(SourceJdbc.url(settings)).contains("sslMode=REQUIRED").doesNotContain("allowPublicKeyRetrieval");
		assertJdbcEncrypted(settings);
		assertReplicates(settings);
	}

	@Test
	void preferredEncryptsWhenTheServerOffersTls() throws Exception {
		SourceSettings settings = settings(this.server.host(), SslMode.PREFERRED, null);
		assertJdbcEncrypted(settings);
		assertReplicates(settings);
	}

	@Test
	void disabledConnectsInPlainTextAndIsRefusedByTheTlsOnlyAccount() throws Exception {
		SourceSettings settings = settings(this.server.host(), SslMode.DISABLED, null);
		assertThatThrownBy(() -> jdbc(settings).close()).isInstanceOf(SQLException.class)
			.hasMessageContaining("Access denied");
		assertThat(replicationError(settings)).contains("Access denied");
		// The same mode with the ordinary test account: the connection is plain.
		Properties credentials = credentials(this.server.username(), this.server.password());
		try (Connection connection = DriverManager.getConnection(SourceJdbc.url(settings), credentials)) {
			assertThat(sessionStatus(connection, "Ssl_cipher")).isEmpty();
		}
	}

	@Test
	void verifyCaAcceptsTheCertificateOfTheConfiguredCa() throws Exception {
		Path ca = serverCa();
		SourceSettings settings = settings(this.server.host(), SslMode.VERIFY_CA, ca);
		assertThat(SourceJdbc.url(settings)).contains("sslMode=VERIFY_CA", "trustCertificateKeyStoreUrl=file",
				"trustCertificateKeyStoreType=PKCS12");
		assertJdbcEncrypted(settings);
		assertReplicates(settings);
	}

	@Test
	void verifyCaDoesNotCheckTheHostName() throws Exception {
		// The certificate names 127.0.0.1 only; localhost reaches the same server.
		SourceSettings settings = settings("localhost", SslMode.VERIFY_CA, serverCa());
		assertJdbcEncrypted(settings);
		assertReplicates(settings);
	}

	@Test
	void verifyCaRefusesACertificateOfAnotherCa(@TempDir Path directory) throws Exception {
		serverCa();
		Path otherCa = TestCertificateAuthority.create("Some Other CA").writeCertificate(directory.resolve("other.pem"));
		SourceSettings settings = settings(this.server.host(), SslMode.VERIFY_CA, otherCa);
		assertThatThrownBy(() -> jdbc(settings).close()).isInstanceOf(SQLException.class)
			.hasStackTraceContaining("CertPathValidatorException");
		assertThat(replicationError(settings)).contains("is not trusted by the CA file " + otherCa)
			.contains("SourceSettings.sslCa");
	}

	@Test
	void verifyCaWithoutACaFileUsesTheJvmTrustStore() throws Exception {
		serverCa();
		SourceSettings settings = settings(this.server.host(), SslMode.VERIFY_CA, null);
		assertThat(SourceJdbc.url(settings)).doesNotContain("trustCertificateKeyStore");
		assertThatThrownBy(() -> jdbc(settings).close()).isInstanceOf(SQLException.class);
		assertThat(replicationError(settings)).contains("is not trusted by the JVM's trust store");
	}

	@Test
	void verifyIdentityAcceptsTheHostTheCertificateNames() throws Exception {
		SourceSettings settings = settings("127.0.0.1", SslMode.VERIFY_IDENTITY, serverCa());
		assertJdbcEncrypted(settings);
		assertReplicates(settings);
	}

	@Test
	void verifyIdentityRefusesAHostTheCertificateDoesNotName() throws Exception {
		SourceSettings settings = settings("localhost", SslMode.VERIFY_IDENTITY, serverCa());
		assertThatThrownBy(() -> jdbc(settings).close()).isInstanceOf(SQLException.class)
			.hasStackTraceContaining("Server identity verification failed");
		assertThat(replicationError(settings)).contains("does not name host 'localhost'");
	}

	private Path serverCa() {
		Path ca = this.server.caCertificate().orElse(null);
		assumeTrue(ca != null && Files.isRegularFile(ca), "Skipping: the CA of " + this.server + "'s certificate is "
				+ "not known (external server); only the embedded servers use a certificate from the test CA");
		return ca;
	}

	private SourceSettings settings(String host, SslMode mode, Path ca) {
		long serverId = 950_000 + ThreadLocalRandom.current().nextLong(50_000);
		return new SourceSettings(host, this.server.port(), USER, PASSWORD, serverId, Duration.ofSeconds(10),
				Duration.ofSeconds(5), mode, (ca != null) ? ca.toString() : null);
	}

	private static Properties credentials(String user, String password) {
		Properties credentials = new Properties();
		credentials.setProperty("user", user);
		credentials.setProperty("password", password);
		return credentials;
	}

	private static Connection jdbc(SourceSettings settings) throws SQLException {
		return DriverManager.getConnection(SourceJdbc.url(settings),
				credentials(settings.username(), settings.password()));
	}

	/** Connects over JDBC as the TLS-only account and checks the session's cipher. */
	private static void assertJdbcEncrypted(SourceSettings settings) throws SQLException {
		try (Connection connection = jdbc(settings)) {
			assertThat(sessionStatus(connection, "Ssl_cipher")).as("Ssl_cipher of the JDBC session").isNotEmpty();
			try (Statement statement = connection.createStatement();
					ResultSet rs = statement.executeQuery("SELECT CURRENT_USER()")) {
				rs.next();
				assertThat(rs.getString(1)).startsWith(USER + "@");
			}
		}
	}

	private static String sessionStatus(Connection connection, String name) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW SESSION STATUS LIKE '" + name + "'")) {
			return rs.next() ? rs.getString(2) : "";
		}
	}

	/**
	 * Starts a binlog reader as the TLS-only account and waits until it is connected and the
	 * server shows its dump thread.
	 */
	private void assertReplicates(SourceSettings settings) throws Exception {
		DataSource admin = this.server.dataSource(null);
		try (BinlogChangeSource source = new BinlogChangeSource(settings, SettingNames.ENGINE, new IgnoringHandler())) {
			source.start(SourceQueries.head(admin));
			Await.until("binlog reader with " + settings.sslMode() + " connected", TIMEOUT, () -> {
				if (source.isConnected() && dumpThreads(admin) > 0) {
					return true;
				}
				assertThat(source.lastError()).as("error of the binlog reader with " + settings.sslMode()).isNull();
				return false;
			});
		}
	}

	/** Starts a binlog reader that is expected to fail, and returns its first error. */
	private String replicationError(SourceSettings settings) throws Exception {
		try (BinlogChangeSource source = new BinlogChangeSource(settings, SettingNames.ENGINE, new IgnoringHandler())) {
			source.start(SourceQueries.head(this.server.dataSource(null)));
			Await.until("binlog reader with " + settings.sslMode() + " failed", TIMEOUT, () -> {
				if (source.lastError() != null) {
					return true;
				}
				assertThat(source.isConnected()).as("binlog reader with " + settings.sslMode() + " connected").isFalse();
				return false;
			});
			assertThat(source.isConnected()).isFalse();
			return source.lastError();
		}
	}

	private static int dumpThreads(DataSource admin) throws SQLException {
		try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = '"
						+ USER + "' AND COMMAND LIKE 'Binlog Dump%'")) {
			rs.next();
			return rs.getInt(1);
		}
	}

	private static boolean offersTls(TestDatabaseServer server) {
		try (Connection connection = server.dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW GLOBAL VARIABLES LIKE 'have_ssl'")) {
			return rs.next() && "YES".equalsIgnoreCase(rs.getString(2));
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot read have_ssl from " + server + ": " + ex.getMessage(), ex);
		}
	}

}
