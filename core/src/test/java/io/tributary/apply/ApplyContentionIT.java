package io.tributary.apply;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Real lock contention against the applier: another session holds row locks in an open
 * transaction, so the applier's statements time out waiting (its sessions wait 1 second at most)
 * or become a deadlock victim. They must be counted, lower the concurrency, be retried, and
 * converge once the locks are gone.
 */
@ExtendWith(DatabaseExtension.class)
class ApplyContentionIT {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private static TestDatabase db;

	private static String schema;

	/** Other sessions: locking, preparing and checking. */
	private static DataSource pool;

	private static ApplyWorkers workers;

	private static final ExecutorService caller = Executors.newSingleThreadExecutor();

	@BeforeAll
	static void setUp(TestDatabase database) {
		db = database;
		schema = database.schema("contention");
		pool = database.dataSource(null);
		workers = new ApplyWorkers("contention-it", 4);
	}

	@AfterAll
	static void tearDown() {
		workers.close();
		caller.shutdownNow();
	}

	@Test
	void lockWaitTimeoutsAreRetriedWithLowerConcurrencyUntilTheLocksAreReleased() throws Exception {
		String table = table("waits", 40);
		ParallelApplier applier = applier(table, 5, 1, ParallelApplier.DEFAULT_MAX_RETRIES);
		CompletableFuture<Void> applying;
		try (Connection locker = pool.getConnection()) {
			locker.setAutoCommit(false);
			lock(locker, "SELECT * FROM " + schema + "." + table + " WHERE id IN (3, 13, 27) FOR UPDATE");

			applying = CompletableFuture.runAsync(() -> applier.upsert(shuffledImages(40, "new")), caller);

			await("two lock wait timeouts", () -> applier.counters().contentionEvents() >= 2);
			ApplierCounters contended = applier.counters();
			assertThat(contended.concurrency()).as("concurrency while contended").isLessThan(4);
			assertThat(contended.maxConcurrency()).isEqualTo(4);
			assertThat(applying).isNotDone();
			locker.rollback();
		}
		applying.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

		TableComparison.assertEqual(pool, schema + "." + table, pool, schema + "." + expected(table, 40, "new"));
		ApplierCounters counters = applier.counters();
		assertThat(counters.batchesApplied()).isEqualTo(8);
		assertThat(counters.batchesFailed()).isZero();
		assertThat(counters.rowsUpserted()).isEqualTo(40);
		assertThat(counters.retries()).isGreaterThanOrEqualTo(2).isEqualTo(counters.contentionEvents());
	}

	@Test
	void givesUpAfterBoundedRetriesAndSucceedsOnceTheLockIsGone() throws Exception {
		String table = table("gives_up", 10);
		ParallelApplier applier = applier(table, 5, 1, 2);
		List<Object[]> rows = shuffledImages(10, "new");
		List<Object[]> keys = List.of(new Object[] { 1L }, new Object[] { 2L });
		try (Connection locker = pool.getConnection()) {
			locker.setAutoCommit(false);
			lock(locker, "SELECT * FROM " + schema + "." + table + " WHERE id = 8 FOR UPDATE");

			assertThatExceptionOfType(ApplyException.class).isThrownBy(() -> applier.upsert(rows))
				.withMessageContaining("Upserting 5 rows into " + schema + "." + table)
				.withMessageContaining("lock wait timeout 3 times in a row")
				.withMessageContaining("INNODB_TRX");
			ApplierCounters counters = applier.counters();
			assertThat(counters.batchesFailed()).isEqualTo(1);
			assertThat(counters.contentionEvents()).isEqualTo(3);
			assertThat(counters.retries()).isEqualTo(2);
			assertThat(counters.batchesApplied()).as("the other statement").isEqualTo(1);
			locker.rollback();
		}
		applier.apply(rows.stream().filter((row) -> (Long) row[0] > 2).toList(), keys, null);

		TableComparison.assertEqual(pool, schema + "." + table, pool, schema + "." + expected(table, 10, "new", 1, 2));
		assertThat(applier.counters().keysDeleted()).isEqualTo(2);
	}

	@Test
	void otherErrorsFailAtOnce() throws Exception {
		String table = table("other_errors", 2);
		ParallelApplier applier = applier(table, 5, 1, ParallelApplier.DEFAULT_MAX_RETRIES);
		List<Object[]> tooLong = List.<Object[]>of(new Object[] { 1L, "x".repeat(50) });

		assertThatExceptionOfType(ApplyException.class).isThrownBy(() -> applier.upsert(tooLong))
			.withMessageContaining("Upserting 1 rows into " + schema + "." + table + " failed")
			.withMessageContaining("error 1406");
		assertThat(applier.counters().retries()).isZero();
		assertThat(applier.counters().batchesFailed()).isEqualTo(1);
	}

	@Test
	void aDeadlockVictimIsRetried() throws Exception {
		String table = table("deadlock", 2);
		db.server().execute(schema, "CREATE TABLE ballast (id INT PRIMARY KEY, v INT NOT NULL)",
				"INSERT INTO ballast SELECT id, 0 FROM (SELECT a.id * 20 + b.id AS id FROM "
						+ "(SELECT 0 AS id UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 "
						+ "UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9) a, "
						+ "(SELECT 0 AS id UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 "
						+ "UNION SELECT 6 UNION SELECT 7 UNION SELECT 8 UNION SELECT 9 UNION SELECT 10 UNION SELECT 11 "
						+ "UNION SELECT 12 UNION SELECT 13 UNION SELECT 14 UNION SELECT 15 UNION SELECT 16 "
						+ "UNION SELECT 17 UNION SELECT 18 UNION SELECT 19) b) numbers");
		// Waits long enough for the deadlock to form rather than time out; the statement is one
		// batch written in the given order: it locks row 1, then waits for row 2.
		ParallelApplier applier = applier(table, 10, 20, ParallelApplier.DEFAULT_MAX_RETRIES);
		CompletableFuture<Void> applying;
		try (Connection locker = pool.getConnection()) {
			locker.setAutoCommit(false);
			// The heavier transaction, so the server picks the applier's as the victim.
			lock(locker, "UPDATE " + schema + ".ballast SET v = v + 1");
			lock(locker, "SELECT * FROM " + schema + "." + table + " WHERE id = 2 FOR UPDATE");

			applying = CompletableFuture.runAsync(() -> applier.upsert(inOrder(2, "new")), caller);
			await("the applier holding row 1 while it waits for row 2", () -> isLocked(table, 1));
			try {
				lock(locker, "SELECT * FROM " + schema + "." + table + " WHERE id = 1 FOR UPDATE");
			}
			catch (SQLException ex) {
				throw new AssertionError("The server chose the locking session as the deadlock victim, not the "
						+ "applier's; make its transaction heavier", ex);
			}
			await("the deadlock counted", () -> applier.counters().contentionEvents() >= 1);
			assertThat(applier.counters().concurrency()).isLessThan(4);
			locker.rollback();
		}
		applying.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

		TableComparison.assertEqual(pool, schema + "." + table, pool, schema + "." + expected(table, 2, "new"));
		assertThat(applier.counters().retries()).isGreaterThanOrEqualTo(1);
		assertThat(applier.counters().batchesApplied()).isEqualTo(1);
	}

	/** Creates a table with rows 1 to {@code rows}, note 'old'. */
	private static String table(String name, int rows) {
		db.server().execute(schema, "CREATE TABLE " + name + " (id INT PRIMARY KEY, note VARCHAR(20) NOT NULL)",
				"INSERT INTO " + name + " " + rowsSelect(rows, "old"));
		return name;
	}

	/** Creates the expected state of a table: rows 1 to {@code rows} with a note, some left out. */
	private static String expected(String table, int rows, String note, long... missing) {
		String name = table + "_expected";
		db.server().execute(schema, "CREATE TABLE " + name + " LIKE " + table,
				"INSERT INTO " + name + " " + rowsSelect(rows, note));
		for (long id : missing) {
			db.server().execute(schema, "DELETE FROM " + name + " WHERE id = " + id);
		}
		return name;
	}

	private static String rowsSelect(int rows, String note) {
		StringBuilder select = new StringBuilder("SELECT * FROM (");
		for (int id = 1; id <= rows; id++) {
			select.append((id > 1) ? " UNION ALL " : "").append("SELECT ").append(id).append(" AS id, '").append(note)
				.append("' AS note");
		}
		return select.append(") r").toString();
	}

	/** Returns row images for ids 1 to {@code rows} in random order. */
	private static List<Object[]> shuffledImages(int rows, String note) {
		List<Object[]> images = inOrder(rows, note);
		Collections.shuffle(images, new Random(rows));
		return images;
	}

	private static List<Object[]> inOrder(int rows, String note) {
		List<Object[]> images = new ArrayList<>();
		for (long id = 1; id <= rows; id++) {
			images.add(new Object[] { id, note });
		}
		return images;
	}

	private static ParallelApplier applier(String table, int batchRows, int lockWaitSeconds, int maxRetries)
			throws SQLException {
		DataSource sessions = withLockWaitTimeout(db.dataSource(schema), lockWaitSeconds);
		TableId id = new TableId(schema, table);
		TableLayout layout;
		try (Connection connection = pool.getConnection()) {
			layout = LayoutReader.read(connection, id);
		}
		return ParallelApplier.create(new JdbcReplaceApplier(sessions, id, layout, batchRows, 1 << 20), workers, 4,
				maxRetries, ParallelApplier.DEFAULT_GROW_AFTER);
	}

	/**
	 * Returns a pool whose connections wait for row locks at most the given seconds. The setting
	 * stays on the pooled connections, so only this test's own pool gets it.
	 */
	private static DataSource withLockWaitTimeout(DataSource pool, int seconds) {
		return (DataSource) Proxy.newProxyInstance(ApplyContentionIT.class.getClassLoader(),
				new Class<?>[] { DataSource.class }, (proxy, method, arguments) -> {
					Object result;
					try {
						result = method.invoke(pool, arguments);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
					if (result instanceof Connection connection) {
						try (Statement statement = connection.createStatement()) {
							statement.execute("SET SESSION innodb_lock_wait_timeout = " + seconds);
						}
					}
					return result;
				});
	}

	private static void lock(Connection connection, String sql) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/** Returns whether another session holds a lock on a row, without waiting for it. */
	private static boolean isLocked(String table, long id) {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(
						"SELECT id FROM " + schema + "." + table + " WHERE id = " + id + " FOR UPDATE SKIP LOCKED")) {
			return !rs.next();
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Waits for {@code condition}; a failure shows the server's sessions and transactions. */
	private static void await(String what, Await.Condition condition) throws Exception {
		try {
			Await.until(what, DEADLINE, condition);
		}
		catch (AssertionError ex) {
			throw new AssertionError(ex.getMessage() + "; sessions and transactions on the server:\n" + sessions(), ex);
		}
	}

	/** Describes the server's sessions and InnoDB transactions, for a failure message. */
	private static String sessions() {
		StringBuilder text = new StringBuilder();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			for (String sql : new String[] { "SELECT ID, COMMAND, TIME, STATE, INFO FROM information_schema.PROCESSLIST",
					"SELECT trx_mysql_thread_id, trx_state, trx_weight, trx_rows_locked, trx_query "
							+ "FROM information_schema.INNODB_TRX" }) {
				try (ResultSet rs = statement.executeQuery(sql)) {
					int columns = rs.getMetaData().getColumnCount();
					while (rs.next()) {
						for (int i = 1; i <= columns; i++) {
							text.append((i > 1) ? " | " : "").append(rs.getString(i));
						}
						text.append('\n');
					}
				}
				text.append('\n');
			}
		}
		catch (SQLException ex) {
			text.append("(cannot list them: ").append(ex.getMessage()).append(')');
		}
		return text.toString();
	}

}
