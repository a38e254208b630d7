package io.tributary.pipeline;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.source.Position;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.InsertStatements;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Races between the catch-up loop's flush and the changes that keep arriving, driven through the
 * whole pipeline with faults injected into the real target table (see {@link TargetFaults}).
 * Each test is named after the race it guards.
 */
@ExtendWith(DatabaseExtension.class)
class FlushRaceIT {

	/** Any error that is not contention: the flush fails at once and its changes are put back. */
	private static final int PLAIN_FAILURE = 1644;

	private final List<Observation> confirms = new CopyOnWriteArrayList<>();

	@Test
	void changeAddedWhileItsKeyIsFlushedIsNotOverwrittenWhenThatFlushFails(TestDatabase db) throws Exception {
		Replication replication = tenRows(db, "add_during_flush");
		try (RunningPipeline pipeline = startStreaming(replication);
				TargetFaults faults = TargetFaults.install(replication, "t")) {
			holdFlushOf(replication, faults, "UPDATE t SET v = 1 WHERE id = 1");
			long added = pipeline.table().keysAdded();
			// The newer image of the same key arrives while the older one is being written.
			replication.onSource("UPDATE t SET v = 2 WHERE id = 1");
			pipeline.awaitTable((t) -> t.keysAdded() > added && t.bufferedKeys() == 1);
			faults.fail(PLAIN_FAILURE);
			faults.openGate();
			pipeline.awaitTable((t) -> t.lastFlush() != null && !"ok".equals(t.lastFlush().outcome()));
			faults.fail(0);
			pipeline.awaitCaughtUp();
			assertThat(targetValue(replication, 1)).as("the put-back older image must not replace the newer one")
				.isEqualTo("2");
			replication.assertEqual("t");
			assertBound();
		}
	}

	@Test
	void oldestPendingBelowDeliveredHoldsTheCheckpointAtTheFailedChange(TestDatabase db) throws Exception {
		Replication replication = tenRows(db, "pending_below");
		Position held;
		TargetFaults faults;
		try (RunningPipeline pipeline = startStreaming(replication)) {
			faults = TargetFaults.install(replication, "t");
			faults.fail(PLAIN_FAILURE);
			replication.onSource("UPDATE t SET v = 7 WHERE id = 3");
			for (int i = 0; i < 20; i++) {
				replication.onSource("INSERT INTO other VALUES (" + i + ")");
			}
			Observation below = awaitObservation(
					(o) -> o.oldestPending() != null && o.delivered().compareTo(o.oldestPending()) > 0);
			assertThat(below.confirmed()).isEqualTo(below.oldestPending());
			held = below.oldestPending();
		}
		// Stopped while the change still fails: its transaction is where a restart must read again.
		assertThat(replication.checkpoint("t")).isEqualTo(held);
		assertBound();
		faults.fail(0);
		try (RunningPipeline again = replication.start()) {
			again.awaitCaughtUp();
			assertThat(targetValue(replication, 3)).isEqualTo("7");
			replication.assertEqual("t");
		}
		faults.close();
	}

	@Test
	void oldestPendingEqualToDeliveredIsConfirmedAsIs(TestDatabase db) throws Exception {
		Replication replication = tenRows(db, "pending_equal");
		try (RunningPipeline pipeline = startStreaming(replication);
				TargetFaults faults = TargetFaults.install(replication, "t")) {
			holdFlushOf(replication, faults, "UPDATE t SET v = 1 WHERE id = 1");
			long added = pipeline.table().keysAdded();
			// Its transaction starts where the one being flushed ended: at the delivered position read.
			replication.onSource("UPDATE t SET v = 1 WHERE id = 2");
			pipeline.awaitTable((t) -> t.keysAdded() > added);
			faults.openGate();
			Observation equal = awaitObservation(
					(o) -> o.oldestPending() != null && o.delivered().compareTo(o.oldestPending()) == 0);
			assertThat(equal.confirmed()).isEqualTo(equal.delivered());
			assertConvergesWithinTheBound(pipeline, replication);
		}
	}

	@Test
	void oldestPendingAboveDeliveredConfirmsNoFurtherThanDelivered(TestDatabase db) throws Exception {
		Replication replication = tenRows(db, "pending_above");
		try (RunningPipeline pipeline = startStreaming(replication);
				TargetFaults faults = TargetFaults.install(replication, "t")) {
			holdFlushOf(replication, faults, "UPDATE t SET v = 1 WHERE id = 1");
			long added = pipeline.table().keysAdded();
			// A transaction of another table comes first, so the new change starts past delivered.
			replication.onSource("INSERT INTO other VALUES (1)");
			replication.onSource("UPDATE t SET v = 1 WHERE id = 2");
			pipeline.awaitTable((t) -> t.keysAdded() > added);
			faults.openGate();
			Observation above = awaitObservation(
					(o) -> o.oldestPending() != null && o.delivered().compareTo(o.oldestPending()) < 0);
			assertThat(above.confirmed()).isEqualTo(above.delivered());
			assertConvergesWithinTheBound(pipeline, replication);
		}
	}

	@Test
	void injectedDeadlocksLowerApplyConcurrencyAndTheTableStillConverges(TestDatabase db) throws Exception {
		Replication replication = tenRows(db, "deadlocks");
		try (RunningPipeline pipeline = startStreaming(replication);
				TargetFaults faults = TargetFaults.install(replication, "t")) {
			faults.fail(1213);
			// Five batches of 1000 rows in one transaction: enough for all four workers.
			replication.onSource(InsertStatements.single("t", 100, 5099, (i) -> i + ", 1"));
			TableStatus during = pipeline.awaitTable((t) -> t.apply().contentionEvents() >= 3
					&& t.apply().concurrency() < t.apply().maxConcurrency());
			faults.fail(0);
			pipeline.awaitCaughtUp();
			TableStatus after = pipeline.table();
			assertThat(during.apply().concurrency()).isLessThan(during.apply().maxConcurrency());
			assertThat(after.apply().retries()).isPositive();
			replication.assertEqual("t");
			assertBound();
		}
	}

	/** Closes the gate, makes {@code change} on the source, and waits until the flush writing it waits at the gate. */
	private static void holdFlushOf(Replication replication, TargetFaults faults, String change) throws Exception {
		faults.closeGate();
		replication.onSource(change);
		Await.until("a flush of '" + change + "' waiting at the gate", Replication.WAIT, faults::writerWaitsAtGate);
	}

	/** The table catches up, ends equal to the source, and every confirm on the way kept the bound. */
	private void assertConvergesWithinTheBound(RunningPipeline pipeline, Replication replication) throws Exception {
		pipeline.awaitCaughtUp();
		replication.assertEqual("t");
		assertBound();
	}

	/** Every confirm made was the lesser of delivered and the oldest pending change. */
	private void assertBound() {
		assertThat(this.confirms).isNotEmpty();
		for (Observation o : this.confirms) {
			assertThat(o.confirmed()).as("%s", o).isEqualTo(Position.min(o.delivered(), o.oldestPending()));
		}
	}

	private Observation awaitObservation(Predicate<Observation> wanted) throws Exception {
		return Await.value("such a confirm", Replication.WAIT, () -> this.confirms.stream().filter(wanted).findFirst(),
				Optional::isPresent)
			.get();
	}

	/** A table {@code t(id, v)} with ten rows, and another table {@code other} that is not replicated. */
	private static Replication tenRows(TestDatabase db, String name) {
		Replication replication = Replication.of(db, name);
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)",
				InsertStatements.single("t", 1, 10, (i) -> i + ",0"), "CREATE TABLE other (id INT PRIMARY KEY)");
		return replication;
	}

	/** Starts a pipeline that records its confirms, and waits for it to stream. */
	private RunningPipeline startStreaming(Replication replication) throws Exception {
		RunningPipeline pipeline = replication.start((p) -> p.observeConfirms((table, delivered, oldestPending,
				confirmed) -> {
			if (delivered != null) {
				this.confirms.add(new Observation(delivered, oldestPending, confirmed));
			}
		}));
		pipeline.awaitPhase(Phase.STREAMING);
		return pipeline;
	}

	private static String targetValue(Replication replication, int id) throws Exception {
		return replication.queryString("SELECT v FROM " + replication.targetTable("t") + " WHERE id = " + id);
	}

	private record Observation(Position delivered, Position oldestPending, Position confirmed) {

	}

}
