package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.source.SourceSettings;
import io.tributary.source.binlog.ServerInfo.Flavor;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Preflight} against the shared test server. Global settings changed here are restored in
 * {@code finally} blocks, and the checks run on private pools so that no connection opened while a
 * setting is changed stays in a shared pool.
 */
@ExtendWith(DatabaseExtension.class)
class PreflightIT {

	private static final long REPLICA_SERVER_ID = 4242;

	private static final String PLAIN_USER = "tributary_preflight";

	private static final String ROLE_USER = "tributary_preflight_role";

	private static final String ROLE = "tributary_preflight_replicator";

	private static final String PASSWORD = "preflight-Secret-1";

	private static TestDatabase db;

	private static String schema;

	private static String secret;

	private static String where;

	@BeforeAll
	static void prepare(TestDatabase database) {
		db = database;
		schema = db.schema("tables");
		secret = db.schema("secret");
		where = db.server().host() + ":" + db.server().port();
		db.server().execute(schema, "CREATE TABLE good (id INT PRIMARY KEY, v VARCHAR(10))",
				"CREATE TABLE keyless (id INT, v VARCHAR(10))", "CREATE VIEW good_view AS SELECT id, v FROM good",
				"CREATE TABLE dropped (id INT PRIMARY KEY)", "CREATE VIEW broken_view AS SELECT id FROM dropped",
				"DROP TABLE dropped");
		db.server().execute(secret, "CREATE TABLE hidden (id INT PRIMARY KEY)");
		dropAccounts();
		for (String account : accounts(PLAIN_USER)) {
			db.server().execute(null, "CREATE USER " + account + " IDENTIFIED BY '" + PASSWORD + "'",
					"GRANT SELECT ON `" + schema + "`.* TO " + account);
		}
	}

	@AfterAll
	static void dropAccounts() {
		for (String account : accounts(PLAIN_USER)) {
			db.server().execute(null, "DROP USER IF EXISTS " + account);
		}
		for (String account : accounts(ROLE_USER)) {
			db.server().execute(null, "DROP USER IF EXISTS " + account);
		}
		db.server().execute(null, "DROP ROLE IF EXISTS " + role());
	}

	@Test
	void healthyServerPasses() throws SQLException {
		try (HikariDataSource source = pool(db.server().username(), db.server().password())) {
			ServerInfo info = Preflight.check(source, settings(REPLICA_SERVER_ID), List.of(table(schema, "good")));
			assertThat(info.problems()).isEmpty();
			assertThat(info.tableProblems()).isEmpty();
			assertThat(info.isUsable()).isTrue();
			assertThat(info.requireUsable()).isSameAs(info);
			assertThat(info.version()).isEqualTo(db.server().version());
			assertThat(info.serverId()).isEqualTo(1);
			if (db.server().isMariaDb()) {
				assertThat(info.flavor()).isEqualTo(Flavor.MARIADB);
				assertThat(info.gtidMode()).isEqualTo(ServerInfo.MARIADB_GTID);
				assertThat(info.serverUuid()).isNull();
			}
			else {
				assertThat(info.flavor()).isEqualTo(Flavor.MYSQL);
				assertThat(info.gtidMode()).isEqualTo("ON");
				assertThat(info.serverUuid()).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
			}
		}
	}

	@Test
	void statementFormatIsReported() throws SQLException {
		withGlobal("binlog_format", "STATEMENT", () -> assertThat(checkAsTestUser().problems()).containsExactly(
				"binlog_format is STATEMENT on " + where + "; Tributary needs ROW: SET GLOBAL binlog_format = 'ROW' "
						+ "(and set it in the server's configuration file)"));
	}

	@Test
	void minimalRowImageIsReported() throws SQLException {
		withGlobal("binlog_row_image", "MINIMAL", () -> assertThat(checkAsTestUser().problems()).containsExactly(
				"binlog_row_image is MINIMAL on " + where + "; Tributary needs FULL: "
						+ "SET GLOBAL binlog_row_image = 'FULL' (and set it in the server's configuration file)"));
	}

	@Test
	void replicaServerIdEqualToTheSourcesIsReported() throws SQLException {
		long sourceServerId = Long.parseLong(global("server_id"));
		try (HikariDataSource source = pool(db.server().username(), db.server().password())) {
			ServerInfo info = Preflight.check(source, settings(sourceServerId), List.of());
			assertThat(info.problems()).containsExactly("Replica server id " + sourceServerId
					+ " is also the server_id of the source " + where + "; every server in a replication topology "
					+ "needs its own id: set SourceSettings.serverId to a different value");
			assertThat(info.isUsable()).isFalse();
		}
	}

	@Test
	void userWithoutReplicationPrivilegesIsReported() throws SQLException {
		String client = db.server().isMariaDb() ? "BINLOG MONITOR" : "REPLICATION CLIENT";
		try (HikariDataSource source = pool(PLAIN_USER, PASSWORD)) {
			String account = currentAccount(source, PLAIN_USER);
			ServerInfo info = Preflight.check(source, settings(REPLICA_SERVER_ID), List.of());
			assertThat(info.problems()).containsExactly(
					"User " + account + " lacks REPLICATION SLAVE on " + where + ": GRANT REPLICATION SLAVE ON *.* TO "
							+ account,
					"User " + account + " lacks " + client + " on " + where + ": GRANT " + client + " ON *.* TO "
							+ account);
		}
	}

	@Test
	void privilegesGrantedThroughADefaultRoleCount() throws SQLException {
		db.server().execute(null, "CREATE ROLE " + role(),
				"GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO " + role());
		try {
			for (String account : accounts(ROLE_USER)) {
				String defaultRole = db.server().isMariaDb() ? "SET DEFAULT ROLE " + ROLE + " FOR " + account
						: "SET DEFAULT ROLE " + role() + " TO " + account;
				db.server().execute(null, "CREATE USER " + account + " IDENTIFIED BY '" + PASSWORD + "'",
						"GRANT " + role() + " TO " + account, defaultRole);
			}
			try (HikariDataSource source = pool(ROLE_USER, PASSWORD)) {
				ServerInfo info = Preflight.check(source, settings(REPLICA_SERVER_ID), List.of());
				assertThat(info.problems()).isEmpty();
			}
		}
		finally {
			for (String account : accounts(ROLE_USER)) {
				db.server().execute(null, "DROP USER IF EXISTS " + account);
			}
			db.server().execute(null, "DROP ROLE IF EXISTS " + role());
		}
	}

	@Test
	void tablesThatCannotBeReplicatedAreRefusedOneByOne() throws SQLException {
		TableId good = table(schema, "good");
		TableId keyless = table(schema, "keyless");
		TableId missing = table(schema, "missing");
		TableId hidden = table(secret, "hidden");
		TableId view = table(schema, "good_view");
		TableId broken = table(schema, "broken_view");
		try (HikariDataSource source = pool(PLAIN_USER, PASSWORD)) {
			String account = currentAccount(source, PLAIN_USER);
			ServerInfo info = Preflight.check(source, settings(REPLICA_SERVER_ID),
					List.of(good, keyless, missing, hidden, view, broken));
			assertThat(info.problems()).hasSize(2);
			assertThat(info.tableProblems()).containsOnlyKeys(keyless, missing, hidden, view, broken);
			assertThat(info.accepts(good)).isTrue();
			assertThat(info.accepts(keyless)).isFalse();
			assertThat(info.tableProblems().get(keyless)).isEqualTo("Table " + keyless + " on " + where
					+ " has no primary key; Tributary merges changes by key. Add one: ALTER TABLE `" + schema
					+ "`.`keyless` ADD PRIMARY KEY (...), or name the columns of a unique key whose columns are all NOT NULL "
					+ "in the table's TableMapping.key");
			assertThat(info.tableProblems().get(missing)).isEqualTo("Table " + missing + " does not exist on " + where
					+ "; create it or correct the name in PipelineSettings.tables");
			assertThat(info.tableProblems().get(hidden)).isEqualTo("User " + account + " cannot SELECT from " + hidden
					+ " on " + where + ": GRANT SELECT ON `" + secret + "`.`hidden` TO " + account);
			assertThat(info.tableProblems().get(view)).isEqualTo("Table " + view + " on " + where
					+ " is a view, whose rows never appear in the binary log: replicate the tables it selects from "
					+ "instead");
			assertThat(info.tableProblems().get(broken)).startsWith("Table " + broken + " on " + where
					+ " cannot be read (").endsWith("); repair it or remove it from PipelineSettings.tables");
		}
	}

	/**
	 * Sets a global variable, runs the check and restores the variable whatever happens. Setting and
	 * restoring go through a private pool, so no connection of a shared pool sees the changed value.
	 */
	private static void withGlobal(String variable, String value, ThrowingCheck check) throws SQLException {
		String original = global(variable);
		try (HikariDataSource admin = pool(db.server().username(), db.server().password())) {
			try {
				execute(admin, "SET GLOBAL " + variable + " = '" + value + "'");
			}
			catch (SQLException ex) {
				Assumptions.abort("The server refuses SET GLOBAL " + variable + " = '" + value + "': " + ex.getMessage());
			}
			try {
				check.run();
			}
			finally {
				execute(admin, "SET GLOBAL " + variable + " = '" + original + "'");
			}
		}
		assertThat(global(variable)).isEqualTo(original);
	}

	private static void execute(DataSource source, String sql) throws SQLException {
		try (Connection connection = source.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/** Checks as the test user on a private pool, closed before the caller restores any setting. */
	private static ServerInfo checkAsTestUser() throws SQLException {
		try (HikariDataSource source = pool(db.server().username(), db.server().password())) {
			return Preflight.check(source, settings(REPLICA_SERVER_ID), List.of(table(schema, "good")));
		}
	}

	private static String global(String variable) throws SQLException {
		try (Connection connection = db.dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT @@GLOBAL." + variable)) {
			rs.next();
			return rs.getString(1);
		}
	}

	/**
	 * The accounts a test user is created as. An embedded MariaDB has anonymous accounts for
	 * {@code localhost}, which would win over {@code 'user'@'%'} for connections from the loopback
	 * address, so every user also gets a {@code localhost} account.
	 */
	private static List<String> accounts(String user) {
		return List.of("'" + user + "'@'%'", "'" + user + "'@'localhost'");
	}

	/** Returns the account the server authenticated the pool's connections as, quoted as in GRANT. */
	private static String currentAccount(DataSource source, String user) throws SQLException {
		try (Connection connection = source.getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT CURRENT_USER()")) {
			rs.next();
			String current = rs.getString(1);
			assertThat(current).isIn(user + "@%", user + "@localhost");
			return "'" + user + "'@'" + current.substring(user.length() + 1) + "'";
		}
	}

	private static HikariDataSource pool(String username, String password) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(db.server().jdbcUrl(null));
		config.setUsername(username);
		config.setPassword(password);
		config.setMaximumPoolSize(1);
		config.setMinimumIdle(0);
		config.setPoolName("preflight-" + username);
		return new HikariDataSource(config);
	}

	private static SourceSettings settings(long serverId) {
		return new SourceSettings(db.server().host(), db.server().port(), db.server().username(),
				db.server().password(), serverId, null, null);
	}

	private static TableId table(String schema, String table) {
		return new TableId(schema, table);
	}

	private static String role() {
		return db.server().isMariaDb() ? ROLE : "'" + ROLE + "'@'%'";
	}

	@FunctionalInterface
	private interface ThrowingCheck {

		void run() throws SQLException;

	}

}
