package io.tributary.source.binlog;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import com.github.shyiko.mysql.binlog.GtidSet;
import com.github.shyiko.mysql.binlog.MariadbGtidSet;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;

/**
 * Follows the set of transactions executed up to the reader's position: the GTID of the
 * transaction being read is added when its commit is read. Used only on the reader thread.
 */
abstract sealed class GtidTracker {

	/**
	 * Returns a tracker starting from a position's GTIDs, or {@code null} when it has none.
	 */
	static GtidTracker startingAt(String gtids) {
		if (gtids == null || isTagged(gtids)) {
			return null;
		}
		return MariadbGtidSet.isMariaGtidSet(gtids) ? new MariaDb(gtids) : new MySql(gtids);
	}

	/**
	 * Whether a reader may resume from these GTIDs by GTID: MySQL auto-positioning, or a MariaDB
	 * {@code slave_connect_state} with one GTID per replication domain.
	 */
	static boolean resumesByGtid(String gtids) {
		return gtids != null && !isTagged(gtids);
	}

	/** Whether the GTIDs are a MariaDB GTID list ({@code domain-server-sequence}, one per domain). */
	static boolean isMariaDb(String gtids) {
		return gtids != null && MariadbGtidSet.isMariaGtidSet(gtids);
	}

	/**
	 * Whether a MySQL GTID set names a tag ({@code uuid:tag:1-5}, MySQL 8.3+). The client library
	 * can neither parse such a set nor decode the events of tagged transactions, so positions on
	 * such a source are followed by binlog file and offset only.
	 */
	static boolean isTagged(String gtids) {
		if (gtids == null || MariadbGtidSet.isMariaGtidSet(gtids)) {
			return false;
		}
		for (String member : gtids.split(",")) {
			String[] parts = member.trim().split(":");
			for (int i = 1; i < parts.length; i++) {
				String part = parts[i].trim();
				if (!part.isEmpty() && (Character.isLetter(part.charAt(0)) || part.charAt(0) == '_')) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * A GTID event announced the next transaction.
	 * @param gtidEvent the event's data
	 * @param serverId the {@code server_id} in the event's header: the server that first wrote the
	 * transaction, which MariaDB's event data leaves out
	 */
	abstract void begin(Object gtidEvent, long serverId);

	/** The announced transaction's commit was read. */
	abstract void commit();

	/** Returns the executed set in the server's own syntax. */
	abstract String current();

	static final class MySql extends GtidTracker {

		private final GtidSet executed;

		/** Each server's UUID in text, rendered once. */
		private final Map<UUID, String> uuids = new HashMap<>();

		private MySqlGtid pending;

		/** The set in the server's syntax, or {@code null} until asked for after a change. */
		private String text;

		MySql(String gtids) {
			this.executed = new GtidSet(gtids);
		}

		@Override
		void begin(Object gtidEvent, long serverId) {
			if (gtidEvent instanceof GtidEventData data) {
				this.pending = data.getMySqlGtid();
			}
		}

		@Override
		void commit() {
			if (this.pending != null) {
				this.executed.addGtid(this.pending);
				this.pending = null;
				this.text = null;
			}
		}

		/**
		 * Renders the set as the client library's {@code GtidSet.toString()} does, without rendering
		 * each UUID again: the set is asked for after every commit.
		 */
		@Override
		String current() {
			if (this.text == null) {
				StringBuilder out = new StringBuilder(64);
				for (GtidSet.UUIDSet set : this.executed.getUUIDSets()) {
					if (out.length() > 0) {
						out.append(',');
					}
					out.append(this.uuids.computeIfAbsent(set.getServerId(), UUID::toString)).append(':');
					List<GtidSet.Interval> intervals = set.getIntervals();
					for (int i = 0; i < intervals.size(); i++) {
						GtidSet.Interval interval = intervals.get(i);
						out.append((i > 0) ? ":" : "").append(interval.getStart()).append('-').append(interval.getEnd());
					}
				}
				this.text = out.toString();
			}
			return this.text;
		}

	}

	static final class MariaDb extends GtidTracker {

		/** Domain id to {@code domain-server-sequence}; one entry per replication domain. */
		private final Map<Long, String> domains = new TreeMap<>();

		private String pending;

		private long pendingDomain;

		/** The list in the server's syntax, or {@code null} until asked for after a change. */
		private String joined;

		MariaDb(String gtids) {
			for (String gtid : gtids.split(",")) {
				String trimmed = gtid.trim();
				if (!trimmed.isEmpty()) {
					this.domains.put(Long.parseLong(trimmed.substring(0, trimmed.indexOf('-'))), trimmed);
				}
			}
		}

		@Override
		void begin(Object gtidEvent, long serverId) {
			if (gtidEvent instanceof MariadbGtidEventData data) {
				this.pendingDomain = data.getDomainId();
				this.pending = data.getDomainId() + "-" + serverId + "-" + data.getSequence();
			}
		}

		@Override
		void commit() {
			if (this.pending != null) {
				this.domains.put(this.pendingDomain, this.pending);
				// One domain, the usual case, is its own list; the list is asked for after every commit.
				this.joined = (this.domains.size() == 1) ? this.pending : null;
				this.pending = null;
			}
		}

		@Override
		String current() {
			if (this.joined == null) {
				this.joined = String.join(",", this.domains.values());
			}
			return this.joined;
		}

	}

}
