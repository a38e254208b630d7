package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * A test's own servers: a primary and its replica of the selected flavour, each stopped cleanly or
 * killed and started again on the same port with its data, and a replica that catches up with what
 * the primary wrote, accounts and all.
 */
class DedicatedServerIT {

	private static final Duration WAIT = Duration.ofMinutes(1);

	@Test
	void replicaFollowsAPrimaryThatIsStoppedKilledAndStartedAgain() throws Exception {
		try (TestDatabaseServer primary = TestDatabaseServer.startDedicated();
				TestDatabaseServer replica = primary.startReplica()) {
			assertThat(primary.port()).isNotEqualTo(replica.port());
			assertThat(query(replica, "SELECT @@server_id")).isNotEqualTo(query(primary, "SELECT @@server_id"));
			primary.createSchema("dedicated");
			primary.execute("dedicated", "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
			replica.awaitReplicaCaughtUp(WAIT);
			assertThat(query(replica, "SELECT COUNT(*) FROM dedicated.t")).isEqualTo("1");

			int port = primary.port();
			primary.stopServer();
			assertThatThrownBy(() -> DriverManager.getConnection(primary.jdbcUrl(null), primary.username(),
					primary.password()).close()).isInstanceOf(SQLException.class);
			primary.startServer();
			primary.execute("dedicated", "INSERT INTO t VALUES (2)");
			primary.killServer();
			primary.startServer();
			assertThat(primary.port()).isEqualTo(port);
			assertThat(query(primary, "SELECT COUNT(*) FROM dedicated.t")).isEqualTo("2");
			// Privileges are checked again after a start: the test account still works, a wrong password does not.
			assertThat(query(primary, "SELECT CURRENT_USER()")).startsWith(primary.username() + "@");
			assertThatThrownBy(() -> DriverManager.getConnection(primary.jdbcUrl(null), primary.username(), "wrong"))
					.isInstanceOf(SQLException.class).hasMessageContaining("Access denied");

			// The replica's connection to the primary broke twice; its threads retry on their own.
			primary.execute("dedicated", "INSERT INTO t VALUES (3)");
			replica.awaitReplicaCaughtUp(WAIT);
			assertThat(query(replica, "SELECT COUNT(*) FROM dedicated.t")).isEqualTo("3");
			assertThat(query(replica, "SELECT @@log_bin")).isEqualTo("1");
		}
	}

	private static String query(TestDatabaseServer server, String sql) throws SQLException {
		try (Connection connection = server.dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			rs.next();
			return rs.getString(1);
		}
	}
}
