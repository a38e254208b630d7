package io.tributary.test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

/**
 * A concurrent insert/update/delete workload against one table of the "orders" shape that
 * {@link #createOrdersTable} creates:
 *
 * <pre>
 * id          BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY
 * customer_id INT NOT NULL
 * status      VARCHAR(20) NOT NULL
 * amount      DECIMAL(12,2) NOT NULL
 * note        VARCHAR(200) NULL          -- includes NULL, '' and 4-byte UTF-8 characters
 * payload     JSON NULL
 * data        BLOB NULL
 * created_at  DATETIME(6) NOT NULL
 * updated_at  TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
 * </pre>
 *
 * <p>Each worker thread holds one connection and runs transactions of
 * {@link Builder#transactionSize(int)} statements. Each statement is an insert, an update, a
 * delete or a key move, chosen at random by the weights of {@link Builder#mix(int, int, int, int)}.
 * A key move changes a row's primary key from {@code id} to {@code -id}: the row leaves its place
 * in the key order for the front of it, where a snapshot copying in key order has already been. Updates and
 * deletes address a random id between the smallest id present at {@link #start()} and the largest
 * id seen so far (ids inserted by the workload extend the range once committed); an id that no
 * longer exists simply affects no row. Deadlocks and lock wait timeouts roll the transaction back
 * and retry it; they are counted in {@link Counts#errors()}. Any other error stops the workload and
 * is reported by {@link #stop()} or {@link #awaitCompletion(Duration)}.
 *
 * <p>{@link #counts()} counts only statements of committed transactions that affected a row, so
 * once the workload has finished, {@code inserts - deletes} equals the change in the table's row
 * count caused by it.
 *
 * <p>Usage:
 *
 * <pre>{@code
 * Workload workload = Workload.builder(ds, "shop.orders").threads(4).ratePerSecond(500).build();
 * workload.start();
 * ...
 * workload.stop();
 * Workload.Counts counts = workload.counts();
 * }</pre>
 */
public final class Workload {

	/**
	 * What the workload did: rows inserted, updated and deleted by committed transactions (only
	 * statements that affected a row count), committed transactions, retried errors (deadlocks and
	 * lock wait timeouts), and rows whose key was moved (not counted as updates).
	 */
	public record Counts(long inserts, long updates, long deletes, long transactions, long errors, long keyMoves) {

		/** {@code inserts - deletes}: the change in row count caused by the workload. */
		public long netRows() {
			return inserts - deletes;
		}
	}

	static final String COLUMNS = "customer_id, status, amount, note, payload, data, created_at";
	private static final int COLUMN_COUNT = 7;
	private static final int BULK_CHUNK = 1000;
	private static final String[] STATUSES = {"NEW", "PAID", "PACKED", "SHIPPED", "DELIVERED", "CANCELLED", "REFUNDED"};
	private static final String[] NOTES = {
		"order %d", "please deliver after 6pm \uD83D\uDE9A #%d", "Gr\u00FC\u00DFe aus M\u00FCnchen \uD83C\uDF7A %d",
		"\u65E5\u672C\u8A9E\u306E\u30E1\u30E2 %d", "caf\u00E9 \u2615 no. %d", "gift \uD83C\uDF81\uD83C\uDF89 %d",
		"\uD835\uDD18\uD835\uDD2B\uD835\uDD26\uD835\uDD20\uD835\uDD2C\uD835\uDD21\uD835\uDD22 %d",
		"quote ' and backslash \\ in %d", "tab\tand\nnewline %d",
	};
	private static final LocalDateTime EPOCH = LocalDateTime.of(2020, 1, 1, 0, 0);
	private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
	private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

	private final DataSource dataSource;
	private final String table;
	private final String tableSql;
	private final int threads;
	private final int ratePerSecond;
	private final int insertWeight;
	private final int updateWeight;
	private final int deleteWeight;
	private final int keyMoveWeight;
	private final int transactionSize;
	private final long seed;
	private final long maxOperations;

	private final AtomicLong inserts = new AtomicLong();
	private final AtomicLong updates = new AtomicLong();
	private final AtomicLong deletes = new AtomicLong();
	private final AtomicLong keyMoves = new AtomicLong();
	private final AtomicLong transactions = new AtomicLong();
	private final AtomicLong errors = new AtomicLong();
	private final AtomicLong claimedOperations = new AtomicLong();
	private final AtomicLong maxId = new AtomicLong();
	private final AtomicReference<Throwable> failure = new AtomicReference<>();
	private final List<Thread> workers = new ArrayList<>();
	private volatile long minId;
	private volatile boolean stopRequested;
	private boolean started;

	private Workload(Builder builder) {
		this.dataSource = builder.dataSource;
		this.table = builder.table;
		this.tableSql = quoteTable(builder.table);
		this.threads = builder.threads;
		this.ratePerSecond = builder.ratePerSecond;
		this.insertWeight = builder.insertWeight;
		this.updateWeight = builder.updateWeight;
		this.deleteWeight = builder.deleteWeight;
		this.keyMoveWeight = builder.keyMoveWeight;
		this.transactionSize = builder.transactionSize;
		this.seed = builder.seed;
		this.maxOperations = builder.maxOperations;
	}

	/**
	 * Creates the orders table (see the class description; it must not exist yet) with
	 * {@code utf8mb4} and fills it with {@code rows} rows of varied, reproducible values, including
	 * NULLs, empty strings, JSON documents, binary data and 4-byte UTF-8 characters. Rows are
	 * inserted 1000 at a time in multi-row INSERTs, each committed on its own.
	 *
	 * @param qualifiedTable {@code schema.table}, or a table name in the data source's default schema
	 */
	public static void createOrdersTable(DataSource ds, String qualifiedTable, int rows) {
		if (rows < 0) {
			throw new IllegalArgumentException("rows must not be negative: " + rows);
		}
		String tableSql = quoteTable(qualifiedTable);
		try (Connection connection = ds.getConnection()) {
			connection.setAutoCommit(true);
			try (Statement statement = connection.createStatement()) {
				statement.execute("CREATE TABLE " + tableSql + " ("
						+ "id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
						+ "customer_id INT NOT NULL, "
						+ "status VARCHAR(20) NOT NULL, "
						+ "amount DECIMAL(12,2) NOT NULL, "
						+ "note VARCHAR(200) NULL, "
						+ "payload JSON NULL, "
						+ "data BLOB NULL, "
						+ "created_at DATETIME(6) NOT NULL, "
						+ "updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)"
						+ ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
			}
			Random random = new Random(20240601L);
			int done = 0;
			PreparedStatement full = null;
			try {
				while (done < rows) {
					int chunk = Math.min(BULK_CHUNK, rows - done);
					PreparedStatement insert;
					if (chunk == BULK_CHUNK) {
						if (full == null) {
							full = connection.prepareStatement(multiRowInsert(tableSql, BULK_CHUNK));
						}
						insert = full;
					} else {
						insert = connection.prepareStatement(multiRowInsert(tableSql, chunk));
					}
					try {
						for (int i = 0; i < chunk; i++) {
							bindRow(insert, i * COLUMN_COUNT + 1, random, done + i + 1);
						}
						insert.executeUpdate();
					} finally {
						if (insert != full) {
							insert.close();
						}
					}
					done += chunk;
				}
			} finally {
				if (full != null) {
					full.close();
				}
			}
		} catch (SQLException e) {
			throw new IllegalStateException("cannot create and fill " + qualifiedTable + ": " + e.getMessage(), e);
		}
	}

	private static String multiRowInsert(String tableSql, int rows) {
		StringJoiner values = new StringJoiner(", ");
		for (int i = 0; i < rows; i++) {
			values.add("(?, ?, ?, ?, ?, ?, ?)");
		}
		return "INSERT INTO " + tableSql + " (" + COLUMNS + ") VALUES " + values;
	}

	/** Binds one generated row to seven parameters starting at {@code first}. */
	static void bindRow(PreparedStatement ps, int first, Random random, long n) throws SQLException {
		ps.setInt(first, 1 + random.nextInt(10_000));
		ps.setString(first + 1, STATUSES[random.nextInt(STATUSES.length)]);
		ps.setBigDecimal(first + 2, amount(random));
		ps.setString(first + 3, note(random, n));
		ps.setString(first + 4, payload(random, n));
		ps.setBytes(first + 5, data(random));
		ps.setString(first + 6, EPOCH.plusNanos(random.nextLong(5L * 365 * 86_400_000_000L) * 1000)
				.format(MICROS));
	}

	private static BigDecimal amount(Random random) {
		// 0.00 .. 99999.99, with some whole amounts
		long cents = random.nextInt(10) == 0 ? random.nextInt(1000) * 100L : random.nextInt(10_000_000);
		return BigDecimal.valueOf(cents, 2);
	}

	private static String note(Random random, long n) {
		int pick = random.nextInt(100);
		if (pick < 15) {
			return null;
		}
		if (pick < 20) {
			return "";
		}
		String text = String.format(NOTES[random.nextInt(NOTES.length)], n);
		if (pick >= 95) {
			// long notes up to the column's 200 characters
			StringBuilder longer = new StringBuilder(text);
			while (longer.codePointCount(0, longer.length()) < 200) {
				longer.append(" \uD83D\uDCE6 ").append(text);
			}
			text = longer.substring(0, longer.offsetByCodePoints(0, 200));
		}
		return text;
	}

	private static String payload(Random random, long n) {
		int pick = random.nextInt(10);
		if (pick < 3) {
			return null;
		}
		if (pick == 3) {
			return "[]";
		}
		return "{\"sku\": \"SKU-" + (n % 977) + "\", \"qty\": " + (1 + random.nextInt(20))
				+ ", \"price\": " + amount(random)
				+ ", \"gift\": " + random.nextBoolean()
				+ ", \"tags\": [\"t" + random.nextInt(5) + "\", \"\uD83C\uDFF7\uFE0F label\"]"
				+ (pick == 9 ? ", \"address\": {\"city\": \"Z\u00FCrich\", \"zip\": null}" : "")
				+ "}";
	}

	private static byte[] data(Random random) {
		int pick = random.nextInt(20);
		if (pick < 8) {
			return null;
		}
		if (pick == 8) {
			return new byte[0];
		}
		byte[] bytes = new byte[1 + random.nextInt(256)];
		random.nextBytes(bytes);
		return bytes;
	}

	static String quoteTable(String qualifiedTable) {
		Objects.requireNonNull(qualifiedTable, "qualifiedTable");
		String text = qualifiedTable.replace("`", "");
		int dot = text.indexOf('.');
		if (dot < 0) {
			return "`" + text + "`";
		}
		return "`" + text.substring(0, dot) + "`.`" + text.substring(dot + 1) + "`";
	}

	/** Starts building a workload against {@code qualifiedTable} ({@code schema.table}). */
	public static Builder builder(DataSource ds, String qualifiedTable) {
		return new Builder(ds, qualifiedTable);
	}

	/** Options of a {@link Workload}. */
	public static final class Builder {
		private final DataSource dataSource;
		private final String table;
		private int threads = 2;
		private int ratePerSecond;
		private int insertWeight = 30;
		private int updateWeight = 60;
		private int deleteWeight = 10;
		private int keyMoveWeight;
		private int transactionSize = 1;
		private long seed = 1L;
		private long maxOperations;

		private Builder(DataSource dataSource, String table) {
			this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
			this.table = Objects.requireNonNull(table, "qualifiedTable");
		}

		/** Number of worker threads, each with its own connection; default 2. */
		public Builder threads(int threads) {
			if (threads < 1) {
				throw new IllegalArgumentException("threads must be at least 1: " + threads);
			}
			this.threads = threads;
			return this;
		}

		/**
		 * Target statements per second across all threads; 0 (the default) means as fast as
		 * possible. Each thread paces itself to an equal share of the rate.
		 */
		public Builder ratePerSecond(int ratePerSecond) {
			if (ratePerSecond < 0) {
				throw new IllegalArgumentException("ratePerSecond must not be negative: " + ratePerSecond);
			}
			this.ratePerSecond = ratePerSecond;
			return this;
		}

		/** Relative weights of inserts, updates and deletes, and no key moves; default 30/60/10. */
		public Builder mix(int insertWeight, int updateWeight, int deleteWeight) {
			return mix(insertWeight, updateWeight, deleteWeight, 0);
		}

		/**
		 * Relative weights of inserts, updates, deletes and key moves ({@code id} to {@code -id} on
		 * a row with a positive id); default 30/60/10/0.
		 */
		public Builder mix(int insertWeight, int updateWeight, int deleteWeight, int keyMoveWeight) {
			if (insertWeight < 0 || updateWeight < 0 || deleteWeight < 0 || keyMoveWeight < 0
					|| insertWeight + updateWeight + deleteWeight + keyMoveWeight == 0) {
				throw new IllegalArgumentException("weights must be non-negative and not all zero");
			}
			this.insertWeight = insertWeight;
			this.updateWeight = updateWeight;
			this.deleteWeight = deleteWeight;
			this.keyMoveWeight = keyMoveWeight;
			return this;
		}

		/** Statements per transaction; default 1. */
		public Builder transactionSize(int transactionSize) {
			if (transactionSize < 1) {
				throw new IllegalArgumentException("transactionSize must be at least 1: " + transactionSize);
			}
			this.transactionSize = transactionSize;
			return this;
		}

		/** Seed of the random choices; each thread derives its own generator from it. Default 1. */
		public Builder seed(long seed) {
			this.seed = seed;
			return this;
		}

		/**
		 * Total statements to run across all threads, counting each statement of a committed
		 * transaction once (retried transactions are not counted twice); 0 (the default) means no
		 * limit. When the limit is reached the threads finish and
		 * {@link Workload#awaitCompletion(Duration)} returns.
		 */
		public Builder maxOperations(long maxOperations) {
			if (maxOperations < 0) {
				throw new IllegalArgumentException("maxOperations must not be negative: " + maxOperations);
			}
			this.maxOperations = maxOperations;
			return this;
		}

		/** Creates the workload; it does nothing until {@link Workload#start()}. */
		public Workload build() {
			return new Workload(this);
		}
	}

	/**
	 * Reads the current id range of the table and starts the worker threads.
	 *
	 * @throws IllegalStateException if already started or the table cannot be read
	 */
	public synchronized void start() {
		if (started) {
			throw new IllegalStateException("workload already started");
		}
		started = true;
		try (Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT MIN(id), MAX(id) FROM " + tableSql)) {
			rs.next();
			long min = rs.getLong(1);
			minId = rs.wasNull() ? 1 : min;
			long max = rs.getLong(2);
			maxId.set(rs.wasNull() ? 0 : max);
		} catch (SQLException e) {
			throw new IllegalStateException("cannot read the id range of " + table + ": " + e.getMessage(), e);
		}
		for (int i = 0; i < threads; i++) {
			int index = i;
			Thread worker = new Thread(() -> work(index), "workload-" + table + "-" + i);
			worker.setDaemon(true);
			workers.add(worker);
		}
		workers.forEach(Thread::start);
	}

	/**
	 * Asks the threads to stop after their current statement, rolls back their open transactions,
	 * and waits for them to end.
	 *
	 * @throws IllegalStateException whose cause is the first unexpected error of a worker thread, or
	 *     if the threads do not end within two minutes
	 */
	public void stop() {
		stopRequested = true;
		List<Thread> running;
		synchronized (this) {
			running = List.copyOf(workers);
		}
		running.forEach(LockSupport::unpark);
		long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
		for (Thread worker : running) {
			try {
				long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
				if (remaining > 0) {
					worker.join(remaining);
				}
				if (worker.isAlive()) {
					throw new IllegalStateException("workload thread " + worker.getName() + " did not stop within "
							+ STOP_TIMEOUT);
				}
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted while stopping the workload", e);
			}
		}
		rethrowFailure();
	}

	/**
	 * Waits until all threads have ended, which happens when {@link Builder#maxOperations(long)}
	 * statements have run or after an error.
	 *
	 * @return true if the threads ended within the timeout, false if they are still running
	 * @throws IllegalStateException whose cause is the first unexpected error of a worker thread
	 */
	public boolean awaitCompletion(Duration timeout) {
		List<Thread> running;
		synchronized (this) {
			if (!started) {
				throw new IllegalStateException("workload not started");
			}
			running = List.copyOf(workers);
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		try {
			for (Thread worker : running) {
				long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
				if (remaining > 0) {
					worker.join(remaining);
				}
				if (worker.isAlive()) {
					return false;
				}
			}
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for the workload", e);
		}
		rethrowFailure();
		return true;
	}

	/**
	 * Starts a workload limited by {@link Builder#maxOperations(long)}, waits for it to run all its
	 * statements, and stops it: changes made while, for example, no pipeline runs.
	 *
	 * @return the counters of the finished workload
	 * @throws AssertionError if the statements have not all run within {@code timeout}
	 * @throws IllegalStateException whose cause is the first unexpected error of a worker thread
	 */
	public Counts runToCompletion(Duration timeout) {
		start();
		boolean completed = awaitCompletion(timeout);
		stop();
		if (!completed) {
			throw new AssertionError("workload on " + table + " still running after " + timeout + ": " + counts());
		}
		return counts();
	}

	/**
	 * A snapshot of the counters. While the workload runs the fields are read one after another,
	 * not atomically together; after {@link #stop()} or a successful {@link #awaitCompletion} they
	 * are final.
	 */
	public Counts counts() {
		return new Counts(inserts.get(), updates.get(), deletes.get(), transactions.get(), errors.get(),
				keyMoves.get());
	}

	private void rethrowFailure() {
		Throwable t = failure.get();
		if (t != null) {
			throw new IllegalStateException("workload on " + table + " failed: " + t, t);
		}
	}

	/** Claims up to one transaction's worth of statements from the budget; 0 when it is used up. */
	private int claim() {
		if (maxOperations == 0) {
			return transactionSize;
		}
		while (true) {
			long used = claimedOperations.get();
			long remaining = maxOperations - used;
			if (remaining <= 0) {
				return 0;
			}
			int n = (int) Math.min(transactionSize, remaining);
			if (claimedOperations.compareAndSet(used, used + n)) {
				return n;
			}
		}
	}

	private void work(int index) {
		Random random = new Random(seed * 1_000_003L + index);
		Pacer pacer = new Pacer(ratePerSecond == 0 ? 0 : (long) (threads * 1_000_000_000.0 / ratePerSecond));
		try (Connection connection = dataSource.getConnection();
				PreparedStatement insert = connection.prepareStatement(
						"INSERT INTO " + tableSql + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)",
						Statement.RETURN_GENERATED_KEYS);
				PreparedStatement updateStatus = connection.prepareStatement("UPDATE " + tableSql
						+ " SET status = ?, amount = ?, updated_at = CURRENT_TIMESTAMP(6) WHERE id = ?");
				PreparedStatement updateContent = connection.prepareStatement("UPDATE " + tableSql
						+ " SET note = ?, payload = ?, data = ?, updated_at = CURRENT_TIMESTAMP(6) WHERE id = ?");
				PreparedStatement delete = connection.prepareStatement("DELETE FROM " + tableSql + " WHERE id = ?");
				PreparedStatement moveKey = connection.prepareStatement("UPDATE " + tableSql
						+ " SET id = -id, updated_at = CURRENT_TIMESTAMP(6) WHERE id = ? AND id > 0")) {
			connection.setAutoCommit(false);
			int totalWeight = insertWeight + updateWeight + deleteWeight + keyMoveWeight;
			while (!stopRequested) {
				int size = claim();
				if (size == 0) {
					break;
				}
				while (!stopRequested) {
					long txInserts = 0;
					long txUpdates = 0;
					long txDeletes = 0;
					long txKeyMoves = 0;
					long txMaxId = 0;
					try {
						for (int i = 0; i < size && !stopRequested; i++) {
							pacer.await();
							int pick = random.nextInt(totalWeight);
							if (pick < insertWeight) {
								bindRow(insert, 1, random, random.nextInt(1_000_000));
								if (insert.executeUpdate() > 0) {
									txInserts++;
									try (ResultSet keys = insert.getGeneratedKeys()) {
										if (keys.next()) {
											txMaxId = Math.max(txMaxId, keys.getLong(1));
										}
									}
								}
							} else if (pick < insertWeight + updateWeight) {
								PreparedStatement update;
								if (random.nextBoolean()) {
									update = updateStatus;
									update.setString(1, STATUSES[random.nextInt(STATUSES.length)]);
									update.setBigDecimal(2, amount(random));
									update.setLong(3, randomId(random));
								} else {
									update = updateContent;
									update.setString(1, note(random, random.nextInt(1_000_000)));
									update.setString(2, payload(random, random.nextInt(1_000_000)));
									update.setBytes(3, data(random));
									update.setLong(4, randomId(random));
								}
								if (update.executeUpdate() > 0) {
									txUpdates++;
								}
							} else if (pick < insertWeight + updateWeight + deleteWeight) {
								delete.setLong(1, randomId(random));
								if (delete.executeUpdate() > 0) {
									txDeletes++;
								}
							} else {
								moveKey.setLong(1, randomId(random));
								if (moveKey.executeUpdate() > 0) {
									txKeyMoves++;
								}
							}
						}
						if (stopRequested) {
							connection.rollback();
							break;
						}
						connection.commit();
					} catch (SQLException e) {
						rollbackQuietly(connection);
						if (isRetriable(e)) {
							errors.incrementAndGet();
							continue;
						}
						throw e;
					}
					inserts.addAndGet(txInserts);
					updates.addAndGet(txUpdates);
					deletes.addAndGet(txDeletes);
					keyMoves.addAndGet(txKeyMoves);
					transactions.incrementAndGet();
					long committedMaxId = txMaxId;
					maxId.accumulateAndGet(committedMaxId, Math::max);
					break;
				}
			}
		} catch (Throwable t) {
			failure.compareAndSet(null, t);
			stopRequested = true;
		}
	}

	private long randomId(Random random) {
		long low = minId;
		long high = maxId.get();
		if (high < low) {
			return low;
		}
		return low + random.nextLong(high - low + 1);
	}

	/** Deadlocks (1213) and lock wait timeouts (1205) are expected under concurrency. */
	static boolean isRetriable(SQLException e) {
		for (Throwable t = e; t != null; t = t.getCause()) {
			if (t instanceof SQLException sql) {
				int code = sql.getErrorCode();
				if (code == 1213 || code == 1205 || "40001".equals(sql.getSQLState())
						|| sql instanceof SQLTransactionRollbackException) {
					return true;
				}
			}
		}
		return false;
	}

	private static void rollbackQuietly(Connection connection) {
		try {
			connection.rollback();
		} catch (SQLException ignored) {
			// the next statement reports a broken connection
		}
	}

	/** Spaces statements {@code interval} nanoseconds apart on one thread; no waiting if 0. */
	private final class Pacer {
		private final long interval;
		private long next = System.nanoTime();

		Pacer(long interval) {
			this.interval = interval;
		}

		void await() {
			if (interval == 0) {
				return;
			}
			long now = System.nanoTime();
			if (now - next > TimeUnit.SECONDS.toNanos(1)) {
				// Far behind (for example after a long lock wait): do not burst to catch up.
				next = now;
			}
			next += interval;
			long wait;
			while ((wait = next - System.nanoTime()) > 0 && !stopRequested) {
				LockSupport.parkNanos(wait);
			}
		}
	}
}
