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
 * The two schemas of one replication scenario on the shared test server, a source and a target,
 * with the statements and queries a test runs against them and the row-by-row comparison that
 * ends it.
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
    private final String source;
    private final String target;

    /** Creates (or, if this test class already did, reuses) the schemas {@code <name>_src} and {@code <name>_dst}. */
    protected SchemaPair(TestDatabase database, String name) {
        this.database = database;
        this.source = database.schema(name + "_src");
        this.target = database.schema(name + "_dst");
    }

    /** The schemas {@code <name>_src} and {@code <name>_dst} of the test class, empty on first use. */
    public static SchemaPair create(TestDatabase database, String name) {
        return new SchemaPair(database, name);
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

    /** {@code source.table}. */
    public String sourceTable(String table) {
        return source + "." + table;
    }

    /** {@code target.table}. */
    public String targetTable(String table) {
        return target + "." + table;
    }

    /** The shared pool without a default schema, reaching both schemas. */
    public DataSource pool() {
        return database.dataSource(null);
    }

    /** Runs statements in order in the source schema, each committed on its own. */
    public void onSource(String... sql) {
        database.server().execute(source, sql);
    }

    /** Runs statements in order in the target schema, each committed on its own. */
    public void onTarget(String... sql) {
        database.server().execute(target, sql);
    }

    /** Creates {@code orders} in the source with {@code rows} rows (see {@link Workload#createOrdersTable}). */
    public void createOrdersTable(int rows) {
        Workload.createOrdersTable(pool(), sourceTable("orders"), rows);
    }

    /** A workload writing to the source table; configure and {@link Workload.Builder#build() build} it. */
    public Workload.Builder workload(String table) {
        return Workload.builder(pool(), sourceTable(table));
    }

    /** Compares the source's and the target's {@code table} row by row (see {@link TableComparison}). */
    public TableComparison.Result compare(String table) {
        return TableComparison.compare(pool(), sourceTable(table), pool(), targetTable(table));
    }

    /**
     * Asserts that the target's {@code table} equals the source's, row by row.
     *
     * @throws AssertionError listing the first differences
     */
    public void assertEqual(String table) {
        TableComparison.assertEqual(pool(), sourceTable(table), pool(), targetTable(table));
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

    /** The first column of the first row {@code sql} returns, or null without a row. */
    public String queryString(String sql) throws SQLException {
        List<String> values = queryStrings(sql);
        return values.isEmpty() ? null : values.get(0);
    }

    /** The first column of every row {@code sql} returns, in the order returned. */
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
