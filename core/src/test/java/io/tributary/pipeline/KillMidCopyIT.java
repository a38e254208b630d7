package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checkpoint.KeyText;
import io.tributary.copy.CopySizing;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pipeline killed with SIGKILL half-way through a snapshot (no graceful stop, no final
 * checkpoint) continues the copy after its last checkpointed chunk when started again, reads
 * less than a tenth of the table again, and converges.
 */
@ExtendWith(DatabaseExtension.class)
class KillMidCopyIT {

	private static final int ROWS = 100_000;

	@Test
	void killedCopyContinuesFromItsCheckpointReadingLittleAgain(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "kill").replicating("orders")
			.withSettings((s) -> s.withCopy(new CopySizing(1, 1000, 1000, 1000, Duration.ofMillis(500)))
				.withFlushInterval(Duration.ofMillis(20))
				.withCheckpointInterval(Duration.ofMillis(20)));
		replication.createOrdersTable(ROWS);
		long copiedBefore;
		try (ChildPipeline child = ChildPipeline.start(db, replication.settings())) {
			Await.until("checkpoint past half; child log in " + child.log(), Duration.ofMinutes(3), () -> {
				assertThat(child.isAlive()).as("child process alive; its log: %s", child.log()).isTrue();
				return checkpointedUpTo(replication) >= ROWS / 2;
			});
			child.kill();
			copiedBefore = replication.countInTarget("orders");
		}
		assertThat(copiedBefore).as("rows in the target when killed").isLessThan(ROWS);
		replication.onSource("UPDATE orders SET amount = amount + 1 WHERE id % 1000 = 7",
				"DELETE FROM orders WHERE id % 997 = 3", "INSERT INTO orders (customer_id, status, amount, created_at) "
						+ "VALUES (1, 'NEW', 1.00, NOW(6)), (2, 'NEW', 2.00, NOW(6))");
		try (RunningPipeline second = replication.startStreaming(Duration.ofMinutes(2))) {
			second.awaitCaughtUp();
			long secondRun = second.table().rowsCopied();
			long reread = secondRun - (ROWS - copiedBefore);
			System.out.printf("Killed with %d rows in the target; the restart copied %d, %d of them again%n",
					copiedBefore, secondRun, reread);
			assertThat(secondRun).as("rows copied after the restart").isLessThan(ROWS * 6L / 10);
			assertThat(reread).as("rows read again after the kill (%d in the target, %d copied after)", copiedBefore,
					secondRun).isLessThan(ROWS / 10);
			replication.assertEqual("orders");
		}
	}

	/** Returns the dense key the checkpoint says the copy reached, 0 before it says anything. */
	private static long checkpointedUpTo(Replication replication) throws Exception {
		try (Connection connection = replication.pool().getConnection();
				Statement statement = connection.createStatement()) {
			try (ResultSet tables = statement.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES "
					+ "WHERE TABLE_SCHEMA = '" + replication.target() + "' AND TABLE_NAME = 'tributary_checkpoint'")) {
				tables.next();
				if (tables.getLong(1) == 0) {
					return 0;
				}
			}
			try (PreparedStatement query = connection.prepareStatement("SELECT copied_up_to, snapshot_done FROM "
					+ replication.targetTable("tributary_checkpoint") + " WHERE source_table LIKE ?")) {
				query.setString(1, "%.orders");
				try (ResultSet rs = query.executeQuery()) {
					if (!rs.next()) {
						return 0;
					}
					assertThat(rs.getBoolean(2)).as("snapshot finished before it could be killed").isFalse();
					String text = rs.getString(1);
					return (text != null) ? ((Number) KeyText.parse(text)[0]).longValue() : 0;
				}
			}
		}
	}

}
