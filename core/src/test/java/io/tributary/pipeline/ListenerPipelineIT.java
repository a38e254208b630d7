package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.apply.ChangeBatch;
import io.tributary.apply.ChangeListener;
import io.tributary.schema.Column;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;
import io.tributary.source.Position;
import io.tributary.source.TableId;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listener mode end to end: a {@link ChangeListener} that keeps rows in memory by primary key,
 * as an idempotent application would, ends up equal to the source table through snapshot,
 * streaming, failures of the listener, restarts, truncation and an added column; and no target
 * table is created.
 */
@ExtendWith(DatabaseExtension.class)
class ListenerPipelineIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
		ReplicationIT.server(database);
	}

	@Test
	void snapshotAndStreamedChangesConvergeInTheListener() throws Exception {
		String src = db.schema("lconv_src");
		String dst = db.schema("lconv_dst");
		DataSource pool = db.dataSource(null);
		Workload.createOrdersTable(pool, src + ".orders", 20_000);
		MapListener listener = new MapListener();
		Workload workload = Workload.builder(pool, src + ".orders").threads(2).ratePerSecond(300).seed(5).build();
		workload.start();
		try (Pipeline pipeline = new Pipeline(settings(src, dst, "orders", listener).withChunkRows(1_000), pool,
				pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(3));
			// A primary key move, deletes and inserts beside the workload.
			db.server().execute(src, "UPDATE orders SET id = id + 1000000 WHERE id = 17",
					"DELETE FROM orders WHERE id BETWEEN 100 AND 120",
					"INSERT INTO orders (customer_id, status, amount, created_at) VALUES (9, 'NEW', 3.50, NOW(6))",
					"UPDATE orders SET id = 17 WHERE id = 1000017");
			long appliedAtStreaming = table(pipeline).changesApplied();
			awaitTable(pipeline, (t) -> t.changesApplied() > appliedAtStreaming + 200, Duration.ofMinutes(2));
			workload.stop();
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = table(pipeline);
			assertThat(status.rowsCopied()).isGreaterThan(0);
			assertThat(status.target()).isEqualTo("(listener).orders");
			assertThat(status.apply().batchesApplied()).isGreaterThan(0);
			assertThat(status.apply().batchesFailed()).isZero();
			assertThat(workload.counts().transactions()).isGreaterThan(0);
			listener.assertEqualTo(pool, new TableId(src, "orders"));
		}
		finally {
			workload.stop();
		}
		assertThat(tablesIn(pool, dst)).as("tables in the target schema").containsExactly("tributary_checkpoint");
	}

	@Test
	void aThrowingListenerGetsTheChangesAgainAndHoldsThePosition() throws Exception {
		String src = db.schema("lfail_src");
		String dst = db.schema("lfail_dst");
		DataSource pool = db.dataSource(null);
		Workload.createOrdersTable(pool, src + ".orders", 5_000);
		MapListener listener = new MapListener();
		listener.failNext(3);
		try (Pipeline pipeline = new Pipeline(settings(src, dst, "orders", listener).withChunkRows(500), pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(2));
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(listener.failures()).as("snapshot deliveries that threw").isEqualTo(3);
			assertThat(table(pipeline).rowsCopied()).isEqualTo(5_000);
			assertThat(table(pipeline).lastError()).isNull();
			listener.assertEqualTo(pool, new TableId(src, "orders"));

			listener.failNext(4);
			db.server().execute(src, "UPDATE orders SET amount = amount + 1 WHERE id <= 50",
					"DELETE FROM orders WHERE id BETWEEN 60 AND 70", "UPDATE orders SET id = 900000 WHERE id = 80");
			Position written = SourceQueries.head(pool);
			// While the listener throws, the confirmed position stays where the failed changes begin,
			// although the reader has passed them.
			Position held = null;
			boolean deliveredPast = false;
			boolean errorShown = false;
			boolean flushShown = false;
			long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
			while (true) {
				PipelineStatus status = pipeline.status();
				TableStatus table = status.tables().get(0);
				if (listener.pendingFailures() == 0) {
					break;
				}
				if (listener.failures() > 3 && table.confirmedPosition() != null) {
					Position confirmed = Position.parse(table.confirmedPosition());
					assertThat(confirmed).as("confirmed position while the listener throws")
						.isLessThan(written);
					assertThat(checkpointOf(pool, dst)).as("checkpoint while the listener throws")
						.isLessThan(written);
					held = confirmed;
					deliveredPast |= Position.parse(status.position().delivered()).compareTo(written) >= 0;
					errorShown |= table.lastError() != null && table.lastError().contains("simulated outage");
					flushShown |= table.lastFlush() != null && table.lastFlush().outcome().contains("simulated outage");
				}
				assertThat(System.nanoTime()).as("listener still failing").isLessThan(deadline);
				Thread.sleep(10);
			}
			assertThat(held).as("position observed while the listener threw").isNotNull();
			assertThat(deliveredPast).as("reader passed the failed changes meanwhile").isTrue();
			assertThat(errorShown).as("lastError showed the listener's failure").isTrue();
			assertThat(flushShown).as("lastFlush showed the listener's failure").isTrue();

			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			TableStatus recovered = table(pipeline);
			assertThat(Position.parse(recovered.confirmedPosition())).isGreaterThanOrEqualTo(written);
			assertThat(recovered.lastError()).isNull();
			assertThat(recovered.lastFlush().outcome()).isEqualTo("ok");
			assertThat(recovered.apply().batchesFailed()).isEqualTo(7);
			listener.assertEqualTo(pool, new TableId(src, "orders"));
		}
	}

	@Test
	void aChunkRefusedUntilTheStopIsCopiedOnTheNextStart() throws Exception {
		String src = db.schema("lrefuse_src");
		String dst = db.schema("lrefuse_dst");
		DataSource pool = db.dataSource(null);
		Workload.createOrdersTable(pool, src + ".orders", 3_000);
		MapListener listener = new MapListener();
		listener.failNext(Integer.MAX_VALUE);
		PipelineSettings settings = settings(src, dst, "orders", listener).withChunkRows(500);
		Pipeline first = new Pipeline(settings, pool, pool);
		try {
			first.start();
			long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
			// Chunks fail on several copy threads at once: wait for the status too, not only the calls.
			while (listener.failures() < 2 || table(first).lastError() == null) {
				assertThat(System.nanoTime()).as("listener refusing chunks").isLessThan(deadline);
				Thread.sleep(10);
			}
			assertThat(table(first).lastError()).contains("Snapshot chunk not delivered").contains("simulated outage");
		}
		finally {
			first.close();
		}
		assertThat(first.status().state()).isEqualTo(PipelineStatus.State.STOPPED);
		assertThat(table(first).rowsCopied()).isZero();
		assertThat(listener.rows).isEmpty();

		listener.failNext(0);
		try (Pipeline second = new Pipeline(settings, pool, pool)) {
			second.start();
			awaitTable(second, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(2));
			second.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(second).rowsCopied()).isEqualTo(3_000);
			listener.assertEqualTo(pool, new TableId(src, "orders"));
		}
	}

	@Test
	void restartResumesFromTheCheckpointAndConverges() throws Exception {
		String src = db.schema("lrestart_src");
		String dst = db.schema("lrestart_dst");
		DataSource pool = db.dataSource(null);
		Workload.createOrdersTable(pool, src + ".orders", 3_000);
		MapListener listener = new MapListener();
		PipelineSettings settings = settings(src, dst, "orders", listener);
		try (Pipeline first = new Pipeline(settings, pool, pool)) {
			first.start();
			awaitTable(first, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(2));
			first.awaitCaughtUp(Duration.ofMinutes(1));
		}
		Workload offline = Workload.builder(pool, src + ".orders").threads(2).maxOperations(1_000).seed(13).build();
		offline.start();
		assertThat(offline.awaitCompletion(Duration.ofMinutes(2))).isTrue();
		offline.stop();
		db.server().execute(src, "UPDATE orders SET id = 700000 WHERE id = 3");
		int deliveredBefore = listener.calls();
		try (Pipeline second = new Pipeline(settings, pool, pool)) {
			second.start();
			second.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = table(second);
			assertThat(status.rowsCopied()).as("rows copied after a restart").isZero();
			assertThat(status.changesApplied()).isGreaterThan(0);
			assertThat(listener.calls()).isGreaterThan(deliveredBefore);
			listener.assertEqualTo(pool, new TableId(src, "orders"));
		}
		assertThat(tablesIn(pool, dst)).as("tables in the target schema").containsExactly("tributary_checkpoint");
	}

	@Test
	void truncateStopsTheTableUnlessTheListenerHandlesIt() throws Exception {
		String src = db.schema("ltrunc_src");
		String dst = db.schema("ltrunc_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
		MapListener unaware = new MapListener();
		try (Pipeline pipeline = new Pipeline(settings(src, dst, "t", unaware), pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			db.server().execute(src, "TRUNCATE TABLE t", "INSERT INTO t VALUES (4, 'd')");
			awaitTable(pipeline, (t) -> t.phase() == Phase.FAILED, Duration.ofMinutes(1));
			assertThat(table(pipeline).lastError()).contains("truncated on the source")
				.contains("ChangeListener.onTruncate")
				.contains("restart");
			assertThat(unaware.rows).hasSize(3);
		}
		// Restarted with a listener that handles it: the truncation is read again from the checkpoint.
		MapListener aware = new MapListener(unaware, true);
		try (Pipeline pipeline = new Pipeline(settings(src, dst, "t", aware), pool, pool)) {
			pipeline.start();
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(aware.truncations.get()).isEqualTo(1);
			assertThat(table(pipeline).rowsCopied()).isZero();
			aware.assertEqualTo(pool, new TableId(src, "t"));
			db.server().execute(src, "INSERT INTO t VALUES (5, 'e')", "TRUNCATE TABLE t",
					"INSERT INTO t VALUES (6, 'f')");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(aware.truncations.get()).isEqualTo(2);
			assertThat(table(pipeline).phase()).isEqualTo(Phase.STREAMING);
			aware.assertEqualTo(pool, new TableId(src, "t"));
		}
	}

	@Test
	void batchesCarryAColumnAddedOnTheSource() throws Exception {
		String src = db.schema("lalter_src");
		String dst = db.schema("lalter_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO t VALUES (1, 'a'), (2, 'b')");
		MapListener listener = new MapListener();
		try (Pipeline pipeline = new Pipeline(settings(src, dst, "t", listener), pool, pool)) {
			pipeline.start();
			awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, Duration.ofMinutes(1));
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(listener.lastColumns()).containsExactly("id", "v");
			db.server().execute(src, "ALTER TABLE t ADD COLUMN extra INT NULL", "INSERT INTO t VALUES (3, 'c', 30)",
					"UPDATE t SET extra = 10 WHERE id = 1");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			assertThat(table(pipeline).phase()).isEqualTo(Phase.STREAMING);
			assertThat(listener.lastColumns()).containsExactly("id", "v", "extra");
			// Rows are not delivered again for a new column: row 2 comes with it at its next change.
			assertThat(listener.rows.get(List.of(2L))).hasSize(2);
			db.server().execute(src, "UPDATE t SET v = 'bb' WHERE id = 2");
			pipeline.awaitCaughtUp(Duration.ofMinutes(1));
			listener.assertEqualTo(pool, new TableId(src, "t"));
		}
	}

	static PipelineSettings settings(String src, String dst, String table, ChangeListener listener) {
		return ReplicationIT.settings(src, dst, table).withListener(listener);
	}

	static List<String> tablesIn(DataSource pool, String schema) throws SQLException {
		List<String> names = new ArrayList<>();
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = connection.prepareStatement(
						"SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME")) {
			statement.setString(1, schema);
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					names.add(rs.getString(1));
				}
			}
		}
		return names;
	}

	private static Position checkpointOf(DataSource pool, String schema) throws SQLException {
		try (Connection connection = pool.getConnection();
				PreparedStatement statement = connection.prepareStatement("SELECT binlog_position FROM "
						+ new TableId(schema, "tributary_checkpoint").quoted())) {
			try (ResultSet rs = statement.executeQuery()) {
				assertThat(rs.next()).as("checkpoint row").isTrue();
				return Position.parse(rs.getString(1));
			}
		}
	}

	/**
	 * Applies batches to a map from primary key to row, idempotently, the way the listener
	 * contract asks; can be told to throw for its next calls.
	 */
	static final class MapListener implements ChangeListener {

		final Map<List<Object>, Object[]> rows;

		final AtomicInteger truncations = new AtomicInteger();

		private final boolean handlesTruncate;

		private final AtomicInteger toFail = new AtomicInteger();

		private final AtomicInteger failures = new AtomicInteger();

		private final AtomicInteger calls = new AtomicInteger();

		private volatile List<String> lastColumns;

		MapListener() {
			this.rows = new ConcurrentHashMap<>();
			this.handlesTruncate = false;
		}

		/** A listener that continues with the rows another one holds. */
		MapListener(MapListener earlier, boolean handlesTruncate) {
			this.rows = earlier.rows;
			this.handlesTruncate = handlesTruncate;
		}

		void failNext(int times) {
			this.toFail.set(times);
		}

		int pendingFailures() {
			return Math.max(0, this.toFail.get());
		}

		int failures() {
			return this.failures.get();
		}

		int calls() {
			return this.calls.get();
		}

		List<String> lastColumns() {
			return this.lastColumns;
		}

		@Override
		public void onChanges(ChangeBatch batch) {
			this.calls.incrementAndGet();
			if (this.toFail.getAndDecrement() > 0) {
				this.failures.incrementAndGet();
				throw new IllegalStateException("simulated outage");
			}
			this.lastColumns = batch.columns();
			int[] keyIndexes = batch.keyColumns().stream().mapToInt(batch.columns()::indexOf).toArray();
			for (Object[] key : batch.deletedKeys()) {
				this.rows.remove(Arrays.asList(key));
			}
			for (Object[] row : batch.upserts()) {
				Object[] key = new Object[keyIndexes.length];
				for (int i = 0; i < key.length; i++) {
					key[i] = row[keyIndexes[i]];
				}
				this.rows.put(Arrays.asList(key), row.clone());
			}
		}

		@Override
		public void onTruncate(TableId table) throws Exception {
			if (!this.handlesTruncate) {
				ChangeListener.super.onTruncate(table);
			}
			this.truncations.incrementAndGet();
			this.rows.clear();
		}

		/** Asserts that the map holds exactly the rows the source table holds, in canonical form. */
		void assertEqualTo(DataSource pool, TableId table) throws SQLException {
			Map<List<Object>, Object[]> expected = new HashMap<>();
			try (Connection connection = pool.getConnection()) {
				TableLayout layout = LayoutReader.read(connection, table);
				List<Column> columns = layout.columns();
				try (PreparedStatement statement = connection
					.prepareStatement("SELECT " + layout.selectList() + " FROM " + table.quoted());
						ResultSet rs = statement.executeQuery()) {
					while (rs.next()) {
						Object[] row = new Object[columns.size()];
						for (int i = 0; i < row.length; i++) {
							row[i] = Values.fromResultSet(rs, i + 1, columns.get(i));
						}
						expected.put(Arrays.asList(layout.keyOf(row)), row);
					}
				}
			}
			List<String> differences = new ArrayList<>();
			for (Map.Entry<List<Object>, Object[]> entry : expected.entrySet()) {
				Object[] held = this.rows.get(entry.getKey());
				if (!Arrays.deepEquals(held, entry.getValue())) {
					differences.add("key " + entry.getKey() + ": source " + Arrays.deepToString(entry.getValue())
							+ ", listener " + ((held != null) ? Arrays.deepToString(held) : "missing"));
				}
			}
			for (List<Object> key : this.rows.keySet()) {
				if (!expected.containsKey(key)) {
					differences.add("key " + key + ": not in the source, listener "
							+ Arrays.deepToString(this.rows.get(key)));
				}
			}
			assertThat(differences).as("rows differing between %s (%d rows) and the listener (%d rows)", table,
					expected.size(), this.rows.size())
				.isEmpty();
		}

	}

}
