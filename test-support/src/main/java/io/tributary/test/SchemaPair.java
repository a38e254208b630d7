package io.tributary.test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/**
 * The two schemas of one replication scenario, a source and a target, with the statements and
 * queries a test runs against them and the row-by-row comparison that ends it. Both are on the
 * shared test server, unless the source is on a server of the test's own
 * ({@link #create(TestDatabase, String, TestDatabaseServer)}), which the test may stop, kill or
 * fail over while the target stays reachable.
 *
 * <pre>{@code
 * SchemaPair schemas = SchemaPair.create(db, "orders");    // t_<class>_orders_src and _dst
 * schemas.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1)");
 * ... replicate ...
 * schemas.assertEqual("t");                                 // source t equals target t, row by row
 * }</pre>
 *
 * <p>The schemas come from {@link TestDatabase#schema(String)}: {@code <name>_src} and
 * {@code <name>_dst} of the test class, created empty the first time a class names them. Queries go
 * through one pool without a default schema, so SQL handed to {@link #queryString} and its kind
 * names tables with their schema ({@link #sourceTable}, {@link #targetTable}).
 */
public class SchemaPair {

	private final TestDatabase database;
	private final TestDatabaseServer sourceServer;
	private final String source;
	private final String target;

	/** Creates (or, if this test class already did, reuses) the schemas {@code <name>_src} and {@code <name>_dst}. */
	protected SchemaPair(TestDatabase database, String name) {
		this.database = database;
		this.sourceServer = database.server();
		this.source = database.schema(name + "_src");
		this.target = database.schema(name + "_dst");
	}

	/**
	 * Creates the schema {@code <name>_src} empty on {@code sourceServer}, a server the test
	 * started for itself, and (or, if this test class already did, reuses) {@code <name>_dst} on
	 * the shared server.
	 */
	protected SchemaPair(TestDatabase database, String name, TestDatabaseServer sourceServer) {
		this.database = database;
		this.sourceServer = sourceServer;
		this.source = sourceServer.createSchema(TestDatabase.schemaName(database.testClass(), name + "_src"));
		this.target = database.schema(name + "_dst");
	}

	/**
	 * The same schemas with the source read on another server that holds it already, such as a
	 * promoted replica; nothing is created.
	 */
	protected SchemaPair(SchemaPair pair, TestDatabaseServer sourceServer) {
		this.database = pair.database;
		this.sourceServer = sourceServer;
		this.source = pair.source;
		this.target = pair.target;
	}

	/** The schemas {@code <name>_src} and {@code <name>_dst} of the test class, empty on first use. */
	public static SchemaPair create(TestDatabase database, String name) {
		return new SchemaPair(database, name);
	}

	/** The schema {@code <name>_src} on {@code sourceServer}, created empty, and {@code <name>_dst} on the shared server. */
	public static SchemaPair create(TestDatabase database, String name, TestDatabaseServer sourceServer) {
		return new SchemaPair(database, name, sourceServer);
	}

	/** The test class's view of the shared server. */
	public TestDatabase database() {
		return database;
	}

	/** The source schema's name. */
	public String source() {
		return source;
	}

	/** The target schema's name. */
	public String target() {
		return target;
	}

	/** {@code source.table}, the table quoted with backticks when its name would not read back plain. */
	public String sourceTable(String table) {
		return source + "." + name(table);
	}

	/** {@code target.table}, the table quoted with backticks when its name would not read back plain. */
	public String targetTable(String table) {
		return target + "." + name(table);
	}

	/**
	 * A table name as SQL and {@link TableComparison} read it: plain when it holds no dot or
	 * backtick, so ordinary names read as they always have, else quoted with backticks doubled.
	 */
	private static String name(String table) {
		boolean plain = !table.isEmpty() && table.indexOf('.') < 0 && table.indexOf('`') < 0
				&& table.strip().equals(table);
		return plain ? table : "`" + table.replace("`", "``") + "`";
	}

	/** The server holding the source schema: the shared one unless the test started its own. */
	public TestDatabaseServer sourceServer() {
		return sourceServer;
	}

	/**
	 * The shared pool without a default schema, reaching the target schema and, unless the source
	 * is on a server of the test's own, the source schema too.
	 */
	public DataSource pool() {
		return database.dataSource(null);
	}

	/** A pool of the source server without a default schema. */
	public DataSource sourcePool() {
		return sourceServer.dataSource(null);
	}

	/** Runs statements in order in the source schema, each committed on its own. */
	public void onSource(String... sql) {
		sourceServer.execute(source, sql);
	}

	/** Runs statements in order in the target schema, each committed on its own. */
	public void onTarget(String... sql) {
		database.server().execute(target, sql);
	}

	/** Creates {@code orders} in the source with {@code rows} rows (see {@link Workload#createOrdersTable}). */
	public void createOrdersTable(int rows) {
		Workload.createOrdersTable(sourcePool(), sourceTable("orders"), rows);
	}

	/** A workload writing to the source table; configure and {@link Workload.Builder#build() build} it. */
	public Workload.Builder workload(String table) {
		return Workload.builder(sourcePool(), sourceTable(table));
	}

	/** Compares the source's and the target's {@code table} row by row (see {@link TableComparison}). */
	public TableComparison.Result compare(String table) {
		return TableComparison.compare(sourcePool(), sourceTable(table), pool(), targetTable(table));
	}

	/**
	 * Asserts that the target's {@code table} equals the source's, row by row.
	 *
	 * @throws AssertionError listing the first differences
	 */
	public void assertEqual(String table) {
		TableComparison.assertEqual(sourcePool(), sourceTable(table), pool(), targetTable(table));
	}

	/**
	 * Waits until the target's {@code table} equals the source's, for tests that cannot tell when
	 * the last change has been applied.
	 *
	 * @throws AssertionError with the last comparison if they still differ after {@code timeout}
	 */
	public void awaitEqual(String table, Duration timeout) throws Exception {
		Await.value(targetTable(table) + " equal to " + sourceTable(table), timeout, () -> compare(table),
				TableComparison.Result::equal);
	}

	/** {@code SELECT COUNT(*)} of the target's {@code table}. */
	public long countInTarget(String table) throws SQLException {
		return Long.parseLong(queryString("SELECT COUNT(*) FROM " + targetTable(table)));
	}

	/** {@code SELECT COUNT(*)} of the source's {@code table}. */
	public long countInSource(String table) throws SQLException {
		try (Connection connection = sourcePool().getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + sourceTable(table))) {
			rs.next();
			return rs.getLong(1);
		}
	}

	/** The first column of the first row {@code sql} returns on the shared server, or null without a row. */
	public String queryString(String sql) throws SQLException {
		List<String> values = queryStrings(sql);
		return values.isEmpty() ? null : values.get(0);
	}

	/** The first column of every row {@code sql} returns on the shared server, in the order returned. */
	public List<String> queryStrings(String sql) throws SQLException {
		List<String> values = new ArrayList<>();
		try (Connection connection = pool().getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			while (rs.next()) {
				values.add(rs.getString(1));
			}
		}
		return values;
	}

	@Override
	public String toString() {
		return source + " -> " + target;
	}
}
