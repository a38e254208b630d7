package io.tributary.autoconfigure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.ServerPreparedStatement;

import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * With server-side statements asked for, Tributary's target pool prepares statements on a MariaDB
 * server and on the client of a MySQL server, and a property its URL sets keeps the URL's value;
 * without, it prepares them on the client. With streamed loads asked for, its connections have the
 * local-files capability but may read no file.
 */
@ExtendWith(DatabaseExtension.class)
class TargetPoolIT {

	@Test
	void preparesOnTheServerOfAMariaDbTargetOnly(TestDatabase db) throws Exception {
		try (TargetPool pool = pool(db, db.jdbcUrl(null), true)) {
			assertThat(pool.getDataSourceProperties()).isEmpty();
			assertThat(preparesOnTheServer(pool)).isEqualTo(db.server().isMariaDb());
			if (db.server().isMariaDb()) {
				assertThat(pool.getDataSourceProperties()).containsEntry("useServerPrepStmts", "true")
					.containsEntry("cachePrepStmts", "true");
			}
			else {
				assertThat(pool.getDataSourceProperties()).isEmpty();
			}
		}
	}

	@Test
	void preparesOnTheClientUnlessAskedOtherwise(TestDatabase db) throws Exception {
		try (TargetPool pool = pool(db, db.jdbcUrl(null), false)) {
			assertThat(preparesOnTheServer(pool)).isFalse();
			assertThat(pool.getDataSourceProperties()).isEmpty();
		}
	}

	@Test
	void aPropertyTheUrlSetsKeepsTheUrlsValue(TestDatabase db) throws Exception {
		String url = db.jdbcUrl(null);
		url += (url.contains("?") ? "&" : "?") + "useServerPrepStmts=false";
		try (TargetPool pool = pool(db, url, true)) {
			assertThat(preparesOnTheServer(pool)).isFalse();
			assertThat(pool.getDataSourceProperties()).doesNotContainKey("useServerPrepStmts");
		}
	}

	@Test
	void streamedLoadsOpenConnectionsThatMayLoadButReadNoFile(TestDatabase db) throws Exception {
		try (TargetPool pool = pool(db, db.jdbcUrl(null), false, true)) {
			try (Connection connection = pool.getConnection()) {
				var properties = connection.unwrap(JdbcConnection.class).getPropertySet();
				assertThat(properties.getStringProperty(PropertyKey.allowLoadLocalInfileInPath).isExplicitlySet())
					.isTrue();
				assertThat(properties.getBooleanProperty(PropertyKey.allowLoadLocalInfile).getValue()).isFalse();
			}
			assertThat(pool.getDataSourceProperties()).containsEntry("allowLoadLocalInfileInPath", "")
				.doesNotContainKey("useServerPrepStmts");
		}
		String url = db.jdbcUrl(null);
		url += (url.contains("?") ? "&" : "?") + "allowLoadLocalInfileInPath=/nowhere";
		try (TargetPool pool = pool(db, url, false, true); Connection connection = pool.getConnection()) {
			assertThat(pool.getDataSourceProperties()).doesNotContainKey("allowLoadLocalInfileInPath");
		}
	}

	@Test
	void aServerOutOfReachFailsTheConnectionAndIsAskedAgainNextTime(TestDatabase db) throws Exception {
		try (TargetPool pool = new TargetPool(true, false)) {
			pool.setJdbcUrl("jdbc:mysql://127.0.0.1:1/");
			pool.setUsername(db.server().username());
			pool.setConnectionTimeout(250);
			assertThatThrownBy(pool::getConnection).hasMessageContaining("Communications link failure");
			assertThatThrownBy(pool::getConnection).hasMessageContaining("Communications link failure");
			assertThat(pool.getDataSourceProperties()).isEmpty();
		}
	}

	private static TargetPool pool(TestDatabase db, String url, boolean serverSideStatements) {
		return pool(db, url, serverSideStatements, false);
	}

	private static TargetPool pool(TestDatabase db, String url, boolean serverSideStatements, boolean streamedLoads) {
		TargetPool pool = new TargetPool(serverSideStatements, streamedLoads);
		pool.setJdbcUrl(url);
		pool.setUsername(db.server().username());
		pool.setPassword(db.server().password());
		pool.setMaximumPoolSize(2);
		return pool;
	}

	private static boolean preparesOnTheServer(TargetPool pool) throws Exception {
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = connection.prepareStatement("SELECT ? + 1")) {
			statement.setLong(1, 41);
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				assertThat(rs.getLong(1)).isEqualTo(42);
			}
			return statement.isWrapperFor(ServerPreparedStatement.class);
		}
	}

}
