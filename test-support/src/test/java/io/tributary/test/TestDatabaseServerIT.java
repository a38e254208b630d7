package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(DatabaseExtension.class)
class TestDatabaseServerIT {

	private final TestDatabase db;
	private final TestDatabaseServer server;

	TestDatabaseServerIT(TestDatabase db) {
		this.db = db;
		this.server = db.server();
	}

	private static boolean embedded() {
		return TestDatabaseServer.embeddedSelected();
	}

	/** A server this JVM started: embedded, or a container of the mysql-latest profile. */
	private static boolean started() {
		String external = System.getenv(TestDatabaseServer.JDBC_URL_ENV);
		return external == null || external.isBlank();
	}

	private static String lane() {
		return System.getProperty(TestDatabaseServer.FLAVOR_PROPERTY, "mariadb");
	}

	@Test
	void sameServerForTheWholeJvm() {
		assertThat(TestDatabaseServer.shared()).isSameAs(server);
	}

	@Test
	void flavorMatchesTheSelectedServer() {
		String version = server.version();
		assertThat(server.isMariaDb()).isEqualTo(version.toLowerCase().contains("mariadb"));
		assertThat(server.flavor()).isIn("mariadb", "mysql");
		if (embedded()) {
			assertThat(server.flavor()).isEqualTo(System.getProperty(TestDatabaseServer.FLAVOR_PROPERTY, "mariadb"));
			assertThat(server.host()).isEqualTo("127.0.0.1");
			assertThat(version).startsWith(server.isMariaDb() ? "10.11." : "8.0.31");
		} else if (started()) {
			assertThat(server.flavor()).isEqualTo("mysql");
			assertThat(version).startsWith(lane().equals("mysql84") ? "8.4." : "9.");
		}
	}

	@Test
	void binlogIsConfiguredForRowReplication() throws SQLException {
		try (Connection c = server.dataSource(null).getConnection(); Statement st = c.createStatement()) {
			try (ResultSet rs = st.executeQuery("SELECT @@log_bin, @@binlog_format, @@binlog_row_image, @@server_id")) {
				rs.next();
				assertThat(rs.getInt(1)).isEqualTo(1);
				assertThat(rs.getString(2)).isEqualTo("ROW");
				assertThat(rs.getString(3)).isEqualTo("FULL");
				if (started()) {
					assertThat(rs.getLong(4)).isEqualTo(1);
				}
			}
			if (!server.isMariaDb()) {
				try (ResultSet rs = st.executeQuery("SELECT @@gtid_mode, @@enforce_gtid_consistency")) {
					rs.next();
					assertThat(rs.getString(1)).isEqualTo("ON");
					assertThat(rs.getString(2)).isEqualTo("ON");
				}
			}
			if (started()) {
				try (ResultSet rs = st.executeQuery("SELECT @@bind_address, @@character_set_server")) {
					rs.next();
					// A container listens on every interface of its own network; Docker publishes the port.
					if (embedded()) {
						assertThat(rs.getString(1)).isEqualTo("127.0.0.1");
					}
					assertThat(rs.getString(2)).isEqualTo("utf8mb4");
				}
			}
			// A replication client needs the binlog position and file list.
			try (ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
				assertThat(rs.next()).isTrue();
			}
		}
	}

	@Test
	void jdbcUrlCarriesTheRequiredParameters() {
		String url = server.jdbcUrl("some_schema");
		assertThat(url).startsWith("jdbc:mysql://" + server.host() + ":" + server.port() + "/some_schema?")
				.contains("useSSL=false", "allowPublicKeyRetrieval=true", "rewriteBatchedStatements=true");
		assertThat(server.jdbcUrl(null)).contains(":" + server.port() + "/?");
	}

	@Test
	void passwordAccountWorksAndWrongPasswordFails() throws SQLException {
		try (Connection c = DriverManager.getConnection(server.jdbcUrl(null), server.username(), server.password());
				Statement st = c.createStatement();
				ResultSet rs = st.executeQuery("SELECT CURRENT_USER()")) {
			rs.next();
			assertThat(rs.getString(1)).startsWith(server.username() + "@");
		}
		assertThatThrownBy(() -> DriverManager.getConnection(server.jdbcUrl(null), server.username(), "wrong"))
				.isInstanceOf(SQLException.class);
	}

	@Test
	void startedServerHasTributaryAccountWithReplicationRightsAndRootOverTcp() throws SQLException {
		assumeTrue(started(), "only for servers this JVM starts");
		assertThat(server.username()).isEqualTo("tributary");
		assertThat(server.password()).isEqualTo("tributary");
		try (Connection c = server.dataSource(null).getConnection(); Statement st = c.createStatement();
				ResultSet rs = st.executeQuery("SHOW GRANTS")) {
			StringBuilder grants = new StringBuilder();
			while (rs.next()) {
				grants.append(rs.getString(1)).append('\n');
			}
			// MariaDB shows ALL PRIVILEGES; MySQL 8 lists the privileges one by one.
			assertThat(grants.toString()).contains("ON *.* TO").contains("WITH GRANT OPTION");
			if (!grants.toString().contains("ALL PRIVILEGES ON *.*")) {
				assertThat(grants.toString()).contains("REPLICATION SLAVE", "REPLICATION CLIENT", "SUPER");
			}
		}
		try (Connection c = DriverManager.getConnection(server.jdbcUrl(null), "root", "");
				Statement st = c.createStatement();
				ResultSet rs = st.executeQuery("SELECT 1")) {
			assertThat(rs.next()).isTrue();
		}
	}

	@Test
	void createSchemaIsolatesAndResets() throws SQLException {
		String a = db.schema("iso_a");
		String b = db.schema("iso_b");
		assertThat(a).isEqualTo("t_testdatabaseserverit_iso_a");
		assertThat(db.schema("iso_a")).isEqualTo(a);
		server.execute(a, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1), (2)");
		server.execute(b, "CREATE TABLE t (id INT PRIMARY KEY)");
		assertThat(count(server.dataSource(a), "t")).isEqualTo(2);
		assertThat(count(server.dataSource(b), "t")).isZero();
		assertThat(count(server.dataSource(null), a + ".t")).isEqualTo(2);

		server.createSchema(a);
		try (Connection c = server.dataSource(null).getConnection(); Statement st = c.createStatement();
				ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
						+ a + "'")) {
			rs.next();
			assertThat(rs.getInt(1)).isZero();
		}
		assertThat(server.dataSource(a)).isSameAs(server.dataSource(a));
		assertThatThrownBy(() -> server.createSchema("bad name; DROP")).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void comparisonReportsIdenticalCopiesAsEqual() {
		String schema = db.schema("cmp_equal");
		DataSource ds = server.dataSource(schema);
		Workload.createOrdersTable(ds, schema + ".orders", 2500);
		copy(schema, "orders", "copy");

		TableComparison.Result result = TableComparison.compare(ds, schema + ".orders", ds, schema + ".copy");

		assertThat(result.equal()).as(result.toString()).isTrue();
		assertThat(result.leftRows()).isEqualTo(2500);
		assertThat(result.rightRows()).isEqualTo(2500);
		assertThat(result.differences()).isEmpty();
		assertThat(result.toString()).endsWith("equal");
		TableComparison.assertEqual(ds, schema + ".orders", ds, schema + ".copy");
	}

	@Test
	void comparisonDetectsMissingExtraAndChangedRows() {
		String schema = db.schema("cmp_diff");
		DataSource ds = server.dataSource(schema);
		String left = schema + ".orders";
		Workload.createOrdersTable(ds, left, 300);

		copy(schema, "orders", "missing");
		server.execute(schema, "DELETE FROM missing WHERE id = 42");
		assertDifferences(ds, left, schema + ".missing", "key [42]: only in left");

		copy(schema, "orders", "extra");
		server.execute(schema, "INSERT INTO extra (id, customer_id, status, amount, created_at)"
				+ " VALUES (1000, 1, 'NEW', 1.00, '2024-01-01 00:00:00')");
		assertDifferences(ds, left, schema + ".extra", "key [1000]: only in right");

		copy(schema, "orders", "amount");
		server.execute(schema, "UPDATE orders SET amount = 1.00 WHERE id = 7",
				"UPDATE amount SET amount = 2.00 WHERE id = 7");
		assertDifferences(ds, left, schema + ".amount", "key [7]: column amount left=1.00 right=2.00");
		server.execute(schema, "UPDATE orders SET amount = 2.00 WHERE id = 7");

		copy(schema, "orders", "nulls");
		server.execute(schema, "UPDATE orders SET note = NULL WHERE id = 9",
				"UPDATE nulls SET note = '' WHERE id = 9");
		assertDifferences(ds, left, schema + ".nulls", "key [9]: column note left=NULL right=''");
	}

	@Test
	void comparisonSeesMicrosecondsJsonAndBlobBytes() {
		String schema = db.schema("cmp_exact");
		DataSource ds = server.dataSource(schema);
		String left = schema + ".orders";
		Workload.createOrdersTable(ds, left, 50);
		server.execute(schema, "UPDATE orders SET payload = '{\"a\": 1}', data = x'00FF10' WHERE id = 5",
				"SET time_zone = '+00:00'",
				"UPDATE orders SET updated_at = '2024-03-01 10:00:00.000001' WHERE id = 6",
				"SET time_zone = DEFAULT");
		copy(schema, "orders", "exact");
		server.execute(schema,
				"UPDATE exact SET created_at = created_at + INTERVAL 1 MICROSECOND WHERE id = 3",
				"UPDATE exact SET payload = '{\"a\": 2}', data = x'00FF11' WHERE id = 5",
				"SET time_zone = '+00:00'",
				"UPDATE exact SET updated_at = '2024-03-01 10:00:00.000002' WHERE id = 6",
				"SET time_zone = DEFAULT");

		TableComparison.Result result = TableComparison.compare(ds, left, ds, schema + ".exact");

		assertThat(result.differenceCount()).as(result.toString()).isEqualTo(4);
		assertThat(result.differences()).anySatisfy(d -> assertThat(d).startsWith("key [3]: column created_at left="));
		assertThat(result.differences()).contains("key [5]: column data left=0x00FF10 right=0x00FF11",
				"key [6]: column updated_at left=2024-03-01 10:00:00.000001 right=2024-03-01 10:00:00.000002");
		assertThat(result.differences()).anySatisfy(d -> assertThat(d).startsWith("key [5]: column payload left='{"));
	}

	@Test
	void comparisonLimitsReportedDifferencesAndAssertEqualFails() {
		String schema = db.schema("cmp_many");
		DataSource ds = server.dataSource(schema);
		Workload.createOrdersTable(ds, schema + ".orders", 100);
		copy(schema, "orders", "fewer");
		server.execute(schema, "DELETE FROM fewer WHERE id <= 30");

		TableComparison.Result result = TableComparison.compare(ds, schema + ".orders", ds, schema + ".fewer");

		assertThat(result.equal()).isFalse();
		assertThat(result.differenceCount()).isEqualTo(30);
		assertThat(result.differences()).hasSize(TableComparison.MAX_REPORTED_DIFFERENCES)
				.startsWith("key [1]: only in left", "key [2]: only in left");
		assertThat(result.leftRows()).isEqualTo(100);
		assertThat(result.rightRows()).isEqualTo(70);
		assertThatThrownBy(() -> TableComparison.assertEqual(ds, schema + ".orders", ds, schema + ".fewer"))
				.isInstanceOf(AssertionError.class)
				.hasMessageContaining("30 differences")
				.hasMessageContaining("key [1]: only in left");
	}

	@Test
	void comparisonHandlesCaseInsensitiveStringAndCompositeKeys() {
		String schema = db.schema("cmp_keys");
		DataSource ds = server.dataSource(schema);
		// Keys whose collation order differs from their byte order: case, accents, trailing spaces.
		List<String> codes = List.of("a", "B", "c", "\u00C4rger", "Zebra", "zz", "\u00E9t\u00E9", "emoji \uD83D\uDE80",
				"x ", "_under", "10", "9");
		for (String table : List.of("s1", "s2")) {
			server.execute(schema, "CREATE TABLE " + table + " (code VARCHAR(40) NOT NULL PRIMARY KEY, v INT)"
					+ " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci",
					"CREATE TABLE " + table.replace('s', 'c') + " (k1 INT NOT NULL, k2 VARCHAR(20) NOT NULL, v TEXT,"
							+ " PRIMARY KEY (k1, k2))");
			List<String> statements = new ArrayList<>();
			int i = 0;
			for (String code : codes) {
				statements.add("INSERT INTO " + table + " VALUES ('" + code + "', " + i + ")");
				statements.add("INSERT INTO " + table.replace('s', 'c') + " VALUES (" + (i % 3) + ", '" + code
						+ "', 'v" + i + "')");
				i++;
			}
			server.execute(schema, statements.toArray(String[]::new));
		}
		assertThat(TableComparison.compare(ds, schema + ".s1", ds, schema + ".s2").equal()).isTrue();
		assertThat(TableComparison.compare(ds, schema + ".c1", ds, schema + ".c2").equal()).isTrue();

		server.execute(schema, "DELETE FROM s2 WHERE code = 'zz'", "UPDATE c2 SET v = 'changed' WHERE k2 = 'B'");
		assertDifferences(ds, schema + ".s1", schema + ".s2", "key [zz]: only in left");
		assertDifferences(ds, schema + ".c1", schema + ".c2", "key [1, B]: column v left='v1' right='changed'");
	}

	@Test
	void comparisonRejectsTablesWithoutPrimaryKey() {
		String schema = db.schema("cmp_nopk");
		server.execute(schema, "CREATE TABLE heap (v INT)");
		DataSource ds = server.dataSource(schema);
		assertThatThrownBy(() -> TableComparison.compare(ds, schema + ".heap", ds, schema + ".heap"))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no primary key");
		assertThatThrownBy(() -> TableComparison.compare(ds, schema + ".absent", ds, schema + ".heap"))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not exist");
	}

	@Test
	void comparisonRestoresSessionSettings() throws SQLException {
		String schema = db.schema("cmp_session");
		server.execute(schema, "CREATE TABLE k (id INT PRIMARY KEY)");
		// A data source whose single connection is reused, so the session state can be observed.
		try (Connection c = DriverManager.getConnection(server.jdbcUrl(schema), server.username(), server.password())) {
			try (Statement st = c.createStatement()) {
				st.execute("SET SESSION time_zone = '+02:00'");
			}
			DataSource single = new SingleConnectionDataSource(c);
			assertThat(TableComparison.compare(single, schema + ".k", server.dataSource(schema), schema + ".k").equal())
					.isTrue();
			try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@session.time_zone")) {
				rs.next();
				assertThat(rs.getString(1)).isEqualTo("+02:00");
			}
		}
	}

	private void assertDifferences(DataSource ds, String left, String right, String... expected) {
		TableComparison.Result result = TableComparison.compare(ds, left, ds, right);
		assertThat(result.equal()).isFalse();
		assertThat(result.differences()).as(result.toString()).containsExactly(expected);
	}

	private void copy(String schema, String from, String to) {
		server.execute(schema, "DROP TABLE IF EXISTS " + to, "CREATE TABLE " + to + " LIKE " + from,
				"INSERT INTO " + to + " SELECT * FROM " + from);
	}

	private static long count(DataSource ds, String table) throws SQLException {
		try (Connection c = ds.getConnection(); Statement st = c.createStatement();
				ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
			rs.next();
			return rs.getLong(1);
		}
	}
}
