package io.tributary.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.tributary.test.TestDatabaseServer;

/**
 * Settings of the source server while a scenario writes to it, put back when closed. The source's
 * own durability ({@code innodb_flush_log_at_trx_commit=2}, {@code sync_binlog=0}) changes nothing
 * in what it writes to the binlog, only how fast the workload is written. On MySQL the binlog also
 * records dependencies by the rows each transaction wrote
 * ({@code binlog_transaction_dependency_tracking=WRITESET}), so the native replica's appliers can
 * overlap any transactions on different rows, not only those the source committed together: the
 * replica gets its best parallelism.
 */
final class SourceTuning implements AutoCloseable {

	private final DataSource admin;

	private final List<String> reset = new ArrayList<>();

	private SourceTuning(DataSource admin) {
		this.admin = admin;
	}

	/** Applies the settings to the server's global variables. */
	static SourceTuning apply(TestDatabaseServer server) throws SQLException {
		SourceTuning tuning = new SourceTuning(server.dataSource(null));
		tuning.set("innodb_flush_log_at_trx_commit", "2");
		tuning.set("sync_binlog", "0");
		if (!server.isMariaDb()) {
			tuning.set("binlog_transaction_dependency_tracking", "WRITESET");
		}
		return tuning;
	}

	private void set(String name, String value) throws SQLException {
		try (Connection connection = this.admin.getConnection(); Statement statement = connection.createStatement()) {
			String before;
			try (ResultSet rs = statement.executeQuery("SELECT @@GLOBAL." + name)) {
				rs.next();
				before = rs.getString(1);
			}
			statement.execute("SET GLOBAL " + name + " = " + value);
			this.reset.add(0, "SET GLOBAL " + name + " = " + before);
		}
	}

	/** Puts every variable back, in the reverse order. */
	@Override
	public void close() throws SQLException {
		try (Connection connection = this.admin.getConnection(); Statement statement = connection.createStatement()) {
			for (String sql : this.reset) {
				statement.execute(sql);
			}
		}
	}

}
