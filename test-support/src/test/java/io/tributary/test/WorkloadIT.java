package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkloadIT {

	private TestDatabase db;
	private String schema;
	private DataSource ds;

	@BeforeAll
	void setUp(TestDatabase db) {
		this.db = db;
		this.schema = db.schema("w");
		this.ds = db.dataSource(schema);
	}

	@Test
	void createsTheOrdersTableWithVariedValues() throws SQLException {
		Workload.createOrdersTable(ds, schema + ".seeded", 2500);

		assertThat(queryLong("SELECT COUNT(*) FROM seeded")).isEqualTo(2500);
		assertThat(queryLong("SELECT MIN(id) FROM seeded")).isEqualTo(1);
		assertThat(queryLong("SELECT MAX(id) FROM seeded")).isEqualTo(2500);
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE note IS NULL")).isPositive();
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE note = ''")).isPositive();
		// 4-byte UTF-8 characters survive the round trip: more bytes than characters, and an emoji.
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE LENGTH(note) > CHAR_LENGTH(note)")).isPositive();
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE note LIKE '%\uD83C\uDF81%'")).isPositive();
		assertThat(queryLong("SELECT MAX(CHAR_LENGTH(note)) FROM seeded")).isEqualTo(200);
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE payload IS NULL")).isPositive();
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE JSON_VALID(payload)")).isPositive();
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE data IS NULL")).isPositive();
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE LENGTH(data) > 0")).isPositive();
		assertThat(queryLong("SELECT COUNT(DISTINCT status) FROM seeded")).isGreaterThan(3);
		assertThat(queryLong("SELECT COUNT(*) FROM seeded WHERE MICROSECOND(created_at) <> 0")).isPositive();

		assertThatThrownBy(() -> Workload.createOrdersTable(ds, schema + ".seeded", 1))
				.isInstanceOf(IllegalStateException.class);
	}

	@Test
	void boundedRunCountsAddUpToTheRowCountChange() throws SQLException {
		Workload.createOrdersTable(ds, schema + ".bounded", 2000);
		long before = queryLong("SELECT COUNT(*) FROM bounded");

		Workload workload = Workload.builder(ds, schema + ".bounded")
				.threads(3)
				.transactionSize(3)
				.maxOperations(1500)
				.seed(7)
				.build();
		workload.start();
		assertThat(workload.awaitCompletion(Duration.ofMinutes(3))).isTrue();
		workload.stop();

		Workload.Counts counts = workload.counts();
		long after = queryLong("SELECT COUNT(*) FROM bounded");
		assertThat(counts.inserts() - counts.deletes()).as(counts.toString()).isEqualTo(after - before);
		assertThat(counts.netRows()).isEqualTo(after - before);
		assertThat(counts.transactions()).as(counts.toString()).isEqualTo(500);
		assertThat(counts.inserts() + counts.updates() + counts.deletes()).isBetween(1L, 1500L);
		assertThat(counts.inserts()).isPositive();
		assertThat(counts.updates()).isPositive();
		assertThat(counts.deletes()).isPositive();
		assertThat(counts.errors()).isNotNegative();
		assertThat(queryLong("SELECT COUNT(*) FROM bounded WHERE updated_at > created_at")).isPositive();
	}

	@Test
	void unboundedRunStopsOnRequestWithConsistentCounts() throws Exception {
		Workload.createOrdersTable(ds, schema + ".unbounded", 500);
		long before = queryLong("SELECT COUNT(*) FROM unbounded");

		Workload workload = Workload.builder(ds, schema + ".unbounded").threads(2).mix(50, 30, 20).seed(11).build();
		workload.start();
		awaitTransactions(workload, 200, Duration.ofMinutes(2));
		workload.stop();

		Workload.Counts counts = workload.counts();
		assertThat(counts.transactions()).isGreaterThanOrEqualTo(200);
		assertThat(counts.netRows()).as(counts.toString()).isEqualTo(queryLong("SELECT COUNT(*) FROM unbounded") - before);
		// Counters do not move after stop().
		assertThat(workload.counts()).isEqualTo(counts);
	}

	@Test
	void keyMovesGiveRowsTheNegativeOfTheirKey() throws SQLException {
		Workload.createOrdersTable(ds, schema + ".moves", 200);
		Workload workload = Workload.builder(ds, schema + ".moves").threads(2).mix(0, 0, 0, 1).maxOperations(60)
				.seed(5).build();
		workload.start();
		assertThat(workload.awaitCompletion(Duration.ofMinutes(1))).isTrue();
		Workload.Counts counts = workload.counts();
		assertThat(counts.keyMoves()).isPositive();
		assertThat(counts.updates() + counts.inserts() + counts.deletes()).isZero();
		assertThat(queryLong("SELECT COUNT(*) FROM moves WHERE id < 0")).isEqualTo(counts.keyMoves());
		assertThat(queryLong("SELECT COUNT(*) FROM moves")).isEqualTo(200);
		assertThat(queryLong("SELECT COUNT(*) FROM moves WHERE -id IN (SELECT id FROM (SELECT id FROM moves) m)"))
				.isZero();
	}

	@Test
	void ratePerSecondThrottlesTheWorkload() {
		Workload.createOrdersTable(ds, schema + ".paced", 100);
		Workload workload = Workload.builder(ds, schema + ".paced")
				.threads(2)
				.ratePerSecond(100)
				.maxOperations(60)
				.build();
		long started = System.nanoTime();
		workload.start();
		assertThat(workload.awaitCompletion(Duration.ofMinutes(1))).isTrue();
		Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
		// 60 statements at 100 per second take at least about half a second.
		assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(450));
		assertThat(workload.counts().transactions()).isEqualTo(60);
	}

	@Test
	void insertOnlyWorkloadOnEmptyTable() throws SQLException {
		Workload.createOrdersTable(ds, schema + ".inserts", 0);
		Workload workload = Workload.builder(ds, schema + ".inserts").mix(1, 0, 0).maxOperations(100).build();
		workload.start();
		assertThat(workload.awaitCompletion(Duration.ofMinutes(1))).isTrue();
		assertThat(workload.counts().inserts()).isEqualTo(100);
		assertThat(queryLong("SELECT COUNT(*) FROM inserts")).isEqualTo(100);
	}

	@Test
	void updatesAndDeletesOnEmptyTableAffectNothing() throws SQLException {
		Workload.createOrdersTable(ds, schema + ".empty", 0);
		Workload workload = Workload.builder(ds, schema + ".empty").mix(0, 1, 1).maxOperations(50).build();
		workload.start();
		assertThat(workload.awaitCompletion(Duration.ofMinutes(1))).isTrue();
		assertThat(workload.counts()).isEqualTo(new Workload.Counts(0, 0, 0, 50, 0, 0));
	}

	@Test
	void startFailsForMissingTable() {
		Workload workload = Workload.builder(ds, schema + ".no_such_table").build();
		assertThatThrownBy(workload::start).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("no_such_table");
	}

	@Test
	void unexpectedErrorsSurfaceFromAwaitAndStop() throws Exception {
		Workload.createOrdersTable(ds, schema + ".doomed", 100);
		Workload workload = Workload.builder(ds, schema + ".doomed").threads(2).build();
		workload.start();
		awaitTransactions(workload, 20, Duration.ofMinutes(1));
		db.server().execute(schema, "DROP TABLE doomed");

		assertThatThrownBy(() -> workload.awaitCompletion(Duration.ofMinutes(1)))
				.isInstanceOf(IllegalStateException.class)
				.hasRootCauseInstanceOf(SQLException.class)
				.hasMessageContaining("doomed");
		assertThatThrownBy(workload::stop).isInstanceOf(IllegalStateException.class);
	}

	@Test
	void workloadLeavesTableComparableToACopy() {
		Workload.createOrdersTable(ds, schema + ".source", 1000);
		Workload workload = Workload.builder(ds, schema + ".source").transactionSize(5).maxOperations(500).build();
		workload.start();
		assertThat(workload.awaitCompletion(Duration.ofMinutes(2))).isTrue();
		db.server().execute(schema, "CREATE TABLE target LIKE source", "INSERT INTO target SELECT * FROM source");
		TableComparison.assertEqual(ds, schema + ".source", db.dataSource(null), schema + ".target");
	}

	/** Waits for the workload's committed transactions; a workload that does not get there is stopped. */
	private static void awaitTransactions(Workload workload, long transactions, Duration timeout) throws Exception {
		try {
			Await.value("the workload at " + transactions + " transactions", timeout, workload::counts,
					(counts) -> counts.transactions() >= transactions);
		} catch (AssertionError e) {
			workload.stop();
			throw e;
		}
	}

	private long queryLong(String sql) throws SQLException {
		try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
			rs.next();
			return rs.getLong(1);
		}
	}
}
