package io.tributary.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;

import javax.sql.DataSource;

/**
 * Fills a table of sysbench's {@code sbtest} shape ({@code id, k, c, pad}) the way sysbench's
 * prepare step does: ids from 1, {@code k} random up to the row count, {@code c} and {@code pad}
 * groups of 11 random digits joined by dashes, written as 1,000-row inserts.
 */
final class SysbenchRows {

	private static final int ROWS_PER_INSERT = 1_000;

	private SysbenchRows() {
	}

	/**
	 * Inserts rows 1 to {@code rows} into an empty table.
	 * @param table qualified table name
	 * @param seed seed of the random values
	 */
	static void load(DataSource pool, String table, int rows, long seed) throws SQLException {
		Random random = new Random(seed);
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			for (int from = 1; from <= rows; from += ROWS_PER_INSERT) {
				StringBuilder insert = new StringBuilder(ROWS_PER_INSERT * 200);
				insert.append("INSERT INTO ").append(table).append(" (id, k, c, pad) VALUES ");
				for (int id = from; id < from + ROWS_PER_INSERT && id <= rows; id++) {
					insert.append((id > from) ? "," : "").append('(').append(id).append(',')
						.append(1 + random.nextInt(rows)).append(",'");
					digitGroups(insert, random, 10);
					insert.append("','");
					digitGroups(insert, random, 5);
					insert.append("')");
				}
				statement.execute(insert.toString());
			}
		}
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
