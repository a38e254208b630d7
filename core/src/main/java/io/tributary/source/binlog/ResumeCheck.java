package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.tributary.source.Position;

/**
 * Tells whether a source can serve a stream from a saved position without losing a change, before
 * a reader starts there.
 *
 * <p>A position resumed by GTID is checked against the source's GTIDs: on MySQL its executed set
 * must contain the position's and its purged set must not reach past it; on MariaDB, for each
 * replication domain of the position's GTID list, the source's binary log must hold that
 * transaction or a later one of the same server, and its oldest binlog file must not start after
 * it. Any other position is checked against the source's binlog files, and against the server it
 * was read from: a file and offset are valid only on the server that wrote them, so a position
 * that names another {@code server_id} is refused, as after a failover without GTIDs.
 */
public final class ResumeCheck {

	private ResumeCheck() {
	}

	/**
	 * Returns whether a reader with these settings resumes from a position by GTID.
	 * @param position the position
	 * @param gtidPositioning whether positions with GTIDs are resumed by them
	 * @return whether it does
	 */
	public static boolean byGtid(Position position, boolean gtidPositioning) {
		return gtidPositioning && GtidTracker.resumesByGtid(position.gtids());
	}

	/**
	 * Returns why the source cannot serve a stream starting at a position, or {@code null} when it
	 * can.
	 * @param position the position
	 * @param files the source's binlog files and sizes, oldest first
	 * @param source the source pool, for the GTID checks
	 * @param serverId the source's own {@code server_id}, or 0 when unknown
	 * @param gtidPositioning whether positions with GTIDs are resumed by them
	 * @return the reason, in words that fit after "but", or {@code null}
	 */
	public static String unavailable(Position position, LinkedHashMap<String, Long> files, DataSource source,
			long serverId, boolean gtidPositioning) {
		if (byGtid(position, gtidPositioning)) {
			try (Connection connection = source.getConnection()) {
				return GtidTracker.isMariaDb(position.gtids()) ? mariaDbGtids(connection, position.gtids(), files)
						: mySqlGtids(connection, position.gtids());
			}
			catch (SQLException ex) {
				return "its GTIDs could not be checked against the source: " + ex.getMessage();
			}
		}
		if (position.serverId() != 0 && serverId != 0 && position.serverId() != serverId) {
			return "it points into the binary log of the server with server_id " + position.serverId()
					+ ", and the source is now server_id " + serverId + ": a binlog file and offset are valid only "
					+ "on the server that wrote them (after a failover, only a position with GTIDs finds its place "
					+ "on the new source)";
		}
		Long size = files.get(position.file());
		String oldest = files.isEmpty() ? "none" : files.keySet().iterator().next();
		if (size == null) {
			return "the source no longer has binlog file " + position.file() + " (its oldest is " + oldest
					+ "): it was purged, or the source was reset or replaced";
		}
		if (position.offset() > size) {
			return "binlog file " + position.file() + " on the source is only " + size + " bytes long, shorter than "
					+ "the checkpoint's offset " + position.offset() + ": the source was reset or replaced";
		}
		return null;
	}

	private static String mySqlGtids(Connection connection, String gtids) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed), GTID_SUBSET(@@GLOBAL.gtid_purged, ?), "
						+ "@@GLOBAL.gtid_purged")) {
			statement.setString(1, gtids);
			statement.setString(2, gtids);
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				if (!rs.getBoolean(1)) {
					return "the source's executed GTID set does not contain the checkpoint's (" + gtids
							+ "): the source was reset, replaced, is behind the checkpoint, or its history diverged";
				}
				if (!rs.getBoolean(2)) {
					return "the source has purged transactions the checkpoint has not seen (gtid_purged is "
							+ rs.getString(3) + ")";
				}
				return null;
			}
		}
	}

	/**
	 * MariaDB has no set arithmetic on GTIDs; its binlog state names the last transaction of every
	 * server in every domain, and the GTID list at the start of the oldest file what was purged.
	 */
	private static String mariaDbGtids(Connection connection, String gtids, LinkedHashMap<String, Long> files)
			throws SQLException {
		String state;
		String purged = null;
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT @@GLOBAL.gtid_binlog_state, BINLOG_GTID_POS(?, 4)")) {
			statement.setString(1, files.isEmpty() ? "" : files.keySet().iterator().next());
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				state = rs.getString(1);
				purged = rs.getString(2);
			}
		}
		Map<String, Long> logged = new HashMap<>();
		for (MariaDbGtid gtid : MariaDbGtid.list(state)) {
			logged.merge(gtid.domain() + "-" + gtid.server(), gtid.sequence(), Math::max);
		}
		Map<Long, Long> purgedUpTo = new HashMap<>();
		for (MariaDbGtid gtid : MariaDbGtid.list(purged)) {
			purgedUpTo.merge(gtid.domain(), gtid.sequence(), Math::max);
		}
		for (MariaDbGtid gtid : MariaDbGtid.list(gtids)) {
			Long last = logged.get(gtid.domain() + "-" + gtid.server());
			if (last == null || last < gtid.sequence()) {
				return "the source's binary log does not hold the checkpoint's transaction " + gtid + " (its "
						+ "gtid_binlog_state is '" + state + "'): the source was reset, replaced, is behind the "
						+ "checkpoint, or does not log what it replicates (log_slave_updates is OFF)";
			}
			Long gone = purgedUpTo.get(gtid.domain());
			if (gone != null && gone > gtid.sequence()) {
				return "the source has purged transactions the checkpoint has not seen (its oldest binlog file starts "
						+ "after " + purged + ", the checkpoint is at " + gtid + ")";
			}
		}
		return null;
	}

	/** One {@code domain-server-sequence} of a MariaDB GTID list. */
	private record MariaDbGtid(long domain, long server, long sequence) {

		static List<MariaDbGtid> list(String text) {
			List<MariaDbGtid> gtids = new ArrayList<>();
			if (text == null) {
				return gtids;
			}
			for (String member : text.split(",")) {
				String[] parts = member.trim().split("-");
				if (parts.length == 3) {
					gtids.add(new MariaDbGtid(Long.parseLong(parts[0]), Long.parseLong(parts[1]),
							Long.parseLong(parts[2])));
				}
			}
			return gtids;
		}

		@Override
		public String toString() {
			return this.domain + "-" + this.server + "-" + this.sequence;
		}

	}

}
