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

import io.tributary.name.TableId;
import io.tributary.test.TestDatabaseServer;

/**
 * Writes a backlog of update transactions with the server doing the looping: each client's ids go
 * into a table of schema {@code bench_writer}, and one {@code CALL} per client runs
 * {@code UPDATE table SET k = k + 1 WHERE id = ...} for each of its ids in order, each update in a
 * transaction of its own (auto-commit) or a given number of them per transaction, exactly as if a
 * client had sent them. A million one-row transactions take JDBC clients three to six minutes on
 * two cores, most of it round trips and the clients' own CPU; from a procedure the server alone
 * sets the pace.
 *
 * <p>Guards: nothing but the updates reaches the binlog. The ids table and the procedure are
 * written with {@code sql_log_bin = 0}, so a replica or a reader of the backlog sees the same
 * transactions as before. While the updates run the server commits with
 * {@code innodb_flush_log_at_trx_commit = 0} and {@code sync_binlog = 0}; that changes how long the
 * write takes and nothing in the binlog, and both are set back when it ends, failed or not.
 */
final class ServerSideUpdates {

	private static final String SCHEMA = "bench_writer";

	private static final int IDS_PER_INSERT = 10_000;

	private ServerSideUpdates() {
	}

	/**
	 * Runs one update per id, each client's ids on a connection of its own, in order, each in a
	 * transaction of its own.
	 * @param table the table to update: an INT key {@code id} and an INT column {@code k}
	 * @param idsPerClient each client's ids
	 * @return seconds the updates took, loading the ids not included
	 */
	static double run(TestDatabaseServer server, TableId table, List<int[]> idsPerClient) throws Exception {
		return run(server, table, idsPerClient, 1);
	}

	/**
	 * Runs one update per id, each client's ids on a connection of its own, in order, in
	 * transactions of {@code perTransaction} consecutive ids of the client (the last one may be
	 * shorter). A transaction the server picks as a deadlock victim is rolled back and run again from
	 * its start, so it reaches the binlog once.
	 * @return seconds the updates took, loading the ids not included
	 */
	static double run(TestDatabaseServer server, TableId table, List<int[]> idsPerClient, int perTransaction)
			throws Exception {
		String procedure = "updates_" + table.schema() + "_" + table.table();
		try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION sql_log_bin = 0");
			statement.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
			statement.execute("DROP TABLE IF EXISTS " + SCHEMA + ".ids");
			statement.execute("CREATE TABLE " + SCHEMA + ".ids (client INT NOT NULL, seq INT NOT NULL, id INT NOT NULL, "
					+ "PRIMARY KEY (client, seq)) ENGINE = InnoDB");
			statement.execute("DROP PROCEDURE IF EXISTS " + SCHEMA + "." + procedure);
			// "first" is where the current transaction started: after a deadlock the server has
			// rolled it back, and the loop goes on from there.
			statement.execute("CREATE PROCEDURE " + SCHEMA + "." + procedure
					+ "(IN mine INT, IN total INT, IN per INT) BEGIN "
					+ "DECLARE i INT DEFAULT 0; DECLARE first INT DEFAULT 0; DECLARE v INT; "
					+ "DECLARE victim INT DEFAULT 0; DECLARE CONTINUE HANDLER FOR 1213 SET victim = 1; "
					+ "WHILE i < total DO "
					+ "IF i MOD per = 0 THEN SET first = i; IF per > 1 THEN START TRANSACTION; END IF; END IF; "
					+ "SELECT id INTO v FROM " + SCHEMA + ".ids WHERE client = mine AND seq = i; "
					+ "UPDATE " + table.quoted() + " SET k = k + 1 WHERE id = v; "
					+ "IF victim = 1 THEN SET victim = 0; SET i = first; ROLLBACK; "
					+ "ELSE SET i = i + 1; IF per > 1 AND (i MOD per = 0 OR i = total) THEN COMMIT; END IF; END IF; "
					+ "END WHILE; END");
			for (int client = 0; client < idsPerClient.size(); client++) {
				insertIds(statement, client, idsPerClient.get(client));
			}
		}
		long expected = idsPerClient.stream()
			.mapToLong((ids) -> (ids.length + perTransaction - 1) / perTransaction)
			.sum();
		long loggedBefore = transactionsLogged(server);
		Map<String, String> saved = globals(server, "innodb_flush_log_at_trx_commit", "sync_binlog");
		setGlobals(server, Map.of("innodb_flush_log_at_trx_commit", "0", "sync_binlog", "0"));
		ExecutorService clients = Executors.newFixedThreadPool(idsPerClient.size());
		long started = System.nanoTime();
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int client = 0; client < idsPerClient.size(); client++) {
				String call = "CALL " + SCHEMA + "." + procedure + "(" + client + ", " + idsPerClient.get(client).length
						+ ", " + perTransaction + ")";
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
			double seconds = (System.nanoTime() - started) / 1e9;
			long logged = transactionsLogged(server) - loggedBefore;
			if (loggedBefore >= 0 && logged != expected) {
				throw new IllegalStateException(String.format("The server logged %,d transactions for %,d written",
						logged, expected));
			}
			return seconds;
		}
		finally {
			clients.shutdownNow();
			setGlobals(server, saved);
		}
	}

	/**
	 * Transactions the server logged with its own GTIDs so far: the sequence number of domain 0 on
	 * MariaDB, the last transaction number of its own UUID on MySQL; -1 when it logs no GTIDs (MySQL
	 * with {@code gtid_mode} off), and so no count can be checked.
	 */
	static long transactionsLogged(TestDatabaseServer server) throws SQLException {
		if (server.isMariaDb()) {
			for (String gtid : globals(server, "gtid_binlog_pos").get("gtid_binlog_pos").split(",")) {
				String[] parts = gtid.trim().split("-");
				if (parts.length == 3 && parts[0].equals("0")) {
					return Long.parseLong(parts[2]);
				}
			}
			return 0;
		}
		Map<String, String> values = globals(server, "gtid_mode", "server_uuid", "gtid_executed");
		if (!values.get("gtid_mode").equalsIgnoreCase("ON")) {
			return -1;
		}
		String uuid = values.get("server_uuid");
		for (String set : values.get("gtid_executed").replaceAll("\\s", "").split(",")) {
			if (set.startsWith(uuid + ":")) {
				String last = set.substring(set.lastIndexOf(':') + 1);
				return Long.parseLong(last.substring(last.indexOf('-') + 1));
			}
		}
		return 0;
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

	private static Map<String, String> globals(TestDatabaseServer server, String... names) throws SQLException {
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

	private static void setGlobals(TestDatabaseServer server, Map<String, String> values) throws SQLException {
		try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
			for (Map.Entry<String, String> variable : values.entrySet()) {
				statement.execute("SET GLOBAL " + variable.getKey() + " = " + variable.getValue());
			}
		}
	}

}
