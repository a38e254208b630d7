package io.tributary.checkpoint;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.sql.DataSource;

import io.tributary.name.Destination;
import io.tributary.ha.FencedTransaction;
import io.tributary.ha.TargetFence;
import io.tributary.jdbc.Sessions;
import io.tributary.name.TableId;
import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;
import io.tributary.source.Position;
import io.tributary.status.Causes;

/**
 * Keeps checkpoints in a table of the target database, beside the data they describe: a target
 * restored from a backup brings its own resume position with it. A store {@link #fencedBy fenced}
 * writes each checkpoint in a transaction that proves leadership before it commits.
 *
 * <p>{@code updated_at} travels as seconds since the epoch ({@code FROM_UNIXTIME} on a UTC session,
 * {@code UNIX_TIMESTAMP} back), never as text in some zone: neither the JVM's zone nor the one a
 * pooled session was left in moves the instant an operator reads in the table.
 */
public final class JdbcCheckpointStore implements CheckpointStore {

	private final DataSource target;

	private final TableId table;

	private final String pipeline;

	private final TargetFence fence;

	private final SettingNames names;

	/**
	 * Creates a store whose messages name settings in the engine's terms.
	 * @param target the target pool
	 * @param table the checkpoint table
	 * @param pipeline name of the pipeline whose rows this store reads and writes
	 */
	public JdbcCheckpointStore(DataSource target, TableId table, String pipeline) {
		this(target, table, pipeline, SettingNames.ENGINE);
	}

	/**
	 * Creates a store.
	 * @param target the target pool
	 * @param table the checkpoint table
	 * @param pipeline name of the pipeline whose rows this store reads and writes
	 * @param names how its messages name the settings they point to
	 */
	public JdbcCheckpointStore(DataSource target, TableId table, String pipeline, SettingNames names) {
		this(target, table, pipeline, TargetFence.NONE, names);
	}

	private JdbcCheckpointStore(DataSource target, TableId table, String pipeline, TargetFence fence,
			SettingNames names) {
		this.target = target;
		this.table = table;
		this.pipeline = pipeline;
		this.fence = fence;
		this.names = names;
	}

	@Override
	public JdbcCheckpointStore fencedBy(TargetFence other) {
		return new JdbcCheckpointStore(this.target, this.table, this.pipeline, other, this.names);
	}

	/** Returns the checkpoint table. */
	public TableId table() {
		return this.table;
	}

	@Override
	public void initialize() {
		try (Connection connection = this.target.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE IF NOT EXISTS " + TableId.quote(this.table.schema()));
			statement.execute("CREATE TABLE IF NOT EXISTS " + this.table.quoted() + " ("
					+ "pipeline VARCHAR(190) NOT NULL, source_table VARCHAR(190) NOT NULL, "
					+ "target_table VARCHAR(190) NOT NULL, snapshot_done BOOLEAN NOT NULL, "
					+ "binlog_position TEXT NULL, copied_up_to TEXT NULL, updated_at TIMESTAMP(6) NOT NULL, "
					+ "ended BOOLEAN NOT NULL DEFAULT FALSE, "
					+ "PRIMARY KEY (pipeline, source_table)) DEFAULT CHARSET = utf8mb4");
			addEndedColumn(connection, statement);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot create the checkpoint table " + this.table + ": "
					+ Causes.describe(ex) + advice(ex), ex);
		}
	}

	/** A checkpoint table made by an earlier release lacks the column {@code ended}: it gets it. */
	private void addEndedColumn(Connection connection, Statement statement) throws SQLException {
		try (PreparedStatement columns = connection.prepareStatement("SELECT COUNT(*) FROM information_schema.COLUMNS "
				+ "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = 'ended'")) {
			columns.setString(1, this.table.schema());
			columns.setString(2, this.table.table());
			try (ResultSet rs = columns.executeQuery()) {
				rs.next();
				if (rs.getInt(1) > 0) {
					return;
				}
			}
		}
		statement.execute("ALTER TABLE " + this.table.quoted() + " ADD COLUMN ended BOOLEAN NOT NULL DEFAULT FALSE");
	}

	@Override
	public Map<TableId, TableCheckpoint> load() {
		Map<TableId, TableCheckpoint> checkpoints = new LinkedHashMap<>();
		try (Connection connection = this.target.getConnection();
				PreparedStatement statement = connection.prepareStatement("SELECT source_table, target_table, "
						+ "snapshot_done, binlog_position, copied_up_to, UNIX_TIMESTAMP(updated_at), ended FROM "
						+ this.table.quoted() + " WHERE pipeline = ?")) {
			statement.setString(1, this.pipeline);
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					TableId source = TableId.parse(rs.getString(1), null);
					String position = rs.getString(4);
					String copied = rs.getString(5);
					checkpoints.put(source,
							new TableCheckpoint(source, storedTarget(rs.getString(2)), rs.getBoolean(3),
									(position != null) ? Position.parse(position) : null,
									(copied != null) ? KeyText.parse(copied) : null, instant(rs.getBigDecimal(6)),
									rs.getBoolean(7)));
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot read checkpoints from " + this.table + ": " + Causes.describe(ex)
					+ advice(ex), ex);
		}
		return checkpoints;
	}

	/**
	 * Reads a stored destination back, as {@link Destination#toString()} wrote it: a table's name,
	 * quoted parts and all, or another kind's {@code (<kind>).<name>}, as in
	 * {@code (kafka).eu.shop.orders} for a dotted topic.
	 */
	static Destination storedTarget(String text) {
		try {
			return Destination.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("Target name '" + text + "' in a checkpoint is not of the form "
					+ "schema.table: " + ex.getMessage(), ex);
		}
	}

	@Override
	public void save(Collection<TableCheckpoint> checkpoints) {
		if (checkpoints.isEmpty()) {
			return;
		}
		String sql = "REPLACE INTO " + this.table.quoted()
				+ " (pipeline, source_table, target_table, snapshot_done, binlog_position, copied_up_to, updated_at, ended) "
				+ "VALUES "
				+ String.join(", ", Collections.nCopies(checkpoints.size(), "(?, ?, ?, ?, ?, ?, FROM_UNIXTIME(?), ?)"));
		try (Connection connection = this.target.getConnection()) {
			connection.setAutoCommit(true);
			// A UTC session: FROM_UNIXTIME then has no daylight-saving hour to be ambiguous in.
			Sessions.prepareTarget(connection);
			if (this.fence.active()) {
				FencedTransaction.run(connection, this.fence, (c) -> write(c, sql, checkpoints));
			}
			else {
				write(connection, sql, checkpoints);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot write checkpoints to " + this.table + ": " + Causes.describe(ex)
					+ advice(ex), ex);
		}
	}

	private void write(Connection connection, String sql, Collection<TableCheckpoint> checkpoints)
			throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			int i = 1;
			for (TableCheckpoint checkpoint : checkpoints) {
				statement.setString(i++, this.pipeline);
				statement.setString(i++, checkpoint.source().toString());
				statement.setString(i++, checkpoint.target().toString());
				statement.setBoolean(i++, checkpoint.snapshotDone());
				statement.setString(i++, (checkpoint.position() != null) ? checkpoint.position().toString() : null);
				statement.setString(i++, (checkpoint.copiedUpTo() != null) ? KeyText.format(checkpoint.copiedUpTo()) : null);
				statement.setBigDecimal(i++, epochSeconds(checkpoint.updatedAt()));
				statement.setBoolean(i++, checkpoint.ended());
			}
			statement.executeUpdate();
		}
	}

	/** An instant as seconds since the epoch, to the microsecond the column keeps. */
	private static BigDecimal epochSeconds(Instant instant) {
		return BigDecimal.valueOf(ChronoUnit.MICROS.between(Instant.EPOCH, instant), 6);
	}

	/** Seconds since the epoch, as {@code UNIX_TIMESTAMP} returns them, as an instant. */
	private static Instant instant(BigDecimal epochSeconds) {
		return Instant.ofEpochSecond(0, epochSeconds.movePointRight(9).longValueExact());
	}

	/** Advice that fits the cause: reach the server, or grant what the statement needs. */
	private String advice(SQLException ex) {
		if (Causes.isConnectionFailure(ex)) {
			return ". Check that the target server is up and that " + this.names.of(Setting.TARGET_URL) + ", its user "
					+ "and password are right";
		}
		int code = ex.getErrorCode();
		if (code == 1142 || code == 1044 || code == 1227) {
			return ". Grant CREATE, SELECT, INSERT and DELETE on schema " + this.table.schema()
					+ " to the target user, or create the table by hand (see docs/troubleshooting.md)";
		}
		return "";
	}

}
