package io.tributary.pipeline;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.settings.SettingNames;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.source.binlog.IgnoringHandler;
import io.tributary.source.binlog.SourceJdbc;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * A source account with MySQL 8's default authentication, {@code caching_sha2_password}, and a
 * password, logging in for the first time (so the server has no cached hash and asks for the full
 * exchange): on a plain connection the password must travel encrypted with the server's RSA key,
 * on TLS inside the TLS session. Both the JDBC connections and the binlog connection must get in.
 */
@ExtendWith(DatabaseExtension.class)
class Sha2AccountIT {

	private static final String PASSWORD = "Sha2-secret";

	@Test
	void aFirstLoginWithCachingSha2ReplicatesOverPlainAndTlsConnections(TestDatabase db) throws Exception {
		assumeFalse(db.server().isMariaDb(), "caching_sha2_password is a MySQL authentication plugin");
		for (SslMode mode : List.of(SslMode.DISABLED, SslMode.REQUIRED)) {
			String name = mode.name().toLowerCase(Locale.ROOT);
			Replication replication = Replication.of(db, "sha2_" + name);
			String user = "sha2_" + name;
			replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)",
					"INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
			db.server().execute(null, "CREATE USER '" + user + "'@'%' IDENTIFIED WITH caching_sha2_password BY '"
					+ PASSWORD + "'", "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '" + user + "'@'%'",
					"GRANT SELECT ON `" + replication.source() + "`.* TO '" + user + "'@'%'", "FLUSH PRIVILEGES");
			SourceSettings account = new SourceSettings(db.server().host(), db.server().port(), user, PASSWORD,
					20_000 + ThreadLocalRandom.current().nextInt(1_000_000), null, null, mode, null);
			// The binlog connection logs in first, before any JDBC connection has put the account's
			// hash into the server's cache: the full exchange.
			try (BinlogChangeSource reader = new BinlogChangeSource(account, SettingNames.ENGINE, new IgnoringHandler())) {
				reader.start(SourceQueries.head(replication.pool()));
				Await.until(mode + " binlog login", Replication.WAIT, () -> {
					assertThat(reader.lastError()).as("%s binlog login", mode).isNull();
					return reader.isConnected();
				});
			}
			try (HikariDataSource source = pool(account);
					RunningPipeline pipeline = replication.withSourcePool(source)
						.withSettings((s) -> s.withSource(account))
						.startStreaming()) {
				replication.onSource("INSERT INTO t VALUES (4, 'four')", "UPDATE t SET v = 'uno' WHERE id = 1");
				pipeline.awaitCaughtUp();
				assertThat(pipeline.table().rowsCopied()).as("%s", mode).isEqualTo(3);
				assertThat(pipeline.status().source().connected()).as("%s", mode).isTrue();
				replication.assertEqual("t");
			}
		}
	}

	private static HikariDataSource pool(SourceSettings settings) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(SourceJdbc.url(settings));
		config.setUsername(settings.username());
		config.setPassword(settings.password());
		config.setMaximumPoolSize(4);
		config.setMinimumIdle(0);
		config.setPoolName("sha2-" + settings.username());
		return new HikariDataSource(config);
	}

}
