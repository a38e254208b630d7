package io.tributary.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.tributary.source.TableId;
import io.tributary.test.TestDatabaseServer;

/**
 * Writes a backlog of single-row update transactions with the server doing the looping: each
 * client's ids go into a table of schema {@code bench_writer}, and one {@code CALL} per client runs
 * {@code UPDATE table SET k = k + 1 WHERE id = ...} for each of its ids in order, in auto-commit
 * mode, so every update is a transaction of its own in the binlog, exactly as if a client had sent
 * it. A million such transactions take a JDBC client three to six minutes on two cores, most of it
 * round trips and the client's own CPU; from a procedure the server alone sets the pace.
 *
 * <p>Guards: nothing but the updates reaches the binlog. The ids table and the procedure are
 * written with {@code sql_log_bin = 0}, so a replica or a reader of the backlog sees the same
 * transactions as before. While the updates run the server commits with
 * {@code innodb_flush_log_at_trx_commit = 0} and {@code sync_binlog = 0}; that changes how long the
 * write takes and nothing in the binlog, and both are set back when it ends, failed or not.
 */
final class ServerSideUpdates {

	static final String SCHEMA = "bench_writer";

	private static final int IDS_PER_INSERT = 10_000;

	private ServerSideUpdates() {
	}

	/**
	 * Runs one update per id, each client's ids on a connection of its own, in order.
	 * @param table the table to update: an INT key {@code id} and an INT column {@code k}
	 * @param idsPerClient each client's ids
	 * @return seconds the updates took, loading the ids not included
	 */
	static double run(TestDatabaseServer server, TableId table, List<int[]> idsPerClient) throws Exception {
		String procedure = "updates_" + table.schema() + "_" + table.table();
		try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION sql_log_bin = 0");
			statement.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
			statement.execute("DROP TABLE IF EXISTS " + SCHEMA + ".ids");
			statement.execute("CREATE TABLE " + SCHEMA + ".ids (client INT NOT NULL, seq INT NOT NULL, id INT NOT NULL, "
					+ "PRIMARY KEY (client, seq)) ENGINE = InnoDB");
			statement.execute("DROP PROCEDURE IF EXISTS " + SCHEMA + "." + procedure);
			statement.execute("CREATE PROCEDURE " + SCHEMA + "." + procedure + "(IN mine INT, IN total INT) BEGIN "
					+ "DECLARE i INT DEFAULT 0; DECLARE v INT; WHILE i < total DO "
					+ "SELECT id INTO v FROM " + SCHEMA + ".ids WHERE client = mine AND seq = i; "
					+ "UPDATE " + table.quoted() + " SET k = k + 1 WHERE id = v; SET i = i + 1; END WHILE; END");
			for (int client = 0; client < idsPerClient.size(); client++) {
				insertIds(statement, client, idsPerClient.get(client));
			}
		}
		Map<String, String> saved = globals(server, "innodb_flush_log_at_trx_commit", "sync_binlog");
		setGlobals(server, Map.of("innodb_flush_log_at_trx_commit", "0", "sync_binlog", "0"));
		ExecutorService clients = Executors.newFixedThreadPool(idsPerClient.size());
		long started = System.nanoTime();
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int client = 0; client < idsPerClient.size(); client++) {
				String call = "CALL " + SCHEMA + "." + procedure + "(" + client + ", " + idsPerClient.get(client).length
						+ ")";
				done.add(clients.submit(() -> {
					try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
						connection.setAutoCommit(true);
						statement.execute(call);
					}
					return null;
				}));
			}
			for (Future<?> future : done) {
				future.get();
			}
			return (System.nanoTime() - started) / 1e9;
		}
		finally {
			clients.shutdownNow();
			setGlobals(server, saved);
		}
	}

	private static void insertIds(Statement statement, int client, int[] ids) throws SQLException {
		StringBuilder sql = new StringBuilder();
		for (int seq = 0; seq < ids.length; seq++) {
			sql.append((sql.length() == 0) ? "INSERT INTO " + SCHEMA + ".ids VALUES " : ",");
			sql.append('(').append(client).append(',').append(seq).append(',').append(ids[seq]).append(')');
			if ((seq + 1) % IDS_PER_INSERT == 0 || seq == ids.length - 1) {
				statement.execute(sql.toString());
				sql.setLength(0);
			}
		}
	}

	private static Connection connect(TestDatabaseServer server) throws SQLException {
		return DriverManager.getConnection(server.jdbcUrl(null), server.username(), server.password());
	}

	static Map<String, String> globals(TestDatabaseServer server, String... names) throws SQLException {
		Map<String, String> values = new LinkedHashMap<>();
		try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
			for (String name : names) {
				try (ResultSet rs = statement.executeQuery("SELECT @@GLOBAL." + name)) {
					rs.next();
					values.put(name, rs.getString(1));
				}
			}
		}
		return values;
	}

	static void setGlobals(TestDatabaseServer server, Map<String, String> values) throws SQLException {
		try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
			for (Map.Entry<String, String> variable : values.entrySet()) {
				statement.execute("SET GLOBAL " + variable.getKey() + " = " + variable.getValue());
			}
		}
	}

}
