package io.tributary.checkpoint;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checkpoint table's {@code updated_at} holds the instant the checkpoint was written, whatever
 * the zones of the JVM and of the target session: an operator who reads the table in SQL sees the
 * right time, and a store in a JVM of another zone reads the same instant back.
 */
@ExtendWith(DatabaseExtension.class)
class CheckpointTimeIT {

	@Test
	void theStoredInstantDoesNotDependOnTheJvmOrSessionZone(TestDatabase db) throws Exception {
		String schema = db.schema("ckpt_time");
		TableId table = new TableId(schema, "tributary_checkpoint");
		Instant written = Instant.parse("2026-03-29T01:30:00.123456Z");
		TimeZone before = TimeZone.getDefault();
		try {
			TimeZone.setDefault(TimeZone.getTimeZone("America/Sao_Paulo"));
			// Statements prepared on the server, as Tributary's own pool to a MariaDB target has them.
			DataSource pool = db.server().dataSource(schema, Map.of("useServerPrepStmts", "true"));
			try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
				// A session left at another zone by an earlier user of the pool.
				statement.execute("SET time_zone = '+05:30'");
			}
			JdbcCheckpointStore store = new JdbcCheckpointStore(pool, table, "default");
			store.initialize();
			store.save(List.of(new TableCheckpoint(new TableId("shop", "orders"),
					new Destination.Table(new TableId(schema, "orders")), true, null, null, written)));

			assertThat(epochMicrosInSql(pool, table)).isEqualTo(micros(written));

			TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
			// A pool of its own, whose connections take the JVM's zone as it is now.
			DataSource other = db.server().dataSource(schema, Map.of("connectionTimeZone", "LOCAL"));
			TableCheckpoint read = new JdbcCheckpointStore(other, table, "default").load()
				.get(new TableId("shop", "orders"));
			assertThat(read.updatedAt()).isEqualTo(written);
		}
		finally {
			TimeZone.setDefault(before);
		}
	}

	/** The stored instant as an operator's UTC session reads it, in microseconds since the epoch. */
	private static long epochMicrosInSql(DataSource pool, TableId table) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("SET time_zone = '+00:00'");
			try (ResultSet rs = statement.executeQuery("SELECT ROUND(UNIX_TIMESTAMP(updated_at) * 1000000) FROM "
					+ table.quoted())) {
				assertThat(rs.next()).isTrue();
				return rs.getLong(1);
			}
		}
	}

	private static long micros(Instant instant) {
		return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
	}

}
