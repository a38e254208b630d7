package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hot rows: ten keys updated 20,000 times in single-row transactions, read as a backlog, cost a
 * handful of target writes, because the buffer keeps only the last image per key.
 */
@ExtendWith(DatabaseExtension.class)
class HotRowsIT {

	private static final int UPDATES = 20_000;

	@Test
	void tenHotKeysUpdatedTwentyThousandTimesApplyAsAHandfulOfUpserts(TestDatabase db) throws Exception {
		ReplicationIT.server(db);
		String src = db.schema("hot_src");
		String dst = db.schema("hot_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, counter BIGINT NOT NULL)",
				"INSERT INTO t VALUES (0,0),(1,0),(2,0),(3,0),(4,0),(5,0),(6,0),(7,0),(8,0),(9,0)");
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t");
		try (Pipeline first = new Pipeline(settings, pool, pool)) {
			first.start();
			awaitTable(first, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			first.awaitCaughtUp(Duration.ofMinutes(1));
		}
		try (Connection connection = pool.getConnection();
				PreparedStatement update = connection
					.prepareStatement("UPDATE " + src + ".t SET counter = counter + 1 WHERE id = ?")) {
			connection.setAutoCommit(true);
			for (int i = 0; i < UPDATES; i++) {
				update.setInt(1, i % 10);
				update.executeUpdate();
			}
		}
		try (Pipeline second = new Pipeline(settings, pool, pool)) {
			second.start();
			second.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = table(second);
			assertThat(status.keysAdded()).isGreaterThanOrEqualTo(UPDATES);
			long writes = status.apply().rowsUpserted();
			assertThat(writes).as("target writes for %d events", status.keysAdded()).isPositive()
				.isLessThanOrEqualTo(UPDATES / 100);
			TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		}
	}

}
