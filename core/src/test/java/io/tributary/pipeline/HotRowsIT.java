package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.InsertStatements;
import io.tributary.test.TestDatabase;

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
		Replication replication = Replication.of(db, "hot");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, counter BIGINT NOT NULL)",
				InsertStatements.single("t", 0, 9, (i) -> i + ",0"));
		replication.runUntilCaughtUp();
		try (Connection connection = replication.pool().getConnection();
				PreparedStatement update = connection.prepareStatement(
						"UPDATE " + replication.sourceTable("t") + " SET counter = counter + 1 WHERE id = ?")) {
			connection.setAutoCommit(true);
			for (int i = 0; i < UPDATES; i++) {
				update.setInt(1, i % 10);
				update.executeUpdate();
			}
		}
		try (RunningPipeline second = replication.start()) {
			second.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = second.table();
			assertThat(status.keysAdded()).isGreaterThanOrEqualTo(UPDATES);
			long writes = status.apply().rowsUpserted();
			assertThat(writes).as("target writes for %d events", status.keysAdded()).isPositive()
				.isLessThanOrEqualTo(UPDATES / 100);
			replication.assertEqual("t");
		}
	}

}
