package io.tributary.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/**
 * Apply: Tributary's catch-up of backlogs of single-row update transactions (uniform, and a
 * hot-row mix) against the native replica with parallel appliers reading the same stretch of
 * binlog, and against the physical limits of the same run (the raw read of the backlog, the target's
 * own write of its final rows); and the target writes hot rows cost. See {@link ApplyBacklogRun}.
 * Targets: at least 12x the replica's rate, at most 2x the physical floor. On MariaDB and MySQL,
 * each against a native replica of its own kind ({@link ScenarioContext#replica()}).
 */
final class ApplyScenario implements Scenario {

	@Override
	public String name() {
		return "apply";
	}

	@Override
	public boolean runsOn(String server) {
		return true;
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		DataSource admin = context.server().dataSource(null);
		// The source's durability does not change what it writes to the binlog; this only makes
		// generating the backlog faster. The table fits in the buffer pool either way.
		List<String> set = new ArrayList<>(List.of("SET GLOBAL innodb_flush_log_at_trx_commit = 2",
				"SET GLOBAL sync_binlog = 0", "SET GLOBAL innodb_buffer_pool_size = 1073741824"));
		List<String> reset = new ArrayList<>(List.of("SET GLOBAL innodb_flush_log_at_trx_commit = 1"));
		reset.add("SET GLOBAL sync_binlog = " + variable(admin, "sync_binlog"));
		if (!context.server().isMariaDb()) {
			// Dependencies by rows written: the MySQL replica's appliers can then overlap any
			// transactions that touch different rows, not only those the source committed together.
			reset.add("SET GLOBAL binlog_transaction_dependency_tracking = "
					+ variable(admin, "binlog_transaction_dependency_tracking"));
			set.add("SET GLOBAL binlog_transaction_dependency_tracking = WRITESET");
		}
		execute(admin, set);
		try (ApplyBacklogRun run = new ApplyBacklogRun(context, context.replica())) {
			run.measureAll(System.nanoTime());
		}
		finally {
			execute(admin, reset);
		}
	}

	private static String variable(DataSource pool, String name) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT @@GLOBAL." + name)) {
			rs.next();
			return rs.getString(1);
		}
	}

	private static void execute(DataSource pool, List<String> sql) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			for (String s : sql) {
				statement.execute(s);
			}
		}
	}

}
