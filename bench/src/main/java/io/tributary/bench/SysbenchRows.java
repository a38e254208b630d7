package io.tributary.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.sql.DataSource;

/**
 * Fills a table of sysbench's {@code sbtest} shape ({@code id, k, c, pad}) the way sysbench's
 * prepare step does: ids from 1, {@code k} random up to the row count, {@code c} and {@code pad}
 * groups of 11 random digits joined by dashes, written as 1,000-row inserts.
 *
 * <p>Two connections write at once, so the server inserts while the client builds the next insert:
 * one connection leaves a core of the two idle. Each writes one half of the ids in ascending order,
 * so every page fills as in a load in order (alternating inserts left the pages half empty: 18%
 * more data). Each insert's values come from a seed of its own, so the rows do not depend on
 * which connection is faster.
 */
final class SysbenchRows {

	private static final int ROWS_PER_INSERT = 1_000;

	private static final int WRITERS = 2;

	private SysbenchRows() {
	}

	/**
	 * Inserts rows 1 to {@code rows} into an empty table.
	 * @param table qualified table name
	 * @param seed seed of the random values
	 */
	static void load(DataSource pool, String table, int rows, long seed) throws SQLException {
		int inserts = (rows + ROWS_PER_INSERT - 1) / ROWS_PER_INSERT;
		ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int writer = 0; writer < WRITERS; writer++) {
				int first = (int) ((long) inserts * writer / WRITERS);
				int end = (int) ((long) inserts * (writer + 1) / WRITERS);
				done.add(writers.submit(() -> {
					try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
						for (int insert = first; insert < end; insert++) {
							statement.execute(insert(table, rows, insert, seed));
						}
					}
					return null;
				}));
			}
			for (Future<?> writer : done) {
				writer.get();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new SQLException("Interrupted while loading " + table, ex);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof SQLException sql) ? sql
					: new SQLException("Loading " + table + " failed", ex.getCause());
		}
		finally {
			writers.shutdownNow();
		}
	}

	/** The {@code index}-th insert of the load: ids from {@code index * 1,000 + 1}. */
	private static String insert(String table, int rows, int index, long seed) {
		Random random = new Random(seed * 1_000_003L + index);
		int from = 1 + index * ROWS_PER_INSERT;
		StringBuilder insert = new StringBuilder(ROWS_PER_INSERT * 200);
		insert.append("INSERT INTO ").append(table).append(" (id, k, c, pad) VALUES ");
		for (int id = from; id < from + ROWS_PER_INSERT && id <= rows; id++) {
			insert.append((id > from) ? "," : "").append('(').append(id).append(',').append(1 + random.nextInt(rows))
				.append(",'");
			digitGroups(insert, random, 10);
			insert.append("','");
			digitGroups(insert, random, 5);
			insert.append("')");
		}
		return insert.toString();
	}

	/** Appends sysbench's value template: groups of 11 random digits joined by dashes. */
	static void digitGroups(StringBuilder out, Random random, int groups) {
		for (int group = 0; group < groups; group++) {
			if (group > 0) {
				out.append('-');
			}
			for (int digit = 0; digit < 11; digit++) {
				out.append((char) ('0' + random.nextInt(10)));
			}
		}
	}

}
