package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.status.TableStatus.Checksum;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

/**
 * One crash trial: a pipeline in a child JVM replicates {@code orders} (many rows, inserts, updates,
 * deletes and key moves) and {@code hot} (a few rows that transactions change again and again)
 * under a workload, and is killed with SIGKILL at a moment drawn from the seed within the phase the
 * trial targets. A pipeline started again from the checkpoint then catches up, the workload stops,
 * and both targets must equal their sources row by row.
 *
 * <p>Everything the trial chooses (settings, the moment of the kill, the workload) comes from its
 * seed; what the threads make of it does not, so a seed replays the same plan, not the same
 * interleaving.
 */
final class CrashTrial {

	/** Rows of {@code orders}; enough that a copy in small chunks takes a few seconds. */
	static final int ROWS = Integer.getInteger("tributary.crash.rows", 20_000);

	private static final int HOT_ROWS = 40;

	private static final Duration WAIT = Duration.ofMinutes(2);

	/** The phase a trial kills the pipeline in. */
	enum Target {

		/** Copying the existing rows. */
		SNAPSHOTTING,
		/** Applying a backlog read from the checkpoint on. */
		CATCHING_UP,
		/** Following the source. */
		STREAMING,
		/** The catch-up loop applying a drain: some of its statements written, others not. */
		FLUSH,
		/** A checksum pass recopying a differing chunk. */
		REPAIR;

		/** Whether the last status line before the kill shows this phase. */
		boolean hitBy(ChildStatus last) {
			if (last == null) {
				return false;
			}
			return switch (this) {
				case SNAPSHOTTING -> last.table("orders").phase() == Phase.SNAPSHOTTING;
				case CATCHING_UP -> last.table("orders").phase() == Phase.CATCHING_UP;
				case STREAMING -> last.table("orders").phase() == Phase.STREAMING;
				case FLUSH -> last.flushing();
				case REPAIR -> last.repairsOpen() > 0;
			};
		}

	}

	/**
	 * What a trial did.
	 * @param target the phase it aimed at
	 * @param seed the seed that replays its plan
	 * @param hit what the last status line before the kill showed
	 * @param targetHit whether that is the phase aimed at
	 * @param moment the kill's trigger, in words
	 * @param outcome {@code ok}, or how the targets differed or the trial failed
	 * @param seconds how long it took
	 */
	record Result(Target target, long seed, String hit, boolean targetHit, String moment, String outcome,
			long seconds) {

		boolean ok() {
			return "ok".equals(this.outcome);
		}

	}

	private final TestDatabase db;

	private final Target target;

	private final long seed;

	private final SplittableRandom random;

	private final Replication replication;

	private String moment = "";

	CrashTrial(TestDatabase db, String name, Target target, long seed) {
		this.db = db;
		this.target = target;
		this.seed = seed;
		this.random = new SplittableRandom(seed);
		this.replication = Replication.of(db, name).replicating("orders", "hot").withSettings(this::settings);
	}

	private PipelineSettings settings(PipelineSettings defaults) {
		int[] checkpointMillis = { 20, 100, 500 };
		PipelineSettings settings = defaults.withFlushInterval(Duration.ofMillis(100))
			.withCheckpointInterval(Duration.ofMillis(checkpointMillis[this.random.nextInt(3)]))
			.withApplyConcurrency(this.random.nextBoolean() ? 1 : 4)
			.withCopy((this.target == Target.SNAPSHOTTING)
					? new CopySizing(1 + this.random.nextInt(2), 200, 200, 200, Duration.ofMillis(500))
					: CopySizing.fixed(2_000));
		// A repair would hide the loss a trial looks for; only the repair trial, whose differences
		// are made on purpose, repairs.
		return settings.withChecksum((this.target == Target.REPAIR) ? new ChecksumSettings(false, true, 500)
				: ChecksumSettings.DEFAULTS.withEnabled(false).withFixDifferences(false));
	}

	/** Runs the trial; its outcome says whether source and target ended equal. */
	Result run() throws Exception {
		long started = System.nanoTime();
		this.replication.createOrdersTable(ROWS);
		Workload.createOrdersTable(this.replication.pool(), this.replication.sourceTable("hot"), HOT_ROWS);
		Workload orders = this.replication.workload("orders").threads(2).ratePerSecond(250).mix(30, 50, 10, 10)
			.transactionSize(3).seed(this.random.nextLong()).build();
		Workload hot = this.replication.workload("hot").threads(2).ratePerSecond(150).mix(15, 65, 15, 5)
			.transactionSize(8).seed(this.random.nextLong()).build();
		orders.start();
		hot.start();
		ChildStatus last;
		String outcome;
		try {
			last = killInTargetPhase();
			outcome = restartAndCompare(orders, hot);
		}
		finally {
			stopQuietly(orders);
			stopQuietly(hot);
		}
		if ("ok".equals(outcome)) {
			this.db.server().execute(null, "DROP DATABASE " + this.replication.source(),
					"DROP DATABASE " + this.replication.target());
		}
		return new Result(this.target, this.seed, hit(last), this.target.hitBy(last), this.moment, outcome,
				TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
	}

	private ChildStatus killInTargetPhase() throws Exception {
		if (this.target == Target.CATCHING_UP) {
			this.replication.runUntilCaughtUp(WAIT);
			onSource("UPDATE orders SET amount = amount + 1 WHERE id % 2 = 0",
					"UPDATE orders SET status = 'BACKLOG' WHERE id % 3 = 0",
					"UPDATE orders SET note = CONCAT('backlog ', id) WHERE id % 5 = 0", "UPDATE hot SET amount = -amount");
		}
		try (ChildPipeline child = ChildPipeline.start(this.db, this.replication.settings())) {
			switch (this.target) {
				case SNAPSHOTTING -> {
					long rows = ROWS * (5 + this.random.nextInt(86)) / 100;
					this.moment = "copied >= " + rows;
					child.killWhen((s) -> s.table("orders").phase() == Phase.SNAPSHOTTING
							&& s.table("orders").rowsCopied() >= rows, 0);
				}
				case CATCHING_UP -> {
					long events = (ROWS / 2 + ROWS / 3 + ROWS / 5) * (5 + this.random.nextInt(86)) / 100;
					this.moment = "backlog events read >= " + events;
					child.killWhen((s) -> s.table("orders").phase() == Phase.CATCHING_UP
							&& s.table("orders").rowEvents() >= events, 0);
				}
				case STREAMING -> {
					long flushes = streaming(child).table("orders").flushesOk() + 1 + this.random.nextInt(20);
					long delay = this.random.nextLong(TimeUnit.MILLISECONDS.toNanos(100));
					this.moment = "flushes >= " + flushes + ", then " + delay / 1000 + " us";
					child.killWhen((s) -> s.table("orders").flushesOk() >= flushes, delay);
				}
				case FLUSH -> {
					long eventsBefore = streaming(child).table("orders").rowEvents();
					int modulus = 2 + this.random.nextInt(3);
					int write = 1 + this.random.nextInt(3);
					long delay = this.random.nextLong(TimeUnit.MILLISECONDS.toNanos(1));
					this.moment = "flush write " + write + " once a bulk update of 1/" + modulus + " is read, then "
							+ delay / 1000 + " us";
					child.killWhen(new BulkFlush(eventsBefore + ROWS / modulus / 4, write), delay);
					onSource("UPDATE orders SET amount = amount + 1, status = 'BULK' WHERE id % " + modulus + " = "
							+ this.random.nextInt(modulus));
				}
				case REPAIR -> {
					streaming(child);
					damageTarget();
					long repairs = child.status().repairWrites() + 1 + this.random.nextInt(12);
					long delay = this.random.nextLong(TimeUnit.MILLISECONDS.toNanos(3));
					this.moment = "repair writes >= " + repairs + ", then " + delay / 1000 + " us";
					child.killWhen((s) -> s.repairWrites() >= repairs, delay);
					child.checksum(this.replication.mapping("orders").source());
				}
			}
			return child.awaitKilled(WAIT);
		}
	}

	/**
	 * Fires at the {@code write}-th flush write counted from the line that shows a bulk update being
	 * read, so the kill lands in the large drains that apply it rather than in the workload's small
	 * ones; a drain may already be under way on that line, and its writes count from there.
	 */
	private static final class BulkFlush implements Predicate<ChildStatus> {

		private final long events;

		private final int write;

		private long writesWhenRead = -1;

		BulkFlush(long events, int write) {
			this.events = events;
			this.write = write;
		}

		@Override
		public boolean test(ChildStatus status) {
			if (this.writesWhenRead < 0 && status.table("orders").rowEvents() >= this.events) {
				this.writesWhenRead = status.flushWrites() - (status.flushing() ? 1 : 0);
			}
			return this.writesWhenRead >= 0 && status.flushWrites() >= this.writesWhenRead + this.write;
		}

	}

	/**
	 * Runs bulk statements on the source, each again when it deadlocks with the workload (which rolled
	 * it back), as an application would.
	 */
	private void onSource(String... statements) {
		for (String sql : statements) {
			for (int attempt = 1;; attempt++) {
				try {
					this.replication.onSource(sql);
					break;
				}
				catch (IllegalStateException ex) {
					boolean contended = ex.getCause() instanceof SQLException cause
							&& (cause.getErrorCode() == 1213 || cause.getErrorCode() == 1205);
					if (!contended || attempt == 10) {
						throw ex;
					}
				}
			}
		}
	}

	private ChildStatus streaming(ChildPipeline child) throws Exception {
		return child.awaitStatus("every table streaming", ChildStatus::allStreaming, WAIT);
	}

	/**
	 * Changes target rows behind the pipeline's back, with the binlog off for the session so nothing
	 * reads it as a change: rows in most checksum chunks differ, some are missing, a few are extra.
	 */
	private void damageTarget() throws SQLException {
		String orders = this.replication.targetTable("orders");
		int offset = this.random.nextInt(97);
		try (Connection connection = this.replication.pool().getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION sql_log_bin = 0");
			try {
				statement.execute("UPDATE " + orders + " SET amount = amount + 1000 WHERE id % 97 = " + offset);
				statement.execute("DELETE FROM " + orders + " WHERE id % 101 = " + offset);
				statement.execute("INSERT INTO " + orders + " (id, customer_id, status, amount, created_at) VALUES "
						+ "(-9000001, 1, 'STRAY', 1, NOW(6)), (9000001, 1, 'STRAY', 1, NOW(6))");
			}
			finally {
				statement.execute("SET SESSION sql_log_bin = 1");
			}
		}
	}

	/** Starts the pipeline again in this JVM, stops the workload, catches up and compares. */
	private String restartAndCompare(Workload orders, Workload hot) throws Exception {
		try (RunningPipeline restarted = this.replication.startStreaming(WAIT)) {
			restarted.awaitTable("hot", (t) -> t.phase() == Phase.STREAMING);
			orders.stop();
			hot.stop();
			restarted.awaitCaughtUp(WAIT);
			if (this.target == Target.REPAIR) {
				// The damage was not the pipeline's doing: a pass repairs what the killed one had not.
				Checksum pass = restarted.checksum("orders", WAIT);
				if (pass.state() != Checksum.State.DONE) {
					return "checksum after the restart " + pass.state() + ": " + pass.lastError();
				}
				restarted.awaitCaughtUp(WAIT);
			}
			StringBuilder differences = new StringBuilder();
			for (String table : new String[] { "orders", "hot" }) {
				TableComparison.Result result = this.replication.compare(table);
				if (!result.equal()) {
					differences.append(differences.isEmpty() ? "" : "; ").append(result);
				}
			}
			return differences.isEmpty() ? "ok" : differences.toString();
		}
	}

	/** What the last status line before the kill shows, for example {@code STREAMING+flush}. */
	static String hit(ChildStatus last) {
		if (last == null) {
			return "(no status)";
		}
		ChildStatus.Table orders = last.table("orders");
		String hit = orders.phase().name();
		if (last.repairsOpen() > 0) {
			hit += "+repair";
		}
		else if (orders.checksum() == Checksum.State.RUNNING) {
			hit += "+checksum";
		}
		return last.flushing() ? hit + "+flush" : hit;
	}

	private static void stopQuietly(Workload workload) {
		try {
			workload.stop();
		}
		catch (RuntimeException ex) {
			// Only on the way out of a trial that failed already; on the normal path the stop before
			// the comparison reports a failed workload.
		}
	}

}
