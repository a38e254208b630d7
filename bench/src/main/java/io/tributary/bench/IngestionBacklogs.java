package io.tributary.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import io.tributary.name.TableId;
import io.tributary.source.Position;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.test.TestDatabaseServer;

/**
 * The two stretches of binlog the ingestion scenarios read, written once per server: the same
 * {@code changes} single-row updates ({@code UPDATE sbtest1 SET k = k + 1 WHERE id = ?} on ids drawn
 * from one seeded sequence) first as transactions of {@code perTransaction} updates, then each as a
 * transaction of its own.
 *
 * <p>Schema {@code bench_ingest} holds {@code sbtest1} (sysbench's shape: INT key, INT {@code k} with
 * a secondary index, CHAR(120), CHAR(60); {@code tableRows} rows), {@code other} (the same shape,
 * empty: what the unsubscribed reader subscribes to) and {@code marker} (rows that tell when
 * Debezium's schema history is complete). The server runs the updates itself, {@code clients}
 * sequences of transactions at once ({@link ServerSideUpdates}), with the source's settings of the
 * apply scenario ({@link SourceTuning}), which reads the second backlog too.
 *
 * <p>When the apply scenario reads the backlog of one update per transaction
 * ({@link ApplyScenario#sharesIngestionBacklog}), the table is copied into {@code sbtest1_start}
 * right before that backlog, through the binlog ({@code CREATE TABLE} and
 * {@code INSERT ... SELECT}): a replica that replays only that stretch holds the table as the
 * backlog finds it, without replaying the load and the batched backlog.
 *
 * @param schema the schema
 * @param history Debezium's schema history file, or {@code null} when Debezium does not run
 * @param all the backlogs, batched first
 * @param startCopy where the copy of the table at the one-row backlog's start begins in the binlog
 * (file and offset; it ends where that backlog starts), or {@code null} when none was made
 * @param rows rows of the table
 * @param touched the ids the updates hit (each backlog hits the same ones)
 */
record IngestionBacklogs(String schema, String history, List<Backlog> all, Position startCopy, int rows,
		BitSet touched) {

	static final String SCHEMA = "bench_ingest";

	static final String TABLE = "sbtest1";

	/** The copy of {@link #TABLE} as the backlog of one update per transaction finds it. */
	static final String START_COPY = "sbtest1_start";

	static IngestionBacklogs write(ScenarioContext context) throws Exception {
		TestDatabaseServer server = context.server();
		BenchSettings settings = context.settings();
		DataSource pool = server.dataSource(null);
		// The table and the writer's ids outgrow the default 256 MiB: the updates would wait for
		// pages read back from disk. Nothing of it reaches the binlog the scenarios read.
		SnapshotScenario.resizeBufferPool(pool);
		server.createSchema(SCHEMA);
		int rows = settings.number("tableRows");
		long started = System.nanoTime();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			for (String table : new String[] { TABLE, "other" }) {
				statement.execute(createTable(table));
			}
			statement.execute("CREATE TABLE " + SCHEMA + ".marker (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
					+ "at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))");
		}
		SysbenchRows.load(pool, SCHEMA + "." + TABLE, rows, 7);
		context.say(String.format("loaded %,d rows into %s.%s in %.1f s", rows, SCHEMA, TABLE, seconds(started)));
		String history = null;
		if (settings.runs("ingestion")) {
			history = context.files().scratch("debezium-history-" + context.flavor() + ".dat").toString();
			started = System.nanoTime();
			context.readers().run("debezium-schema", "debezium-schema", connection(server, history));
			context.say(String.format("recorded Debezium's schema history in %.1f s", seconds(started)));
		}
		int changes = settings.number("changes");
		int perTransaction = settings.number("perTransaction");
		int[] ids = new Random(42).ints(changes, 1, rows + 1).toArray();
		// Ascending within each transaction, so concurrent writers lock rows in one order.
		for (int from = 0; from < ids.length; from += perTransaction) {
			Arrays.sort(ids, from, Math.min(ids.length, from + perTransaction));
		}
		BitSet touched = new BitSet(rows + 1);
		Arrays.stream(ids).forEach(touched::set);
		List<Backlog> all = new ArrayList<>();
		Position startCopy = null;
		try (SourceTuning tuning = SourceTuning.apply(server)) {
			all.add(generate(context, perTransaction + " changes/transaction", ids, perTransaction));
			if (ApplyScenario.sharesIngestionBacklog(settings, context.flavor())) {
				startCopy = copyAtStart(context);
			}
			all.add(generate(context, "1 change/transaction", ids, 1));
		}
		return new IngestionBacklogs(SCHEMA, history, all, startCopy, rows, touched);
	}

	/** Creates a table of sysbench's shape in the schema. */
	private static String createTable(String table) {
		return "CREATE TABLE " + SCHEMA + "." + table + " (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, "
				+ "c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k)) "
				+ "ENGINE = InnoDB";
	}

	/**
	 * Copies the table as it stands into {@link #START_COPY}, through the binlog.
	 * @return the binlog's head before the copy, by file and offset
	 */
	private static Position copyAtStart(ScenarioContext context) throws SQLException {
		DataSource pool = context.server().dataSource(null);
		Position before = fileOffset(SourceQueries.head(pool));
		long started = System.nanoTime();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			// Not LIKE: a replica that replays only the copy has no table to take the definition from.
			statement.execute(createTable(START_COPY));
			statement.execute("INSERT INTO " + SCHEMA + "." + START_COPY + " SELECT * FROM " + SCHEMA + "." + TABLE);
		}
		context.say(String.format("copied %s.%s into %s for the apply scenario's replica in %.1f s; binlog from %s",
				SCHEMA, TABLE, START_COPY, seconds(started), before));
		return before;
	}

	/** The backlog of one update per transaction, which the apply scenario also reads. */
	Backlog onePerTransaction() {
		return this.all.get(this.all.size() - 1);
	}

	/** The table the updates hit. */
	TableId table() {
		return new TableId(this.schema, TABLE);
	}

	/** The arguments every reader JVM of this server gets. */
	static Map<String, String> connection(TestDatabaseServer server, String history) {
		Map<String, String> args = new LinkedHashMap<>();
		args.put("flavor", server.flavor());
		args.put("host", server.host());
		args.put("port", Integer.toString(server.port()));
		args.put("user", server.username());
		args.put("password", server.password());
		args.put("schema", SCHEMA);
		args.put("table", TABLE);
		args.put("other", "other");
		args.put("rounds", "1");
		if (history != null) {
			args.put("history", history);
		}
		return args;
	}

	/** The arguments of a reader JVM that reads one backlog. */
	Map<String, String> readerArgs(TestDatabaseServer server, Backlog backlog, int rounds) {
		Map<String, String> args = connection(server, this.history);
		args.put("from", backlog.from().toString());
		args.put("fromGtids", backlog.fromGtids());
		args.put("to", backlog.to().toString());
		args.put("changes", Long.toString(backlog.changes()));
		args.put("rounds", Integer.toString(rounds));
		return args;
	}

	private static Backlog generate(ScenarioContext context, String name, int[] ids, int perTransaction)
			throws Exception {
		TestDatabaseServer server = context.server();
		DataSource pool = server.dataSource(null);
		Position head = SourceQueries.head(pool);
		Position from = fileOffset(head);
		int clients = context.settings().number("clients");
		int transactions = (ids.length + perTransaction - 1) / perTransaction;
		List<int[]> perClient = new ArrayList<>();
		for (int client = 0; client < clients; client++) {
			IntStream.Builder mine = IntStream.builder();
			for (int tx = client; tx < transactions; tx += clients) {
				for (int i = tx * perTransaction; i < Math.min(ids.length, (tx + 1) * perTransaction); i++) {
					mine.add(ids[i]);
				}
			}
			perClient.add(mine.build().toArray());
		}
		double seconds = ServerSideUpdates.run(server, new TableId(SCHEMA, TABLE), perClient, perTransaction);
		Position to = fileOffset(SourceQueries.headFileOffset(pool));
		long bytes = bytesBetween(from, to, SourceQueries.binaryLogs(pool));
		String gtids = (head.gtids() != null) ? head.gtids().replaceAll("\\s", "") : "";
		Backlog backlog = new Backlog(name, from, gtids, to, ids.length, transactions, bytes, seconds);
		context.say(String.format("wrote backlog %s: %,d changes in %,d transactions from %d clients in %.1f s; "
				+ "binlog %s to %s, %,d bytes", name, ids.length, transactions, clients, seconds, from, to, bytes));
		return backlog;
	}

	private static Position fileOffset(Position head) {
		return Position.of(head.file(), head.offset());
	}

	static long bytesBetween(Position from, Position to, Map<String, Long> files) {
		if (from.file().equals(to.file())) {
			return to.offset() - from.offset();
		}
		long bytes = 0;
		boolean inside = false;
		for (Map.Entry<String, Long> file : files.entrySet()) {
			if (file.getKey().equals(from.file())) {
				inside = true;
				bytes += file.getValue() - from.offset();
			}
			else if (file.getKey().equals(to.file())) {
				return bytes + to.offset();
			}
			else if (inside) {
				bytes += file.getValue();
			}
		}
		return bytes;
	}

	private static double seconds(long startedNanos) {
		return (System.nanoTime() - startedNanos) / 1e9;
	}

	/**
	 * One stretch of binlog: all the backlog's transactions and nothing else.
	 *
	 * @param name how its transactions are cut, for the results
	 * @param from its start, a transaction boundary, by file and offset
	 * @param fromGtids the server's GTIDs at the start, for Debezium's connectors, which resume by GTID
	 * only where the server writes GTIDs
	 * @param to its end
	 * @param changes single-row updates in it
	 * @param transactions transactions in it
	 * @param bytes binlog bytes in it
	 * @param seconds how long the server took to write it
	 */
	record Backlog(String name, Position from, String fromGtids, Position to, long changes, long transactions, long bytes,
			double seconds) {

	}

}
