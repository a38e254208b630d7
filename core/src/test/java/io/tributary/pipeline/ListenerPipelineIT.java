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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.apply.ChangeBatch;
import io.tributary.apply.ChangeListener;
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;
import io.tributary.source.Position;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listener mode end to end: a {@link ChangeListener} that keeps rows in memory by primary key,
 * as an idempotent application would, ends up equal to the source table through snapshot,
 * streaming, failures of the listener, restarts, truncation and an added column; and no target
 * table is created.
 */
@ExtendWith(DatabaseExtension.class)
class ListenerPipelineIT {

	@Test
	void snapshotAndStreamedChangesConvergeInTheListener(TestDatabase db) throws Exception {
		MapListener listener = new MapListener();
		Replication replication = orders(db, "lconv", 20_000, listener).withSettings((s) -> s.withChunkRows(1_000));
		Workload workload = replication.workload("orders").threads(2).ratePerSecond(300).seed(5).build();
		workload.start();
		try (RunningPipeline pipeline = replication.startStreaming(Duration.ofMinutes(3))) {
			// A primary key move, deletes and inserts beside the workload.
			replication.onSource("UPDATE orders SET id = id + 1000000 WHERE id = 17",
					"DELETE FROM orders WHERE id BETWEEN 100 AND 120",
					"INSERT INTO orders (customer_id, status, amount, created_at) VALUES (9, 'NEW', 3.50, NOW(6))",
					"UPDATE orders SET id = 17 WHERE id = 1000017");
			long appliedAtStreaming = pipeline.table().changesApplied();
			pipeline.awaitTable((t) -> t.changesApplied() > appliedAtStreaming + 200, Duration.ofMinutes(2));
			workload.stop();
			pipeline.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = pipeline.table();
			assertThat(status.rowsCopied()).isGreaterThan(0);
			assertThat(status.target()).isEqualTo("(listener).orders");
			assertThat(status.apply().batchesApplied()).isGreaterThan(0);
			assertThat(status.apply().batchesFailed()).isZero();
			assertThat(workload.counts().transactions()).isGreaterThan(0);
			listener.assertEqualTo(replication, "orders");
		}
		finally {
			workload.stop();
		}
		assertThat(tablesInTarget(replication)).as("tables in the target schema")
			.containsExactly("tributary_checkpoint");
	}

	@Test
	void aThrowingListenerGetsTheChangesAgainAndHoldsThePosition(TestDatabase db) throws Exception {
		MapListener listener = new MapListener();
		Replication replication = orders(db, "lfail", 5_000, listener).withSettings((s) -> s.withChunkRows(500));
		listener.failNext(3);
		try (RunningPipeline pipeline = replication.startStreaming(Duration.ofMinutes(2))) {
			pipeline.awaitCaughtUp();
			assertThat(listener.failures()).as("snapshot deliveries that threw").isEqualTo(3);
			assertThat(pipeline.table().rowsCopied()).isEqualTo(5_000);
			assertThat(pipeline.table().lastError()).isNull();
			listener.assertEqualTo(replication, "orders");

			listener.failNext(4);
			replication.onSource("UPDATE orders SET amount = amount + 1 WHERE id <= 50",
					"DELETE FROM orders WHERE id BETWEEN 60 AND 70", "UPDATE orders SET id = 900000 WHERE id = 80");
			Position written = SourceQueries.head(replication.pool());
			// While the listener throws, the confirmed position stays where the failed changes begin,
			// although the reader has passed them.
			AtomicReference<Position> held = new AtomicReference<>();
			AtomicBoolean deliveredPast = new AtomicBoolean();
			AtomicBoolean errorShown = new AtomicBoolean();
			AtomicBoolean flushShown = new AtomicBoolean();
			Await.until("listener through its failures", Replication.WAIT, () -> {
				PipelineStatus status = pipeline.status();
				TableStatus table = status.tables().get(0);
				if (listener.pendingFailures() == 0) {
					return true;
				}
				if (listener.failures() > 3 && table.confirmedPosition() != null) {
					Position confirmed = Position.parse(table.confirmedPosition());
					assertThat(confirmed).as("confirmed position while the listener throws").isLessThan(written);
					assertThat(replication.checkpoint("orders")).as("checkpoint while the listener throws")
						.isLessThan(written);
					held.set(confirmed);
					deliveredPast.compareAndSet(false,
							Position.parse(status.position().delivered()).compareTo(written) >= 0);
					errorShown.compareAndSet(false,
							table.lastError() != null && table.lastError().contains("simulated outage"));
					flushShown.compareAndSet(false,
							table.lastFlush() != null && table.lastFlush().outcome().contains("simulated outage"));
				}
				return false;
			});
			assertThat(held).as("position observed while the listener threw").doesNotHaveNullValue();
			assertThat(deliveredPast).as("reader passed the failed changes meanwhile").isTrue();
			assertThat(errorShown).as("lastError showed the listener's failure").isTrue();
			assertThat(flushShown).as("lastFlush showed the listener's failure").isTrue();

			pipeline.awaitCaughtUp();
			TableStatus recovered = pipeline.table();
			assertThat(Position.parse(recovered.confirmedPosition())).isGreaterThanOrEqualTo(written);
			assertThat(recovered.lastError()).isNull();
			assertThat(recovered.lastFlush().outcome()).isEqualTo("ok");
			assertThat(recovered.apply().batchesFailed()).isEqualTo(7);
			listener.assertEqualTo(replication, "orders");
		}
	}

	@Test
	void aChunkRefusedUntilTheStopIsCopiedOnTheNextStart(TestDatabase db) throws Exception {
		MapListener listener = new MapListener();
		Replication replication = orders(db, "lrefuse", 3_000, listener).withSettings((s) -> s.withChunkRows(500));
		listener.failNext(Integer.MAX_VALUE);
		RunningPipeline first = replication.start();
		try {
			// Chunks fail on several copy threads at once: wait for the status too, not only the calls.
			Await.until("listener refusing chunks", Replication.WAIT,
					() -> listener.failures() >= 2 && first.table().lastError() != null);
			assertThat(first.table().lastError()).contains("Snapshot chunk not delivered").contains("simulated outage");
		}
		finally {
			first.close();
		}
		assertThat(first.status().state()).isEqualTo(PipelineStatus.State.STOPPED);
		assertThat(first.table().rowsCopied()).isZero();
		assertThat(listener.rows).isEmpty();

		listener.failNext(0);
		try (RunningPipeline second = replication.startStreaming(Duration.ofMinutes(2))) {
			second.awaitCaughtUp();
			assertThat(second.table().rowsCopied()).isEqualTo(3_000);
			listener.assertEqualTo(replication, "orders");
		}
	}

	@Test
	void restartResumesFromTheCheckpointAndConverges(TestDatabase db) throws Exception {
		MapListener listener = new MapListener();
		Replication replication = orders(db, "lrestart", 3_000, listener);
		replication.runUntilCaughtUp(Duration.ofMinutes(2));
		replication.workload("orders").threads(2).maxOperations(1_000).seed(13).build()
			.runToCompletion(Duration.ofMinutes(2));
		replication.onSource("UPDATE orders SET id = 700000 WHERE id = 3");
		int deliveredBefore = listener.calls();
		try (RunningPipeline second = replication.start()) {
			second.awaitCaughtUp(Duration.ofMinutes(2));
			TableStatus status = second.table();
			assertThat(status.rowsCopied()).as("rows copied after a restart").isZero();
			assertThat(status.changesApplied()).isGreaterThan(0);
			assertThat(listener.calls()).isGreaterThan(deliveredBefore);
			listener.assertEqualTo(replication, "orders");
		}
		assertThat(tablesInTarget(replication)).as("tables in the target schema")
			.containsExactly("tributary_checkpoint");
	}

	@Test
	void truncateStopsTheTableUnlessTheListenerHandlesIt(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "ltrunc");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
		MapListener unaware = new MapListener();
		try (RunningPipeline pipeline = replication.withSettings((s) -> s.withListener(unaware)).startStreaming()) {
			pipeline.awaitCaughtUp();
			replication.onSource("TRUNCATE TABLE t", "INSERT INTO t VALUES (4, 'd')");
			assertThat(pipeline.awaitPhase(Phase.FAILED).lastError()).contains("truncated on the source")
				.contains("ChangeListener.onTruncate")
				.contains("restart");
			assertThat(unaware.rows).hasSize(3);
		}
		// Restarted with a listener that handles it: the truncation is read again from the checkpoint.
		MapListener aware = new MapListener(unaware, true);
		try (RunningPipeline pipeline = replication.withSettings((s) -> s.withListener(aware)).start()) {
			pipeline.awaitCaughtUp();
			assertThat(aware.truncations.get()).isEqualTo(1);
			assertThat(pipeline.table().rowsCopied()).isZero();
			aware.assertEqualTo(replication, "t");
			replication.onSource("INSERT INTO t VALUES (5, 'e')", "TRUNCATE TABLE t", "INSERT INTO t VALUES (6, 'f')");
			pipeline.awaitCaughtUp();
			assertThat(aware.truncations.get()).isEqualTo(2);
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
			aware.assertEqualTo(replication, "t");
		}
	}

	@Test
	void batchesCarryAColumnAddedOnTheSource(TestDatabase db) throws Exception {
		MapListener listener = new MapListener();
		Replication replication = Replication.of(db, "lalter").withSettings((s) -> s.withListener(listener));
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO t VALUES (1, 'a'), (2, 'b')");
		try (RunningPipeline pipeline = replication.startStreaming()) {
			pipeline.awaitCaughtUp();
			assertThat(listener.lastColumns()).containsExactly("id", "v");
			replication.onSource("ALTER TABLE t ADD COLUMN extra INT NULL", "INSERT INTO t VALUES (3, 'c', 30)",
					"UPDATE t SET extra = 10 WHERE id = 1");
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
			assertThat(listener.lastColumns()).containsExactly("id", "v", "extra");
			// Rows are not delivered again for a new column: row 2 comes with it at its next change.
			assertThat(listener.rows.get(List.of(2L))).hasSize(2);
			replication.onSource("UPDATE t SET v = 'bb' WHERE id = 2");
			pipeline.awaitCaughtUp();
			listener.assertEqualTo(replication, "t");
		}
	}

	/** Replicates a table {@code orders} of {@code rows} rows to {@code listener}. */
	private static Replication orders(TestDatabase db, String name, int rows, MapListener listener) {
		Replication replication = Replication.of(db, name).replicating("orders")
			.withSettings((s) -> s.withListener(listener));
		replication.createOrdersTable(rows);
		return replication;
	}

	private static List<String> tablesInTarget(Replication replication) throws Exception {
		return replication.queryStrings("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
				+ replication.target() + "' ORDER BY TABLE_NAME");
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
		void assertEqualTo(Replication replication, String name) throws SQLException {
			TableId table = replication.mapping(name).source();
			Map<List<Object>, Object[]> expected = new HashMap<>();
			try (Connection connection = replication.pool().getConnection()) {
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
