package io.tributary.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.tributary.name.TableId;

/**
 * Measures the time from a source commit to the row's visibility in a target, per transaction, on
 * one clock: writers and pollers share this JVM, so {@link System#nanoTime()} serves both.
 *
 * <p>A {@link Plan} fixes every transaction of a run in advance: transaction {@code i} is due at
 * {@code i / rate} seconds and is either a single-row insert of id {@code i + 1}, whose {@code t0}
 * column holds the writer's clock just before it sent the auto-commit INSERT, or (in the hot
 * variant) an update of one of a few hot rows. {@link #write} keeps that schedule from several
 * connections. A {@link Poller} reads a target table again and again,
 * {@code SELECT id, t0 FROM t WHERE id > ?} from the lowest id it has not seen yet, with a short
 * pause between reads, and takes the clock when it sent the read that first returned a row as the
 * moment the row became visible; the latency is that moment minus {@code t0}.
 */
final class LatencyProbe {

	private LatencyProbe() {
	}

	/**
	 * Every transaction of a run.
	 *
	 * @param rate transactions per second
	 * @param hot per transaction index, the hot row it updates (1-based), or 0 for an insert
	 * @param warmup transactions at the start left out of the percentiles
	 */
	record Plan(int rate, int[] hot, int warmup) {

		/**
		 * @param seconds how long the writers write
		 * @param hotShare share of the transactions that update a hot row
		 * @param hotKeys hot rows, ids 1 to {@code hotKeys}
		 * @param warmupSeconds first seconds left out of the percentiles
		 */
		static Plan of(int rate, int seconds, double hotShare, int hotKeys, int warmupSeconds) {
			int[] hot = new int[rate * seconds];
			Random random = new Random(13);
			for (int i = 0; i < hot.length && hotShare > 0; i++) {
				hot[i] = (random.nextDouble() < hotShare) ? 1 + random.nextInt(hotKeys) : 0;
			}
			return new Plan(rate, hot, Math.min(hot.length, rate * warmupSeconds));
		}

		int transactions() {
			return this.hot.length;
		}

		int inserts() {
			return (int) Arrays.stream(this.hot).filter((key) -> key == 0).count();
		}

		int hotUpdates() {
			return transactions() - inserts();
		}

		/** Whether id {@code id} is inserted. */
		boolean inserted(long id) {
			return id >= 1 && id <= this.hot.length && this.hot[(int) id - 1] == 0;
		}

	}

	/**
	 * What the writers did.
	 *
	 * @param seconds from the first transaction's due time until the last one committed
	 * @param transactions transactions committed
	 * @param maxBehindMillis how far the writers fell behind the schedule at most
	 */
	record Written(double seconds, long transactions, double maxBehindMillis) {

		double rate() {
			return this.transactions / this.seconds;
		}

	}

	/**
	 * Writes a plan from {@code clients} connections, transaction {@code i} on connection
	 * {@code i % clients}, each in auto-commit mode at its due time or, when behind, at once.
	 * @param inserts table the inserts go to: {@code (id BIGINT PRIMARY KEY, t0 BIGINT, pad CHAR(60))}
	 * @param hotRows table of the hot rows: {@code (id INT PRIMARY KEY, n BIGINT, t0 BIGINT)}
	 */
	static Written write(String url, String user, String password, TableId inserts, TableId hotRows, Plan plan,
			int clients) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		AtomicLong maxBehind = new AtomicLong();
		long period = 1_000_000_000L / plan.rate();
		String pad = "x".repeat(60);
		long start = System.nanoTime() + 100_000_000L;
		try {
			List<Future<Long>> done = new ArrayList<>();
			for (int client = 0; client < clients; client++) {
				int first = client;
				done.add(pool.submit(() -> {
					long count = 0;
					try (Connection connection = DriverManager.getConnection(url, user, password);
							PreparedStatement insert = connection.prepareStatement("INSERT INTO " + inserts.quoted()
									+ " (id, t0, pad) VALUES (?, ?, ?)");
							PreparedStatement update = (hotRows == null) ? null : connection.prepareStatement(
									"UPDATE " + hotRows.quoted() + " SET n = n + 1, t0 = ? WHERE id = ?")) {
						connection.setAutoCommit(true);
						insert.setString(3, pad);
						for (int i = first; i < plan.transactions(); i += clients) {
							long due = start + i * period;
							long wait = due - System.nanoTime();
							if (wait > 0) {
								LockSupport.parkNanos(wait);
							}
							else {
								maxBehind.accumulateAndGet(-wait, Math::max);
							}
							if (plan.hot()[i] == 0) {
								insert.setLong(1, i + 1L);
								insert.setLong(2, System.nanoTime());
								insert.executeUpdate();
							}
							else {
								update.setLong(1, System.nanoTime());
								update.setInt(2, plan.hot()[i]);
								update.executeUpdate();
							}
							count++;
						}
					}
					return count;
				}));
			}
			long transactions = 0;
			for (Future<Long> future : done) {
				transactions += future.get();
			}
			return new Written((System.nanoTime() - start) / 1e9, transactions, maxBehind.get() / 1e6);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/** Reads one target table on a thread of its own until closed; see {@link LatencyProbe}. */
	static final class Poller implements AutoCloseable {

		private final String url;

		private final String user;

		private final String password;

		private final TableId table;

		private final Plan plan;

		private final long pauseNanos;

		/** Per id (index id - 1): nanoseconds from t0 until first seen, or -1 while unseen. */
		private final long[] latencies;

		private final Thread thread;

		private volatile long lowestUnseen = 1;

		private volatile long polls;

		private volatile boolean stopped;

		private volatile Exception failure;

		Poller(String name, String url, String user, String password, TableId table, Plan plan, Duration pause) {
			this.url = url;
			this.user = user;
			this.password = password;
			this.table = table;
			this.plan = plan;
			this.pauseNanos = pause.toNanos();
			this.latencies = new long[plan.transactions()];
			Arrays.fill(this.latencies, -1);
			this.thread = new Thread(this::poll, "latency-poller-" + name);
			this.thread.setDaemon(true);
		}

		Poller start() {
			this.thread.start();
			return this;
		}

		private void poll() {
			try (Connection connection = DriverManager.getConnection(this.url, this.user, this.password);
					PreparedStatement select = connection.prepareStatement("SELECT id, t0 FROM " + this.table.quoted()
							+ " WHERE id >= ?")) {
				connection.setAutoCommit(true);
				long low = skipNotInserted(1);
				while (!this.stopped && low <= this.plan.transactions()) {
					select.setLong(1, low);
					long sent = System.nanoTime();
					try (ResultSet rs = select.executeQuery()) {
						while (rs.next()) {
							long id = rs.getLong(1);
							if (id <= this.latencies.length && this.latencies[(int) id - 1] < 0) {
								this.latencies[(int) id - 1] = sent - rs.getLong(2);
							}
						}
					}
					while (low <= this.plan.transactions() && this.latencies[(int) low - 1] >= 0) {
						low = skipNotInserted(low + 1);
					}
					this.lowestUnseen = low;
					this.polls++;
					LockSupport.parkNanos(this.pauseNanos);
				}
			}
			catch (SQLException | RuntimeException ex) {
				this.failure = ex;
			}
		}

		private long skipNotInserted(long id) {
			long next = id;
			while (next <= this.plan.transactions() && !this.plan.inserted(next)) {
				next++;
			}
			return next;
		}

		/** Waits until every inserted row of the plan was seen. */
		void awaitAll(Duration timeout) throws InterruptedException {
			long deadline = System.nanoTime() + timeout.toNanos();
			while (this.lowestUnseen <= this.plan.transactions()) {
				if (this.failure != null) {
					throw new IllegalStateException("The poller of " + this.table + " failed: " + this.failure.getMessage(),
							this.failure);
				}
				if (System.nanoTime() > deadline || !this.thread.isAlive()) {
					throw new IllegalStateException("Row " + this.lowestUnseen + " of " + this.table + " not seen within "
							+ timeout);
				}
				Thread.sleep(10);
			}
		}

		/** The latencies of the rows inserted after the warm-up. */
		Percentiles percentiles() {
			long[] counted = new long[this.latencies.length];
			int n = 0;
			for (int i = this.plan.warmup(); i < this.latencies.length; i++) {
				if (this.plan.hot()[i] == 0 && this.latencies[i] >= 0) {
					counted[n++] = this.latencies[i];
				}
			}
			return Percentiles.of(Arrays.copyOf(counted, n), this.polls);
		}

		@Override
		public void close() throws InterruptedException {
			this.stopped = true;
			this.thread.join(10_000);
		}

	}

	/**
	 * Latency percentiles of one target.
	 *
	 * @param rows rows counted
	 * @param p50Millis median
	 * @param p99Millis 99th percentile
	 * @param maxMillis largest
	 * @param growthMillis median of the last tenth of the rows (in commit order) minus that of the
	 * first tenth: near zero when the target keeps up, the lag it built up when it does not
	 * @param polls reads of the target
	 */
	record Percentiles(int rows, double p50Millis, double p99Millis, double maxMillis, double growthMillis,
			long polls) {

		/** @param nanos latencies in commit order */
		static Percentiles of(long[] nanos, long polls) {
			if (nanos.length == 0) {
				throw new IllegalStateException("No row was counted: the run is shorter than its warm-up");
			}
			int tenth = Math.max(1, nanos.length / 10);
			long[] first = Arrays.copyOf(nanos, tenth);
			long[] last = Arrays.copyOfRange(nanos, nanos.length - tenth, nanos.length);
			Arrays.sort(first);
			Arrays.sort(last);
			double growth = at(last, 0.50) - at(first, 0.50);
			long[] sorted = nanos.clone();
			Arrays.sort(sorted);
			return new Percentiles(sorted.length, at(sorted, 0.50), at(sorted, 0.99), sorted[sorted.length - 1] / 1e6,
					growth, polls);
		}

		/** The nearest-rank percentile. */
		private static double at(long[] sorted, double share) {
			int rank = (int) Math.ceil(share * sorted.length);
			return sorted[Math.max(0, rank - 1)] / 1e6;
		}

		String describe() {
			return String.format("p50 %.1f ms, p99 %.1f ms, max %.1f ms over %,d rows (%,d reads of the target); "
					+ "last tenth's median %+.1f ms against the first's", this.p50Millis, this.p99Millis, this.maxMillis,
					this.rows, this.polls, this.growthMillis);
		}

	}

}
