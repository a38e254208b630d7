package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.Position;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static io.tributary.pipeline.ReplicationIT.awaitTable;
import static io.tributary.pipeline.ReplicationIT.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Races between the catch-up loop's flush and the changes that keep arriving, driven through the
 * whole pipeline with faults injected into the real target table (see {@link TargetFaults}).
 * Each test is named after the race it guards.
 */
@ExtendWith(DatabaseExtension.class)
class FlushRaceIT {

	private static final Duration WAIT = Duration.ofMinutes(1);

	/** Any error that is not contention: the flush fails at once and its changes are put back. */
	private static final int PLAIN_FAILURE = 1644;

	private final List<Observation> confirms = new CopyOnWriteArrayList<>();

	@Test
	void changeAddedWhileItsKeyIsFlushedIsNotOverwrittenWhenThatFlushFails(TestDatabase db) throws Exception {
		Fixture f = start(db, "add_during_flush");
		try (Pipeline pipeline = f.pipeline; TargetFaults faults = f.faults) {
			faults.closeGate();
			f.source("UPDATE t SET v = 1 WHERE id = 1");
			await(faults::writerWaitsAtGate, "a flush of v = 1 waiting at the gate");
			long added = table(pipeline).keysAdded();
			// The newer image of the same key arrives while the older one is being written.
			f.source("UPDATE t SET v = 2 WHERE id = 1");
			awaitTable(pipeline, (t) -> t.keysAdded() > added && t.bufferedKeys() == 1, WAIT);
			faults.fail(PLAIN_FAILURE);
			faults.openGate();
			awaitTable(pipeline, (t) -> t.lastFlush() != null && !"ok".equals(t.lastFlush().outcome()), WAIT);
			faults.fail(0);
			pipeline.awaitCaughtUp(WAIT);
			assertThat(f.targetValue(1)).as("the put-back older image must not replace the newer one").isEqualTo(2);
			TableComparison.assertEqual(f.pool, f.src + ".t", f.pool, f.dst + ".t");
			assertBound();
		}
	}

	@Test
	void oldestPendingBelowDeliveredHoldsTheCheckpointAtTheFailedChange(TestDatabase db) throws Exception {
		Fixture f = start(db, "pending_below");
		Position held;
		try (Pipeline pipeline = f.pipeline) {
			f.faults.fail(PLAIN_FAILURE);
			f.source("UPDATE t SET v = 7 WHERE id = 3");
			for (int i = 0; i < 20; i++) {
				f.source("INSERT INTO other VALUES (" + i + ")");
			}
			Observation below = awaitObservation(
					(o) -> o.oldestPending() != null && o.delivered().compareTo(o.oldestPending()) > 0);
			assertThat(below.confirmed()).isEqualTo(below.oldestPending());
			held = below.oldestPending();
		}
		// Stopped while the change still fails: its transaction is where a restart must read again.
		assertThat(Position.parse(f.checkpoint())).isEqualTo(held);
		assertBound();
		f.faults.fail(0);
		try (Pipeline again = new Pipeline(f.settings, f.pool, f.pool)) {
			again.start();
			again.awaitCaughtUp(WAIT);
			assertThat(f.targetValue(3)).isEqualTo(7);
			TableComparison.assertEqual(f.pool, f.src + ".t", f.pool, f.dst + ".t");
		}
		f.faults.close();
	}

	@Test
	void oldestPendingEqualToDeliveredIsConfirmedAsIs(TestDatabase db) throws Exception {
		Fixture f = start(db, "pending_equal");
		try (Pipeline pipeline = f.pipeline; TargetFaults faults = f.faults) {
			faults.closeGate();
			f.source("UPDATE t SET v = 1 WHERE id = 1");
			await(faults::writerWaitsAtGate, "a flush waiting at the gate");
			long added = table(pipeline).keysAdded();
			// Its transaction starts where the one being flushed ended: at the delivered position read.
			f.source("UPDATE t SET v = 1 WHERE id = 2");
			awaitTable(pipeline, (t) -> t.keysAdded() > added, WAIT);
			faults.openGate();
			Observation equal = awaitObservation(
					(o) -> o.oldestPending() != null && o.delivered().compareTo(o.oldestPending()) == 0);
			assertThat(equal.confirmed()).isEqualTo(equal.delivered());
			pipeline.awaitCaughtUp(WAIT);
			TableComparison.assertEqual(f.pool, f.src + ".t", f.pool, f.dst + ".t");
			assertBound();
		}
	}

	@Test
	void oldestPendingAboveDeliveredConfirmsNoFurtherThanDelivered(TestDatabase db) throws Exception {
		Fixture f = start(db, "pending_above");
		try (Pipeline pipeline = f.pipeline; TargetFaults faults = f.faults) {
			faults.closeGate();
			f.source("UPDATE t SET v = 1 WHERE id = 1");
			await(faults::writerWaitsAtGate, "a flush waiting at the gate");
			long added = table(pipeline).keysAdded();
			// A transaction of another table comes first, so the new change starts past delivered.
			f.source("INSERT INTO other VALUES (1)");
			f.source("UPDATE t SET v = 1 WHERE id = 2");
			awaitTable(pipeline, (t) -> t.keysAdded() > added, WAIT);
			faults.openGate();
			Observation above = awaitObservation(
					(o) -> o.oldestPending() != null && o.delivered().compareTo(o.oldestPending()) < 0);
			assertThat(above.confirmed()).isEqualTo(above.delivered());
			pipeline.awaitCaughtUp(WAIT);
			TableComparison.assertEqual(f.pool, f.src + ".t", f.pool, f.dst + ".t");
			assertBound();
		}
	}

	@Test
	void injectedDeadlocksLowerApplyConcurrencyAndTheTableStillConverges(TestDatabase db) throws Exception {
		Fixture f = start(db, "deadlocks");
		try (Pipeline pipeline = f.pipeline; TargetFaults faults = f.faults) {
			faults.fail(1213);
			// Five batches of 1000 rows: enough for all four workers.
			f.source("INSERT INTO t (id, v) SELECT seq, 1 FROM (" + sequence(100, 5100) + ") s");
			awaitTable(pipeline, (t) -> t.apply().contentionEvents() >= 3
					&& t.apply().concurrency() < t.apply().maxConcurrency(), WAIT);
			TableStatus during = table(pipeline);
			faults.fail(0);
			pipeline.awaitCaughtUp(WAIT);
			TableStatus after = table(pipeline);
			assertThat(during.apply().concurrency()).isLessThan(during.apply().maxConcurrency());
			assertThat(after.apply().retries()).isPositive();
			TableComparison.assertEqual(f.pool, f.src + ".t", f.pool, f.dst + ".t");
			assertBound();
		}
	}

	/** Every confirm made was the lesser of delivered and the oldest pending change. */
	private void assertBound() {
		assertThat(this.confirms).isNotEmpty();
		for (Observation o : this.confirms) {
			assertThat(o.confirmed()).as("%s", o).isEqualTo(Position.min(o.delivered(), o.oldestPending()));
		}
	}

	private Observation awaitObservation(Predicate<Observation> wanted) throws InterruptedException {
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (System.nanoTime() < deadline) {
			for (Observation o : this.confirms) {
				if (wanted.test(o)) {
					return o;
				}
			}
			Thread.sleep(20);
		}
		throw new AssertionError("No such confirm within " + WAIT + "; saw " + this.confirms.size());
	}

	private static void await(CheckedCondition condition, String what) throws Exception {
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (!condition.met()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("Not reached within " + WAIT + ": " + what);
			}
			Thread.sleep(20);
		}
	}

	private static String sequence(int from, int to) {
		// Rows from..to-1 without relying on a sequence engine: a cross join of digits.
		return "SELECT " + from + " + a.d + 10 * b.d + 100 * c.d + 1000 * e.d AS seq FROM " + digits("a") + ", "
				+ digits("b") + ", " + digits("c") + ", " + digits("e") + " WHERE " + from
				+ " + a.d + 10 * b.d + 100 * c.d + 1000 * e.d < " + to;
	}

	private static String digits(String alias) {
		return "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL "
				+ "SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) " + alias;
	}

	private Fixture start(TestDatabase db, String name) throws Exception {
		ReplicationIT.server(db);
		String src = db.schema(name + "_src");
		String dst = db.schema(name + "_dst");
		DataSource pool = db.dataSource(null);
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)",
				"INSERT INTO t VALUES (1,0),(2,0),(3,0),(4,0),(5,0),(6,0),(7,0),(8,0),(9,0),(10,0)",
				"CREATE TABLE other (id INT PRIMARY KEY)");
		PipelineSettings settings = ReplicationIT.settings(src, dst, "t");
		Pipeline pipeline = new Pipeline(settings, pool, pool);
		pipeline.observeConfirms((table, delivered, oldestPending, confirmed) -> {
			if (delivered != null) {
				this.confirms.add(new Observation(delivered, oldestPending, confirmed));
			}
		});
		pipeline.start();
		awaitTable(pipeline, (t) -> t.phase() == Phase.STREAMING, WAIT);
		return new Fixture(db, pool, src, dst, settings, pipeline, TargetFaults.install(db, dst, "t"));
	}

	private record Observation(Position delivered, Position oldestPending, Position confirmed) {

	}

	@FunctionalInterface
	private interface CheckedCondition {

		boolean met() throws Exception;

	}

	private record Fixture(TestDatabase db, DataSource pool, String src, String dst, PipelineSettings settings,
			Pipeline pipeline, TargetFaults faults) {

		void source(String sql) {
			this.db.server().execute(this.src, sql);
		}

		int targetValue(int id) throws Exception {
			try (var connection = this.pool.getConnection(); var statement = connection.createStatement();
					var rs = statement.executeQuery("SELECT v FROM `" + this.dst + "`.t WHERE id = " + id)) {
				return rs.next() ? rs.getInt(1) : -1;
			}
		}

		String checkpoint() throws Exception {
			try (var connection = this.pool.getConnection(); var statement = connection.createStatement();
					var rs = statement.executeQuery("SELECT binlog_position FROM `" + this.dst
							+ "`.tributary_checkpoint WHERE source_table LIKE '%.t'")) {
				return rs.next() ? rs.getString(1) : null;
			}
		}

	}

}
