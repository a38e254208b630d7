package io.tributary.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.ha.HaSettings;
import io.tributary.status.PipelineStatus.State;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.TestDatabaseServer;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A long run: two instances of a pipeline with HA, each in a child JVM, replicate a source on a
 * server of the test's own under a steady workload (inserts, updates, deletes and key moves on
 * {@code orders}, a few rows changed again and again in {@code hot}, a heartbeat row in {@code beat})
 * for {@code tributary.soak.minutes}. Every {@code tributary.soak.kill-every} seconds the leader is
 * killed with SIGKILL and a replacement started; once the source server is shut down and started
 * again, and once the leader's replication connection is killed on the source. Each child reports
 * its heap used after a full GC and its live threads every few seconds.
 *
 * <p>At the end the workload stops, the target must equal the source row by row, and the leader's
 * heap after GC and threads must have stayed flat within each leader term (one process leading, at
 * least {@value #MIN_TERM_SECONDS} s): the median of the term's last third within
 * {@value #HEAP_SLACK_MB} MB (or half, whichever is more) of its first third's, and threads within
 * {@value #THREAD_SLACK}. A leak grows within a process and starts over with the next, so terms are
 * judged one by one, and kills stop after two thirds of the run so that the last term is long. A
 * live set of a streaming pipeline varies with what its buffers hold at the moment of the GC, a few
 * MB; a leak that matters adds more than that within a term. Threads do not vary in a steady state,
 * so a handful more is a leak (one per reconnect, say), and after each reconnect the count must come
 * back to where it was. {@code -Dtributary.soak.leak=heap} or {@code threads} makes every child leak
 * on purpose ({@link PipelineProcess}), to see these checks fail.
 *
 * <p>Skipped unless {@code tributary.soak.minutes} is set: the {@code soak} profile runs it for 30
 * minutes. Figures go to {@code target/soak-<server>.md}, the series to {@code target/soak-<server>.csv}.
 */
@ExtendWith(DatabaseExtension.class)
class SoakIT {

	static final int HEAP_SLACK_MB = 16;

	static final int THREAD_SLACK = 3;

	/** A leader term shorter than this is not judged for growth: too few samples. */
	static final int MIN_TERM_SECONDS = 60;

	private static final Duration WAIT = Duration.ofMinutes(3);

	private static final HaSettings HA = HaSettings.enabled(Duration.ofSeconds(5), Duration.ofMillis(250));

	private static TestDatabaseServer source;

	private final List<ChildPipeline> children = new ArrayList<>();

	private final List<Long> takeovers = new ArrayList<>();

	private final List<Long> streamingAgain = new ArrayList<>();

	private final List<Long> caughtUp = new ArrayList<>();

	private final List<String> failures = new ArrayList<>();

	private TestDatabase db;

	private Replication replication;

	private SoakLog log;

	private Load load;

	private Heartbeat beat;

	private long started;

	@BeforeAll
	static void startSource() {
		assumeTrue(System.getProperty("tributary.soak.minutes") != null,
				"a soak run only on request: -Psoak or -Dtributary.soak.minutes");
		source = TestDatabaseServer.startDedicated();
	}

	@AfterAll
	static void closeSource() {
		if (source != null) {
			source.close();
		}
	}

	@Test
	void killedLeadersARestartedSourceAndAKilledDumpLeaveTheTargetEqualAndMemoryFlat(TestDatabase db)
			throws Exception {
		long seconds = Math.round(Double.parseDouble(System.getProperty("tributary.soak.minutes")) * 60);
		long killEvery = Long.getLong("tributary.soak.kill-every", Math.min(150, seconds / 4));
		long sampleEvery = Math.max(3, Math.min(10, seconds / 30));
		this.db = db;
		this.log = new SoakLog(db.server().flavor());
		this.replication = Replication.of(db, "soak", source).replicating("orders", "hot", "beat")
			.withSettings((s) -> s.withHa(HA).withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false)));
		this.replication.createOrdersTable(20_000);
		Workload.createOrdersTable(this.replication.sourcePool(), this.replication.sourceTable("hot"), 40);
		this.replication.onSource("CREATE TABLE beat (id INT PRIMARY KEY, at BIGINT NOT NULL)",
				"INSERT INTO beat VALUES (1, 0)");
		this.load = new Load(this.replication);
		this.beat = new Heartbeat(this.replication);
		List<String> header = new ArrayList<>();
		try {
			this.children.add(startChild());
			this.children.add(startChild());
			ChildPipeline first = awaitLeaderStreaming();
			other(first).awaitStatus("standby", (s) -> s.state() == State.STANDBY, WAIT);
			this.load.start();
			this.beat.start();
			this.started = System.nanoTime();
			run(seconds, killEvery, sampleEvery);
			this.load.stop();
			this.beat.stop();
			long last = this.beat.writeNow();
			Await.until("the last heartbeat in the target", WAIT, () -> this.beat.inTarget() == last);
			for (String table : List.of("orders", "hot", "beat")) {
				var result = this.replication.compare(table);
				header.add("- `" + table + "`: " + this.replication.countInSource(table) + " rows, "
						+ (result.equal() ? "equal to the source" : "DIFFERENT: " + result));
				if (!result.equal()) {
					this.failures.add(table + " differs: " + result);
				}
			}
			checkFlat();
		}
		finally {
			this.load.stopQuietly();
			this.beat.stop();
			for (ChildPipeline child : this.children) {
				child.close();
			}
			header.addAll(0, summary(seconds, killEvery));
			System.out.println(this.log.write(header));
		}
		assertThat(this.failures).as("soak failures (see target/soak-%s.md)", db.server().flavor()).isEmpty();
	}

	private void run(long seconds, long killEvery, long sampleEvery) throws Exception {
		long restartAt = seconds * 4 / 10;
		long dumpKillAt = seconds * 7 / 10;
		long nextKill = (killEvery > 0) ? killEvery : Long.MAX_VALUE;
		long nextSample = 0;
		boolean restarted = false;
		boolean dumpKilled = false;
		while (elapsed() < seconds) {
			if (!restarted && elapsed() >= restartAt) {
				restarted = true;
				restartSource();
			}
			else if (!dumpKilled && elapsed() >= dumpKillAt) {
				dumpKilled = true;
				killDumpThread();
			}
			else if (elapsed() >= nextKill && elapsed() < seconds * 2 / 3) {
				nextKill += killEvery;
				killLeader();
			}
			if (elapsed() >= nextSample) {
				nextSample = elapsed() + sampleEvery;
				sample();
			}
			// Paces the schedule; every wait for the pipelines is on a condition.
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
		}
	}

	/** A child; with {@code tributary.soak.leak} set it leaks on purpose, to show the checks catch it. */
	private ChildPipeline startChild() throws IOException {
		String leak = System.getProperty("tributary.soak.leak");
		return ChildPipeline.start(this.db, source, this.replication.settings(),
				(leak != null) ? List.of("leak=" + leak) : List.of());
	}

	private void killLeader() throws Exception {
		ChildPipeline leader = leader();
		ChildPipeline standby = other(leader);
		long second = elapsed();
		long wall = System.currentTimeMillis();
		long killed = System.nanoTime();
		leader.kill();
		leader.close();
		this.children.remove(leader);
		ChildPipeline replacement = startChild();
		this.children.add(replacement);
		standby.awaitStatus("leading after the leader's kill", (s) -> s.state() != State.STANDBY, WAIT);
		long takeover = millisSince(killed);
		standby.awaitStatus("streaming after the takeover", (s) -> s.state() == State.RUNNING && s.allStreaming(),
				WAIT);
		long streaming = millisSince(killed);
		this.beat.awaitInTarget(wall);
		long applied = millisSince(killed);
		replacement.awaitStatus("the replacement standing by", (s) -> s.state() == State.STANDBY, WAIT);
		this.takeovers.add(takeover);
		this.streamingAgain.add(streaming);
		this.caughtUp.add(applied);
		this.log.add(new SoakLog.Event(second, "SIGKILL leader " + leader.pid(),
				List.of("leads " + takeover, "streams " + streaming, "caught up " + applied),
				"new leader " + standby.pid() + ", replacement " + replacement.pid()));
	}

	private void restartSource() throws Exception {
		ChildPipeline leader = leader();
		ChildSample before = leader.sample();
		long second = elapsed();
		this.load.stop();
		long stopping = System.nanoTime();
		source.stopServer();
		source.startServer();
		long down = millisSince(stopping);
		long wall = System.currentTimeMillis();
		long up = System.nanoTime();
		this.load.start();
		this.beat.awaitInTarget(wall);
		long recovered = millisSince(up);
		String threads = threadsSettle(leader, before);
		this.log.add(new SoakLog.Event(second, "source stopped and started",
				List.of("down " + down, "caught up " + recovered + " after the start"),
				"leader " + leader.pid() + " kept; " + threads));
	}

	private void killDumpThread() throws Exception {
		ChildPipeline leader = leader();
		ChildSample before = leader.sample();
		long second = elapsed();
		Set<Long> dumps = dumpThreads();
		assertThat(dumps).as("binlog dump threads on the source").isNotEmpty();
		long wall = System.currentTimeMillis();
		long killed = System.nanoTime();
		for (long id : dumps) {
			source.execute(null, "KILL " + id);
		}
		Await.until("a new binlog dump thread", WAIT, () -> !dumps.containsAll(dumpThreads()) && !dumpThreads().isEmpty());
		long reconnected = millisSince(killed);
		this.beat.awaitInTarget(wall);
		long recovered = millisSince(killed);
		String threads = threadsSettle(leader, before);
		this.log.add(new SoakLog.Event(second, "KILL of the binlog dump thread (" + dumps.size() + ")",
				List.of("reconnected " + reconnected, "caught up " + recovered),
				"leader " + leader.pid() + " kept; " + threads));
	}

	/** Waits for the leader's thread count to come back to where it was before a reconnect. */
	private String threadsSettle(ChildPipeline leader, ChildSample before) throws Exception {
		try {
			ChildSample after = Await.value("threads back to " + before.threads() + " + " + THREAD_SLACK,
					Duration.ofSeconds(30), leader::sample, (s) -> s.threads() <= before.threads() + THREAD_SLACK);
			return "threads " + before.threads() + " -> " + after.threads() + ", reconnects " + before.reconnects()
					+ " -> " + after.reconnects();
		}
		catch (AssertionError ex) {
			this.failures.add("threads after a reconnect: " + ex.getMessage());
			return "threads did not settle: " + ex.getMessage();
		}
	}

	private Set<Long> dumpThreads() throws Exception {
		Set<Long> ids = new HashSet<>();
		try (Connection connection = this.replication.sourcePool().getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(
						"SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'")) {
			while (rs.next()) {
				ids.add(rs.getLong(1));
			}
		}
		return ids;
	}

	private void sample() throws Exception {
		long second = elapsed();
		double load = loadAverage();
		long newest = this.beat.inTarget();
		// Before the first heartbeat arrives there is nothing to measure from.
		long lag = (newest > 0) ? System.currentTimeMillis() - newest : -1;
		for (ChildPipeline child : this.children) {
			ChildStatus status = child.status();
			if (child.isAlive() && status != null) {
				long applied = status.tables().values().stream().mapToLong(ChildStatus.Table::changesApplied).sum();
				this.log.add(new SoakLog.Row(second, child.pid(), child.sample(), lag, applied, load));
			}
		}
	}

	/**
	 * Judges each leader term of at least {@value #MIN_TERM_SECONDS} s on its own: the median of its
	 * last third against its first third. The last term is the longest, the run's last third.
	 */
	private void checkFlat() {
		List<List<SoakLog.Row>> terms = this.log.leaderTerms().stream()
			.filter((term) -> SoakLog.span(term) >= MIN_TERM_SECONDS).toList();
		if (terms.isEmpty()) {
			this.failures.add("no leader term of " + MIN_TERM_SECONDS + " s or more to judge memory and threads by");
		}
		for (List<SoakLog.Row> term : terms) {
			String leader = "leader " + term.get(0).pid() + " (s " + term.get(0).second() + "-"
					+ term.get(term.size() - 1).second() + ")";
			double heapFirst = SoakLog.thirdMedian(term, 0, SoakLog.Row::heapMb);
			double heapLast = SoakLog.thirdMedian(term, 2, SoakLog.Row::heapMb);
			double heapLimit = heapFirst + Math.max(HEAP_SLACK_MB, heapFirst / 2);
			if (!(heapLast <= heapLimit)) {
				this.failures.add(String.format(Locale.ROOT,
						"%s: heap after GC grew: last-third median %.1f MB > %.1f MB (first third %.1f MB)", leader,
						heapLast, heapLimit, heapFirst));
			}
			double threadsFirst = SoakLog.thirdMedian(term, 0, (r) -> r.sample().threads());
			double threadsLast = SoakLog.thirdMedian(term, 2, (r) -> r.sample().threads());
			if (!(threadsLast <= threadsFirst + THREAD_SLACK)) {
				this.failures.add(String.format(Locale.ROOT, "%s: threads grew: last-third median %.0f > first third %.0f + %d",
						leader, threadsLast, threadsFirst, THREAD_SLACK));
			}
			this.log.note(String.format(Locale.ROOT,
					"%s: heap after GC %.1f -> %.1f MB, threads %.0f -> %.0f (medians of the term's first and last third)",
					leader, heapFirst, heapLast, threadsFirst, threadsLast));
		}
	}

	private List<String> summary(long seconds, long killEvery) {
		List<String> lines = new ArrayList<>();
		lines.add(String.format(Locale.ROOT, "%s; %d min planned, %d s run; leader killed every %s; HA lease %d ms, poll %d ms.",
				source.version(), seconds / 60, (this.started == 0) ? 0 : elapsed(),
				(killEvery > 0) ? killEvery + " s" : "never", HA.lease().toMillis(), HA.pollInterval().toMillis()));
		lines.add("");
		lines.add("- workload: " + this.load.counts());
		lines.add("- kills of the leader: " + this.takeovers.size() + "; takeover (lock taken) p50 "
				+ SoakLog.percentile(this.takeovers, 0.5) + " ms, max " + SoakLog.percentile(this.takeovers, 1.0)
				+ " ms; streaming again p50 " + SoakLog.percentile(this.streamingAgain, 0.5) + " ms, max "
				+ SoakLog.percentile(this.streamingAgain, 1.0) + " ms; caught up p50 "
				+ SoakLog.percentile(this.caughtUp, 0.5) + " ms, max " + SoakLog.percentile(this.caughtUp, 1.0) + " ms");
		lines.add("- epochs seen: " + this.log.leaderRows().stream().mapToLong((r) -> r.sample().epoch()).distinct().count()
				+ " (one more per takeover; more than kills + 1 means a leader lost its lease on its own)");
		lines.add("- failures: " + (this.failures.isEmpty() ? "none" : String.join("; ", this.failures)));
		return lines;
	}

	private ChildPipeline awaitLeaderStreaming() throws Exception {
		Await.until("one child leading and streaming", WAIT, () -> {
			for (ChildPipeline child : this.children) {
				ChildStatus status = child.status();
				if (status != null && status.tables().values().stream().anyMatch((t) -> t.phase() == Phase.FAILED)) {
					throw new AssertionError("A table failed in child " + child.pid() + "; its log: " + child.log());
				}
				if (status != null && status.state() == State.RUNNING && status.allStreaming()) {
					return true;
				}
			}
			return false;
		});
		return leader();
	}

	/** The child that leads; exactly one must. */
	private ChildPipeline leader() {
		List<ChildPipeline> leading = this.children.stream()
			.filter((c) -> c.isAlive() && c.status() != null && c.status().state() != State.STANDBY)
			.toList();
		assertThat(leading).as("children leading").hasSize(1);
		return leading.get(0);
	}

	private ChildPipeline other(ChildPipeline child) {
		return this.children.stream().filter((c) -> c != child).findFirst().orElseThrow();
	}

	private long elapsed() {
		return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - this.started);
	}

	private static long millisSince(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
	}

	private static double loadAverage() {
		try {
			return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/**
	 * The workload on {@code orders} and {@code hot}, where few inserts and more deletes keep the rows
	 * few (hundreds) for the whole run, so its updates hit the same rows again and again; stopped around the source's
	 * restart, whose
	 * broken connections would end it, and started again after, so its counts add up over both.
	 */
	private static final class Load {

		private final Replication replication;

		private final List<Workload> workloads = new ArrayList<>();

		private final List<Workload.Counts> done = new ArrayList<>();

		private long seed = 1;

		Load(Replication replication) {
			this.replication = replication;
		}

		void start() {
			this.workloads.add(this.replication.workload("orders").threads(2).ratePerSecond(100).mix(30, 50, 10, 10)
				.transactionSize(3).seed(this.seed++).build());
			this.workloads.add(this.replication.workload("hot").threads(2).ratePerSecond(60).mix(2, 90, 6, 2)
				.transactionSize(8).seed(this.seed++).build());
			this.workloads.forEach(Workload::start);
		}

		void stop() {
			for (Workload workload : this.workloads) {
				workload.stop();
				this.done.add(workload.counts());
			}
			this.workloads.clear();
		}

		void stopQuietly() {
			try {
				stop();
			}
			catch (RuntimeException ex) {
				// Only on the way out of a run that failed already.
			}
		}

		String counts() {
			long inserts = 0;
			long updates = 0;
			long deletes = 0;
			long keyMoves = 0;
			long transactions = 0;
			for (Workload.Counts counts : this.done) {
				inserts += counts.inserts();
				updates += counts.updates();
				deletes += counts.deletes();
				keyMoves += counts.keyMoves();
				transactions += counts.transactions();
			}
			return String.format(Locale.ROOT, "%,d transactions: %,d inserts, %,d updates, %,d deletes, %,d key moves",
					transactions, inserts, updates, deletes, keyMoves);
		}

	}

	/**
	 * A row on the source set to the wall clock every half second: the newest value the target holds
	 * tells how far behind it is, end to end, and when a change made after a moment has arrived.
	 */
	private static final class Heartbeat {

		private final Replication replication;

		private final AtomicLong failed = new AtomicLong();

		private ScheduledExecutorService timer;

		Heartbeat(Replication replication) {
			this.replication = replication;
		}

		void start() {
			this.timer = Executors.newSingleThreadScheduledExecutor();
			this.timer.scheduleWithFixedDelay(() -> {
				try {
					writeNow();
				}
				catch (RuntimeException ex) {
					// The source is down for its restart; the next beat tries again.
					this.failed.incrementAndGet();
				}
			}, 0, 500, TimeUnit.MILLISECONDS);
		}

		void stop() throws InterruptedException {
			if (this.timer != null) {
				this.timer.shutdownNow();
				this.timer.awaitTermination(1, TimeUnit.MINUTES);
			}
		}

		long writeNow() {
			long now = System.currentTimeMillis();
			this.replication.onSource("UPDATE beat SET at = " + now + " WHERE id = 1");
			return now;
		}

		long inTarget() throws Exception {
			String at = this.replication.queryString("SELECT at FROM " + this.replication.targetTable("beat"));
			return (at != null) ? Long.parseLong(at) : 0;
		}

		void awaitInTarget(long wall) throws Exception {
			Await.until("a heartbeat written after " + wall + " in the target", WAIT, () -> inTarget() >= wall);
		}

	}

}
