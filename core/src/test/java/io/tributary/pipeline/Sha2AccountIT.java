package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.TableId;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.source.binlog.IgnoringHandler;
import io.tributary.source.binlog.SourceJdbc;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
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
		ReplicationIT.server(db);
		for (SslMode mode : List.of(SslMode.DISABLED, SslMode.REQUIRED)) {
			String name = mode.name().toLowerCase(java.util.Locale.ROOT);
			String src = db.schema("sha2_" + name + "_src");
			String dst = db.schema("sha2_" + name + "_dst");
			String user = "sha2_" + name;
			db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL)",
					"INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
			db.server().execute(null, "CREATE USER '" + user + "'@'%' IDENTIFIED WITH caching_sha2_password BY '"
					+ PASSWORD + "'", "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '" + user + "'@'%'",
					"GRANT SELECT ON `" + src + "`.* TO '" + user + "'@'%'", "FLUSH PRIVILEGES");
			PipelineSettings base = ReplicationIT.settings(src, dst, "t");
			SourceSettings account = new SourceSettings(db.server().host(), db.server().port(), user, PASSWORD,
					20_000 + ThreadLocalRandom.current().nextInt(1_000_000), null, null, mode, null);
			DataSource target = db.dataSource(null);
			// The binlog connection logs in first, before any JDBC connection has put the account's
			// hash into the server's cache: the full exchange.
			try (BinlogChangeSource reader = new BinlogChangeSource(account, new IgnoringHandler())) {
				reader.start(SourceQueries.head(target));
				long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
				while (!reader.isConnected()) {
					assertThat(reader.lastError()).as("%s binlog login", mode).isNull();
					assertThat(System.nanoTime()).as("%s binlog login", mode).isLessThan(deadline);
					Thread.sleep(20);
				}
			}
			try (HikariDataSource source = pool(account);
					Pipeline pipeline = new Pipeline(base.withSource(account), source, target)) {
				pipeline.start();
				awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
				db.server().execute(src, "INSERT INTO t VALUES (4, 'four')", "UPDATE t SET v = 'uno' WHERE id = 1");
				pipeline.awaitCaughtUp(Duration.ofMinutes(1));
				assertThat(table(pipeline).rowsCopied()).as("%s", mode).isEqualTo(3);
				assertThat(pipeline.status().source().connected()).as("%s", mode).isTrue();
				TableComparison.assertEqual(target, new TableId(src, "t").toString(), target,
						new TableId(dst, "t").toString());
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
