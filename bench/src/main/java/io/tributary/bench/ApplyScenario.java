package io.tributary.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import io.tributary.test.TestDatabaseServer;

/**
 * Apply: Tributary's catch-up of a backlog of single-row update transactions against a native
 * MariaDB replica with parallel appliers reading the same stretch of binlog, and the target writes
 * hot rows cost; see {@link ApplyBacklogRun} for what is measured. Target: at least 12x the
 * replica's rate. MariaDB only: the replica is a second embedded MariaDB ({@link ReplicaServer}).
 */
final class ApplyScenario implements Scenario {

	/** Server id of the native replica; the embedded sources take small ones. */
	private static final int REPLICA_SERVER_ID = 900;

	@Override
	public String name() {
		return "apply";
	}

	@Override
	public boolean runsOn(String server) {
		return server.equals("mariadb");
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		TestDatabaseServer source = context.server();
		DataSource admin = source.dataSource(null);
		// The source's durability does not change what it writes to the binlog; this only makes
		// generating the backlog faster. The table fits in the buffer pool either way.
		execute(admin, "SET GLOBAL innodb_flush_log_at_trx_commit = 2", "SET GLOBAL innodb_buffer_pool_size = 1073741824");
		try (ReplicaServer replica = new ReplicaServer(REPLICA_SERVER_ID, context.settings().number("replicaThreads"),
				ApplyBacklogRun.REPLICA_MODE, "2G")) {
			replica.start();
			replica.execute("SET GLOBAL innodb_flush_log_at_trx_commit = " + ApplyBacklogRun.REPLICA_FLUSH);
			try (ApplyBacklogRun run = new ApplyBacklogRun(context, replica)) {
				run.measureAll(System.nanoTime());
			}
		}
		finally {
			execute(admin, "SET GLOBAL innodb_flush_log_at_trx_commit = 1");
		}
	}

	private static void execute(DataSource pool, String... sql) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			for (String s : sql) {
				statement.execute(s);
			}
		}
	}

}
