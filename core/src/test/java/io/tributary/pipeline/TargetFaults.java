package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.tributary.test.SchemaPair;

/**
 * Faults injected into a real target table through triggers, so the pipeline meets them exactly
 * as it would meet them from the server: a failing write, a deadlock, or a write that waits.
 *
 * <p>A control table next to the target holds two switches the triggers read on every row the
 * applier writes or deletes. {@code fail_errno} makes the statement fail with that error number
 * (1213 is raised as a deadlock, anything else as a plain error). {@code gate} makes it wait for
 * the named lock {@link #GATE} that {@link #closeGate()} takes from a connection of this fixture,
 * so a test can hold a flush in the middle of its statement for as long as it likes.
 */
final class TargetFaults implements AutoCloseable {

	static final String GATE = "tributary_test_gate";

	private final DataSource pool;

	private final String control;

	private Connection gateHolder;

	private TargetFaults(DataSource pool, String control) {
		this.pool = pool;
		this.control = control;
	}

	/** Creates the control table in the target schema and the triggers on its {@code table}. */
	static TargetFaults install(SchemaPair schemas, String table) {
		String control = "`" + schemas.target() + "`.tributary_faults";
		String body = "BEGIN DECLARE g INT; DECLARE e INT; "
				+ "SELECT gate INTO g FROM " + control + " WHERE id = 1; "
				+ "IF g = 1 THEN SET @tributary_gate = GET_LOCK('" + GATE + "', 120); "
				+ "SET @tributary_gate = RELEASE_LOCK('" + GATE + "'); END IF; "
				// A locking read sees the switch as last committed, even late in a long statement.
				+ "SELECT fail_errno INTO e FROM " + control + " WHERE id = 1 LOCK IN SHARE MODE; "
				+ "IF e = 1213 THEN SIGNAL SQLSTATE '40001' SET MESSAGE_TEXT = 'injected deadlock', MYSQL_ERRNO = 1213; "
				+ "ELSEIF e <> 0 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'; END IF; END";
		schemas.onTarget("CREATE TABLE tributary_faults (id INT PRIMARY KEY, gate INT NOT NULL, "
				+ "fail_errno INT NOT NULL) ENGINE=InnoDB", "INSERT INTO tributary_faults VALUES (1, 0, 0)",
				"CREATE TRIGGER " + table + "_faults_ins BEFORE INSERT ON `" + table + "` FOR EACH ROW " + body,
				"CREATE TRIGGER " + table + "_faults_del BEFORE DELETE ON `" + table + "` FOR EACH ROW " + body);
		return new TargetFaults(schemas.pool(), control);
	}

	/** Makes every write of the target fail with the given error number; 0 heals it. */
	void fail(int errno) throws SQLException {
		set("fail_errno = " + errno);
	}

	/** Makes every write of the target wait until {@link #openGate()}. */
	void closeGate() throws SQLException {
		this.gateHolder = this.pool.getConnection();
		try (Statement statement = this.gateHolder.createStatement();
				var rs = statement.executeQuery("SELECT GET_LOCK('" + GATE + "', 10)")) {
			if (!rs.next() || rs.getInt(1) != 1) {
				throw new IllegalStateException("Could not take the gate lock");
			}
		}
		set("gate = 1");
	}

	/** Returns whether a statement of another session waits at the closed gate. */
	boolean writerWaitsAtGate() throws SQLException {
		try (Connection connection = this.pool.getConnection(); Statement statement = connection.createStatement();
				var rs = statement.executeQuery("SELECT COUNT(*) FROM information_schema.processlist WHERE id <> "
						+ "CONNECTION_ID() AND state LIKE '%user lock%'")) {
			return rs.next() && rs.getInt(1) > 0;
		}
	}

	/** Lets waiting and future writes through. */
	void openGate() throws SQLException {
		set("gate = 0");
		if (this.gateHolder != null) {
			try (Statement statement = this.gateHolder.createStatement()) {
				statement.execute("DO RELEASE_LOCK('" + GATE + "')");
			}
			this.gateHolder.close();
			this.gateHolder = null;
		}
	}

	private void set(String assignment) throws SQLException {
		try (Connection connection = this.pool.getConnection(); Statement statement = connection.createStatement()) {
			connection.setAutoCommit(true);
			statement.executeUpdate("UPDATE " + this.control + " SET " + assignment + " WHERE id = 1");
		}
	}

	@Override
	public void close() throws SQLException {
		fail(0);
		openGate();
	}

}
