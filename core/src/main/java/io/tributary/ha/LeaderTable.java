package io.tributary.ha;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

import io.tributary.name.TableId;

/**
 * The statements on a pipeline's row of the leader table, which sits next to the checkpoint table
 * ({@code <checkpoint table>_leader}). The row holds the fencing epoch, who leads, the session
 * holding the leader lock, the sessions the leader writes with, and the lease. Times are the
 * target server's UTC clock ({@code UTC_TIMESTAMP(6)}), so the instances' clocks never matter.
 */
final class LeaderTable {

	/** MySQL refuses longer identifiers and user lock names. */
	static final int MAX_NAME = 64;

	/** The most writer sessions the row remembers; a pool reuses far fewer than this. */
	static final int MAX_WRITERS = 200;

	private final TableId table;

	private final String pipeline;

	private final String lockName;

	LeaderTable(TableId checkpointTable, String pipeline) {
		this.table = tableFor(checkpointTable);
		this.pipeline = pipeline;
		this.lockName = lockName(checkpointTable, pipeline);
	}

	/** Returns the leader table of a checkpoint table: {@code <table>_leader}, shortened to fit. */
	static TableId tableFor(TableId checkpointTable) {
		String name = checkpointTable.table() + "_leader";
		if (name.length() > MAX_NAME) {
			name = checkpointTable.table().substring(0, MAX_NAME - 16) + "_" + hash(name, 8) + "_leader";
		}
		return new TableId(checkpointTable.schema(), name);
	}

	/**
	 * Returns the name of a pipeline's leader lock, the same in every instance that shares the
	 * checkpoint table: {@code tributary:<pipeline>@<schema.table>}, shortened with a hash to fit.
	 */
	static String lockName(TableId checkpointTable, String pipeline) {
		String name = "tributary:" + pipeline + "@" + checkpointTable;
		if (name.length() <= MAX_NAME) {
			return name;
		}
		return name.substring(0, MAX_NAME - 17) + ":" + hash(name, 16);
	}

	private static String hash(String text, int length) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest).substring(0, length);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
		}
	}

	TableId table() {
		return this.table;
	}

	String lockName() {
		return this.lockName;
	}

	String pipeline() {
		return this.pipeline;
	}

	/**
	 * Creates the schema, the table and this pipeline's row when missing (the leader table may come
	 * before the checkpoint table); a new row's lease has lapsed.
	 */
	void create(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE IF NOT EXISTS " + TableId.quote(this.table.schema()));
			statement.execute("CREATE TABLE IF NOT EXISTS " + this.table.quoted() + " ("
					+ "pipeline VARCHAR(190) NOT NULL, epoch BIGINT NOT NULL, holder VARCHAR(255) NOT NULL, "
					+ "lock_session BIGINT NOT NULL, writer_sessions TEXT NULL, server_started BIGINT NULL, "
					+ "acquired_at DATETIME(6) NULL, renewed_at DATETIME(6) NULL, lease_until DATETIME(6) NOT NULL, "
					+ "PRIMARY KEY (pipeline)) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4");
		}
		try (PreparedStatement statement = connection.prepareStatement("INSERT IGNORE INTO " + this.table.quoted()
				+ " (pipeline, epoch, holder, lock_session, lease_until) VALUES (?, 0, '', 0, '1970-01-01 00:00:01')")) {
			statement.setString(1, this.pipeline);
			statement.executeUpdate();
		}
	}

	/**
	 * Reads the row and who holds the lock now.
	 * @param forUpdate whether to lock the row until the transaction ends, so no renewal or
	 * takeover slips in between the read and what the caller does with it
	 */
	Lease read(Connection connection, boolean forUpdate) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT epoch, holder, lock_session, "
				+ "writer_sessions, server_started, lease_until < UTC_TIMESTAMP(6), lease_until, IS_USED_LOCK(?) FROM "
				+ this.table.quoted() + " WHERE pipeline = ?" + (forUpdate ? " FOR UPDATE" : ""))) {
			statement.setString(1, this.lockName);
			statement.setString(2, this.pipeline);
			try (ResultSet rs = statement.executeQuery()) {
				if (!rs.next()) {
					throw new SQLException("The row of pipeline " + this.pipeline + " is missing from " + this.table);
				}
				long started = rs.getLong(5);
				Long startedOrNull = rs.wasNull() ? null : started;
				long lockHolder = rs.getLong(8);
				Long lockHolderOrNull = rs.wasNull() ? null : lockHolder;
				return new Lease(rs.getLong(1), rs.getString(2), rs.getLong(3), parseSessions(rs.getString(4)),
						startedOrNull, rs.getBoolean(6), rs.getString(7), lockHolderOrNull);
			}
		}
	}

	/** Reads the epoch with a shared lock that holds off a takeover until the transaction ends. */
	Long epochForShare(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT epoch FROM " + this.table.quoted() + " WHERE pipeline = ? LOCK IN SHARE MODE")) {
			statement.setString(1, this.pipeline);
			try (ResultSet rs = statement.executeQuery()) {
				return rs.next() ? rs.getLong(1) : null;
			}
		}
	}

	/** Makes {@code holder} the leader at {@code epoch}, with a fresh lease, on the lock's connection. */
	void takeOver(Connection connection, long epoch, String holder, Long serverStarted, Duration lease)
			throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("UPDATE " + this.table.quoted()
				+ " SET epoch = ?, holder = ?, lock_session = CONNECTION_ID(), writer_sessions = NULL, "
				+ "server_started = ?, acquired_at = UTC_TIMESTAMP(6), renewed_at = UTC_TIMESTAMP(6), "
				+ "lease_until = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND WHERE pipeline = ?")) {
			statement.setLong(1, epoch);
			statement.setString(2, holder);
			if (serverStarted != null) {
				statement.setLong(3, serverStarted);
			}
			else {
				statement.setNull(3, Types.BIGINT);
			}
			statement.setLong(4, lease.toNanos() / 1_000);
			statement.setString(5, this.pipeline);
			statement.executeUpdate();
		}
	}

	/** Extends the lease of {@code epoch}; returns false when that epoch no longer leads. */
	boolean renew(Connection connection, long epoch, Duration lease) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("UPDATE " + this.table.quoted()
				+ " SET renewed_at = UTC_TIMESTAMP(6), lease_until = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND "
				+ "WHERE pipeline = ? AND epoch = ?")) {
			statement.setLong(1, lease.toNanos() / 1_000);
			statement.setString(2, this.pipeline);
			statement.setLong(3, epoch);
			return statement.executeUpdate() == 1;
		}
	}

	/** Ends the lease of {@code epoch} now, so a standby need not wait for it to lapse. */
	void endLease(Connection connection, long epoch) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("UPDATE " + this.table.quoted()
				+ " SET lease_until = UTC_TIMESTAMP(6) WHERE pipeline = ? AND epoch = ?")) {
			statement.setString(1, this.pipeline);
			statement.setLong(2, epoch);
			statement.executeUpdate();
		}
	}

	/** Records the sessions the leader of {@code epoch} writes with; false when it no longer leads. */
	boolean recordWriters(Connection connection, long epoch, Collection<Long> sessions) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("UPDATE " + this.table.quoted()
				+ " SET writer_sessions = ? WHERE pipeline = ? AND epoch = ?")) {
			statement.setString(1, sessions.stream().map(String::valueOf).collect(Collectors.joining(",")));
			statement.setString(2, this.pipeline);
			statement.setLong(3, epoch);
			return statement.executeUpdate() == 1;
		}
	}

	/** Returns when the server started, in seconds since 1970, or {@code null} when it does not say. */
	static Long serverStarted(Connection connection) throws SQLException {
		long now;
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT UNIX_TIMESTAMP()")) {
			rs.next();
			now = rs.getLong(1);
		}
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Uptime'")) {
			return rs.next() ? now - Long.parseLong(rs.getString(2).trim()) : null;
		}
	}

	/** Returns this connection's session id. */
	static long sessionId(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT CONNECTION_ID()")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	private static List<Long> parseSessions(String text) {
		List<Long> sessions = new ArrayList<>();
		if (text != null && !text.isBlank()) {
			for (String id : text.split(",")) {
				sessions.add(Long.parseLong(id.trim()));
			}
		}
		return sessions;
	}

	/**
	 * A pipeline's row as read, with the lock's holder.
	 *
	 * @param epoch the fencing epoch; each takeover increments it
	 * @param holder the instance that leads, or led last ({@code host/pid/id})
	 * @param lockSession the session that took the lock in that epoch
	 * @param writerSessions the sessions the leader of that epoch wrote with
	 * @param serverStarted when the target server had started at that takeover (seconds since 1970),
	 * to tell whether the session ids still name the same sessions
	 * @param lapsed whether the lease has run out on the target's clock
	 * @param leaseUntil when the lease runs out, as the target's UTC text
	 * @param lockHolder the session that holds the lock now, or {@code null} when it is free
	 */
	record Lease(long epoch, String holder, long lockSession, List<Long> writerSessions, Long serverStarted,
			boolean lapsed, String leaseUntil, Long lockHolder) {

	}

}
