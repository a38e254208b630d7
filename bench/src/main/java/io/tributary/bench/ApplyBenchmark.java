package io.tributary.bench;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplierCounters;
import io.tributary.apply.ApplyWorkers;
import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.ParallelApplier;
import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.test.TestDatabaseServer;

/**
 * Measures how fast drains are applied to a table with a clustered UNIQUE secondary index: the
 * sequential {@link JdbcReplaceApplier} against a {@link ParallelApplier} at several
 * concurrencies. Each drain rewrites every row of a few hundred random tenants, shuffled the way
 * a buffered drain arrives, so the rows of one tenant sit next to each other in
 * {@code UNIQUE (tenant, seq)} and collide whenever two statements share a tenant.
 *
 * <p>Run: {@code ./mvnw -q -pl bench -am install -DskipTests && ./mvnw -q -pl bench exec:java
 * -Dexec.mainClass=io.tributary.bench.ApplyBenchmark} (add {@code -Dtributary.test.db=mysql} for
 * MySQL). Writes {@code bench/results/apply-<server>.md}.
 */
public final class ApplyBenchmark {

	private static final int TENANTS = Integer.getInteger("tenants", 2_000);

	private static final int ROWS_PER_TENANT = Integer.getInteger("rowsPerTenant", 100);

	private static final int TENANTS_PER_DRAIN = Integer.getInteger("tenantsPerDrain", 200);

	private static final int DRAINS = Integer.getInteger("drains", 5);

	private static final int BATCH_ROWS = Integer.getInteger("batchRows", 1_000);

	private ApplyBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		TestDatabaseServer server = TestDatabaseServer.shared();
		String schema = server.createSchema("bench_apply");
		DataSource pool = server.dataSource(null);
		TableId table = new TableId(schema, "orders");
		load(pool, table);
		TableLayout layout;
		try (Connection connection = pool.getConnection()) {
			layout = LayoutReader.read(connection, table);
		}
		StringBuilder report = new StringBuilder();
		report.append("# Apply benchmark\n\n")
			.append("Server: ")
			.append(server.flavor())
			.append(' ')
			.append(server.version())
			.append(", ")
			.append(TENANTS * ROWS_PER_TENANT)
			.append(" rows in ")
			.append(TENANTS)
			.append(" tenants with UNIQUE (tenant, seq); ")
			.append(DRAINS)
			.append(" drains of ")
			.append(TENANTS_PER_DRAIN * ROWS_PER_TENANT)
			.append(" shuffled row images (every row of ")
			.append(TENANTS_PER_DRAIN)
			.append(" random tenants), ")
			.append(BATCH_ROWS)
			.append(" rows per statement, ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" processors, run at ")
			.append(Instant.now())
			.append(".\n\n")
			.append("| applier | rows/s | statements | contention events | retries | concurrency at end |\n")
			.append("| --- | --- | --- | --- | --- | --- |\n");
		JdbcReplaceApplier sequential = new JdbcReplaceApplier(pool, table, layout, BATCH_ROWS, 8L << 20);
		try (ApplyWorkers workers = new ApplyWorkers("bench", 8)) {
			// Untimed, so the buffer pool is as warm for the first measured applier as for the last.
			measure(sequential, layout, 0);
			row(report, "sequential", measure(sequential, layout, 1), null);
			for (int concurrency : new int[] { 1, 2, 4, 8 }) {
				ParallelApplier parallel = ParallelApplier.create(sequential, workers, concurrency);
				row(report, "parallel, concurrency " + concurrency, measure(parallel, layout, 1 + concurrency),
						parallel.counters());
			}
		}
		report.append("\nStatements, contention and retries are totals over all drains of that applier; the ")
			.append("sequential applier keeps no counters.\n");
		String file = "apply-" + server.flavor() + ".md";
		Path out = Path.of("bench", "results", file);
		if (!Files.isDirectory(out.getParent())) {
			out = Path.of("results", file);
		}
		Files.createDirectories(out.getParent());
		Files.writeString(out, report.toString());
		System.out.print(report);
		System.out.println("Wrote " + out.toAbsolutePath());
		System.exit(0);
	}

	private static void load(DataSource pool, TableId table) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + table.quoted() + " (id BIGINT PRIMARY KEY, tenant INT NOT NULL, "
					+ "seq INT NOT NULL, amount DECIMAL(12,2) NOT NULL, note VARCHAR(100) NOT NULL, "
					+ "UNIQUE KEY uk_tenant_seq (tenant, seq))");
			for (int tenant = 0; tenant < TENANTS; tenant += 10) {
				StringBuilder insert = new StringBuilder("INSERT INTO " + table.quoted() + " VALUES ");
				for (int t = tenant; t < Math.min(TENANTS, tenant + 10); t++) {
					for (int seq = 0; seq < ROWS_PER_TENANT; seq++) {
						insert.append((t > tenant || seq > 0) ? "," : "")
							.append('(')
							.append(id(t, seq))
							.append(',')
							.append(t)
							.append(',')
							.append(seq)
							.append(",0.00,'initial')");
					}
				}
				statement.execute(insert.toString());
			}
		}
	}

	/** Ids are scrambled, so primary key order says nothing about the unique index. */
	private static long id(int tenant, int seq) {
		long plain = (long) tenant * ROWS_PER_TENANT + seq;
		return (plain * 2_654_435_761L) & 0xFFFF_FFFFL;
	}

	private static Result measure(Applier applier, TableLayout layout, long seed) {
		Random random = new Random(seed);
		long rows = 0;
		long started = System.nanoTime();
		for (int drain = 0; drain < DRAINS; drain++) {
			// Distinct tenants: a drain holds at most one image per key.
			List<Integer> tenants = new ArrayList<>(IntStream.range(0, TENANTS).boxed().toList());
			Collections.shuffle(tenants, random);
			List<Object[]> images = new ArrayList<>();
			for (int tenant : tenants.subList(0, Math.min(TENANTS, TENANTS_PER_DRAIN))) {
				for (int seq = 0; seq < ROWS_PER_TENANT; seq++) {
					images.add(new Object[] { id(tenant, seq), (long) tenant, (long) seq,
							BigDecimal.valueOf(random.nextInt(1_000_000), 2), "drain " + drain + " seed " + seed });
				}
			}
			Collections.shuffle(images, random);
			applier.upsert(images);
			rows += images.size();
		}
		return new Result(rows, (System.nanoTime() - started) / 1e9);
	}

	private static void row(StringBuilder report, String name, Result result, ApplierCounters counters) {
		String line = String.format("| %s | %.0f | %s | %s | %s | %s |%n", name, result.rows() / result.seconds(),
				(counters != null) ? counters.batchesApplied() : "-",
				(counters != null) ? counters.contentionEvents() : "-", (counters != null) ? counters.retries() : "-",
				(counters != null) ? counters.concurrency() : "-");
		report.append(line);
		System.out.print(line);
	}

	private record Result(long rows, double seconds) {

	}

}
