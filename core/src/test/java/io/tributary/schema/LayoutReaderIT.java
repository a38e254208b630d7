package io.tributary.schema;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.settings.SettingNames;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(DatabaseExtension.class)
class LayoutReaderIT {

	/**
	 * A session holding the table's metadata lock stands for an ALTER that is in the binlog but not
	 * committed yet: the read must wait for it and see the definition it leaves.
	 */
	@Test
	void aLayoutReadAfterAChangeWaitsUntilTheChangingSessionReleasesTheTable(TestDatabase db) throws Exception {
		String schema = db.schema("layoutwait");
		db.server().execute(schema, "CREATE TABLE t (id INT PRIMARY KEY, note VARCHAR(20))");
		DataSource pool = db.dataSource(schema);
		TableId table = new TableId(schema, "t");
		try (Connection holder = pool.getConnection(); Statement statement = holder.createStatement()) {
			statement.execute("LOCK TABLES t WRITE");
			CompletableFuture<TableLayout> read = CompletableFuture.supplyAsync(() -> {
				try (Connection connection = pool.getConnection()) {
					return LayoutReader.readAfterChange(connection, table, List.of(), SettingNames.ENGINE);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			Await.until("the read waiting for the table's metadata lock", Duration.ofSeconds(30),
					() -> waitingForMetadataLock(pool, schema) || read.isDone());
			assertThat(read).as("read while another session holds the table").isNotDone();
			statement.execute("ALTER TABLE t MODIFY note VARCHAR(40)");
			statement.execute("UNLOCK TABLES");
			TableLayout layout = read.get(30, TimeUnit.SECONDS);
			assertThat(layout.columns().get(1).columnType()).isEqualToIgnoringCase("varchar(40)");
		}
	}

	private static boolean waitingForMetadataLock(DataSource pool, String schema) throws Exception {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = '"
						+ schema + "' AND STATE = 'Waiting for table metadata lock'")) {
			rs.next();
			return rs.getInt(1) > 0;
		}
	}

}
