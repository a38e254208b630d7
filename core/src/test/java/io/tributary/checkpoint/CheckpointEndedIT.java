package io.tributary.checkpoint;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.source.Position;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A checkpoint says whether its table ended copied once: it reads back so, and a checkpoint table
 * made by an earlier release, without the column, gets it at start with its rows kept as not ended.
 */
@ExtendWith(DatabaseExtension.class)
class CheckpointEndedIT {

	private static final TableId ORDERS = new TableId("shop", "orders");

	private static final TableId ITEMS = new TableId("shop", "items");

	@Test
	void anEarlierTableGetsTheColumnAndAnEndedCheckpointReadsBackEnded(TestDatabase db) throws Exception {
		String schema = db.schema("ckpt_ended");
		TableId table = new TableId(schema, "tributary_checkpoint");
		DataSource pool = db.dataSource(schema);
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			// As an earlier release made it, with one row.
			statement.execute("CREATE TABLE tributary_checkpoint (pipeline VARCHAR(190) NOT NULL, "
					+ "source_table VARCHAR(190) NOT NULL, target_table VARCHAR(190) NOT NULL, "
					+ "snapshot_done BOOLEAN NOT NULL, binlog_position TEXT NULL, copied_up_to TEXT NULL, "
					+ "updated_at TIMESTAMP(6) NOT NULL, PRIMARY KEY (pipeline, source_table)) DEFAULT CHARSET = utf8mb4");
			statement.execute("INSERT INTO tributary_checkpoint VALUES ('default', 'shop.items', '" + schema
					+ ".items', TRUE, 'mysql-bin.000003:400', NULL, NOW(6))");
		}
		JdbcCheckpointStore store = new JdbcCheckpointStore(pool, table, "default");
		store.initialize();
		store.initialize();
		Position end = Position.of("mysql-bin.000003", 1234);
		store.save(List.of(new TableCheckpoint(ORDERS, new Destination.Table(new TableId(schema, "orders")), true, end,
				null, Instant.now(), true)));

		Map<TableId, TableCheckpoint> loaded = store.load();
		assertThat(loaded.get(ITEMS).ended()).isFalse();
		assertThat(loaded.get(ITEMS).position()).isEqualTo(Position.parse("mysql-bin.000003:400"));
		assertThat(loaded.get(ORDERS).ended()).isTrue();
		assertThat(loaded.get(ORDERS).position()).isEqualTo(end);
	}

}
