package io.tributary.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.source.ChangeHandler;
import io.tributary.source.Position;
import io.tributary.source.RowChange;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.TableId;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.test.TestDatabaseServer;

/**
 * Measures how fast the binlog source reads row events of a table nobody subscribed to (row images
 * skipped undecoded) against the same events of a subscribed table (decoded into row changes).
 *
 * <p>Run: {@code ./mvnw -q -pl bench -am install -DskipTests && ./mvnw -q -pl bench exec:java
 * -Dexec.mainClass=io.tributary.bench.SkipDecodeBenchmark}. Writes {@code bench/results/skip-decode.md}, or
 * {@code skip-decode-tls.md} with {@code -Dssl=preferred} (TLS on the replication connection).
 */
public final class SkipDecodeBenchmark {

	private static final int ROWS = Integer.getInteger("rows", 400_000);

	private static final int ROUNDS = Integer.getInteger("rounds", 3);

	/** TLS on the replication connection: {@code disabled} measures decoding alone, without decryption. */
	private static final SslMode SSL = SslMode
		.valueOf(System.getProperty("ssl", "disabled").toUpperCase(java.util.Locale.ROOT).replace('-', '_'));

	private SkipDecodeBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		TestDatabaseServer server = TestDatabaseServer.shared();
		String schema = server.createSchema("bench_skip");
		DataSource pool = server.dataSource(null);
		Position start = SourceQueries.head(pool);
		generate(pool, schema);
		Position end = SourceQueries.head(pool);
		TableLayout layout;
		try (Connection connection = pool.getConnection()) {
			layout = LayoutReader.read(connection, new TableId(schema, "wide"));
		}
		StringBuilder report = new StringBuilder();
		report.append("# Skip-decode benchmark\n\n")
			.append("Server: ").append(server.flavor()).append(' ').append(server.version())
			.append(", ").append(ROWS).append(" rows written as 1,000-row inserts, then updated, then deleted ")
			.append("(").append(3 * ROWS).append(" row images in rows events), binlog ").append(start).append(" to ")
			.append(end).append(", TLS ").append(SSL.name().toLowerCase()).append(", run at ").append(Instant.now())
			.append(".\n\n")
			.append("| round | unsubscribed events/s | decoded events/s | unsubscribed rows/s | decoded rows/s | ratio ")
			.append("| unsubscribed events/CPU-s | decoded events/CPU-s | CPU ratio |\n")
			.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
		double best = 0;
		for (int round = 1; round <= ROUNDS; round++) {
			Result skipped = read(server, start, end, null);
			Result decoded = read(server, start, end, layout);
			double ratio = skipped.eventsPerSecond() / decoded.eventsPerSecond();
			best = Math.max(best, ratio);
			double cpuRatio = skipped.eventsPerCpuSecond() / decoded.eventsPerCpuSecond();
			report.append(String.format("| %d | %.0f | %.0f | %.0f | %.0f | %.1fx | %.0f | %.0f | %.1fx |%n", round,
					skipped.eventsPerSecond(), decoded.eventsPerSecond(), 3.0 * ROWS / skipped.seconds(),
					3.0 * ROWS / decoded.seconds(), ratio, skipped.eventsPerCpuSecond(), decoded.eventsPerCpuSecond(),
					cpuRatio));
			System.out.printf("round %d: skipped %.0f events/s, decoded %.0f events/s (%d changes), %.1fx; "
					+ "per CPU second of this JVM %.1fx%n", round, skipped.eventsPerSecond(), decoded.eventsPerSecond(),
					decoded.changes(), ratio, cpuRatio);
		}
		report.append("\nEvents per second counts every binlog event read between the two positions (row, table map, ")
			.append("GTID, XID events); the row events dominate the cost. Events per CPU-second divide the same ")
			.append("events by the CPU time this JVM (the reader, its decoding, garbage collection) used while reading: ")
			.append("the reader's own cost, whatever the rate at which the server sends.\n");
		String file = (SSL == SslMode.DISABLED) ? "skip-decode.md" : "skip-decode-tls.md";
		Path out = Path.of("bench", "results", file);
		if (!Files.isDirectory(out.getParent())) {
			out = Path.of("results", file);
		}
		Files.createDirectories(out.getParent());
		Files.writeString(out, report.toString());
		System.out.println("Wrote " + out.toAbsolutePath());
		System.exit(0);
	}

	private static void generate(DataSource pool, String schema) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + schema + ".wide (id INT PRIMARY KEY, k INT NOT NULL, "
					+ "c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL, amount DECIMAL(12,2), at DATETIME(6), doc JSON)");
			for (int from = 1; from <= ROWS; from += 1000) {
				StringBuilder insert = new StringBuilder("INSERT INTO " + schema + ".wide VALUES ");
				for (int id = from; id < from + 1000 && id <= ROWS; id++) {
					insert.append((id > from) ? "," : "").append('(').append(id).append(',').append(id % 1000)
						.append(",'").append("c".repeat(100)).append(id).append("','").append("p".repeat(50))
						.append("',").append(id).append(".25, '2024-01-01 00:00:00.123456', '{\"n\": ").append(id)
						.append(", \"tags\": [\"a\", \"b\"]}')");
				}
				statement.execute(insert.toString());
			}
			statement.execute("UPDATE " + schema + ".wide SET k = k + 1");
			statement.execute("DELETE FROM " + schema + ".wide");
		}
	}

	private static Result read(TestDatabaseServer server, Position start, Position end, TableLayout layout)
			throws InterruptedException {
		AtomicLong changes = new AtomicLong();
		ChangeHandler counting = new ChangeHandler() {

			@Override
			public void onChange(RowChange change, Position resumeFrom) {
				changes.incrementAndGet();
			}

			@Override
			public TableLayout onAlter(TableId table, TableLayout current, String statement) {
				return current;
			}

			@Override
			public void onTruncate(TableId table) {
			}

			@Override
			public void onTableFailed(TableId table, RuntimeException error) {
				throw error;
			}

		};
		SourceSettings settings = new SourceSettings(server.host(), server.port(), server.username(),
				server.password(), 900_000 + (long) (Math.random() * 1000), null, null, SSL, null);
		try (BinlogChangeSource source = new BinlogChangeSource(settings, counting)) {
			if (layout != null) {
				source.subscribe(layout);
			}
			long started = System.nanoTime();
			long cpuStarted = processCpuNanos();
			source.start(start);
			while (source.delivered().compareTo(end) < 0) {
				Thread.sleep(1);
			}
			double seconds = (System.nanoTime() - started) / 1e9;
			double cpuSeconds = (processCpuNanos() - cpuStarted) / 1e9;
			return new Result(source.eventsRead(), seconds, cpuSeconds, changes.get());
		}
	}

	private static long processCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	private record Result(long events, double seconds, double cpuSeconds, long changes) {

		double eventsPerSecond() {
			return this.events / this.seconds;
		}

		double eventsPerCpuSecond() {
			return this.events / this.cpuSeconds;
		}

	}

}
