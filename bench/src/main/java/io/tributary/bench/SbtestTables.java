package io.tributary.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.tributary.name.TableId;
import io.tributary.test.TestDatabaseServer;

/**
 * A schema of tables {@code sbtest1} to {@code sbtestN} in sysbench's shape, each holding the
 * same rows: the first is filled as sysbench's prepare step fills it ({@link SysbenchRows}), each
 * other one is created {@code LIKE} it and filled with {@code INSERT ... SELECT}, two connections
 * at a time, which is far faster than building each table's inserts in the client.
 */
final class SbtestTables {

	private static final int WRITERS = 2;

	private final TestDatabaseServer server;

	private final String schema;

	private final int tables;

	SbtestTables(TestDatabaseServer server, String schema, int tables) {
		this.server = server;
		this.schema = schema;
		this.tables = tables;
	}

	/** The name of the {@code index}-th table, from 1. */
	TableId table(int index) {
		return new TableId(this.schema, "sbtest" + index);
	}

	int count() {
		return this.tables;
	}

	String schema() {
		return this.schema;
	}

	/** Drops the schema if it exists and creates it with every table holding {@code rows} rows. */
	void create(int rows) throws Exception {
		this.server.createSchema(this.schema);
		this.server.execute(null, "CREATE TABLE " + table(1).quoted() + " (id INT NOT NULL AUTO_INCREMENT, "
				+ "k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', "
				+ "PRIMARY KEY (id), KEY k_1 (k)) ENGINE = InnoDB");
		SysbenchRows.load(this.server.dataSource(null), table(1).quoted(), rows, 31);
		ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int writer = 0; writer < WRITERS; writer++) {
				int first = 2 + writer;
				done.add(writers.submit(() -> {
					try (Connection connection = this.server.dataSource(null).getConnection();
							Statement statement = connection.createStatement()) {
						for (int index = first; index <= this.tables; index += WRITERS) {
							statement.execute("CREATE TABLE " + table(index).quoted() + " LIKE " + table(1).quoted());
							statement.execute("INSERT INTO " + table(index).quoted() + " SELECT * FROM "
									+ table(1).quoted());
						}
					}
					return null;
				}));
			}
			for (Future<?> writer : done) {
				writer.get();
			}
		}
		finally {
			writers.shutdownNow();
		}
	}

	/** A connection to the server, from the benchmark account's pool. */
	Connection connection() throws SQLException {
		return this.server.dataSource(null).getConnection();
	}

	/**
	 * Returns the tables whose row count differs between this schema and another one holding
	 * tables of the same names, as {@code name: source rows / other rows} (-1 for a
	 * missing table).
	 */
	List<String> differences(String otherSchema) throws SQLException {
		return differences(otherSchema, this.tables);
	}

	/** As {@link #differences(String)}, for the tables up to {@code last} only. */
	List<String> differences(String otherSchema, int last) throws SQLException {
		List<String> differ = new ArrayList<>();
		try (Connection connection = connection(); Statement statement = connection.createStatement()) {
			for (int index = 1; index <= last; index++) {
				TableId source = table(index);
				TableId other = new TableId(otherSchema, source.table());
				long sourceRows = count(statement, source);
				long otherRows = count(statement, other);
				if (sourceRows != otherRows) {
					differ.add(source.table() + ": " + sourceRows + " / " + otherRows);
				}
			}
		}
		return differ;
	}

	/** The table's rows, or -1 when it does not exist. */
	private static long count(Statement statement, TableId table) throws SQLException {
		try (ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + table.quoted())) {
			rs.next();
			return rs.getLong(1);
		}
		catch (SQLException ex) {
			if ("42S02".equals(ex.getSQLState())) {
				return -1;
			}
			throw ex;
		}
	}

}
