package io.tributary.source.binlog;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.GtidSet;
import com.github.shyiko.mysql.binlog.MariadbGtidSet;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidListEventData;
import com.github.shyiko.mysql.binlog.event.PreviousGtidSetEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;

import io.tributary.settings.SettingNames;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;

/**
 * Reads one binlog file of the source from its start, without waiting for more, to find where
 * its transactions start, when each was logged and with which GTID: what turns a start point
 * (a GTID set, an instant, a file and offset) into a position the reader can start at.
 *
 * <p>The walk is a replica connection of its own, under a random {@code server_id} that is not the
 * reader's, so the server does not take it for the reader reconnecting and end the reader's
 * stream. Row images are not decoded.
 */
final class BinlogWalk {

	/** The events whose bodies a walk reads; every other body is skipped undecoded. */
	private static final Set<EventType> KEPT = EnumSet.of(EventType.FORMAT_DESCRIPTION, EventType.ROTATE,
			EventType.QUERY, EventType.XID, EventType.GTID, EventType.ANONYMOUS_GTID, EventType.PREVIOUS_GTIDS,
			EventType.MARIADB_GTID, EventType.MARIADB_GTID_LIST);

	private final SourceSettings settings;

	private final SettingNames names;

	BinlogWalk(SourceSettings settings, SettingNames names) {
		this.settings = settings;
		this.names = names;
	}

	/**
	 * A transaction's start.
	 * @param offset where its first event starts in the file
	 * @param seconds when its first event was logged, in epoch seconds
	 * @param gtid its GTID, or {@code null} when the server logs none
	 */
	record Transaction(long offset, long seconds, String gtid) {
	}

	/**
	 * What a walk found.
	 * @param file the file walked
	 * @param startSeconds when the file's first event was logged, in epoch seconds
	 * @param stoppedAt the transaction the walk stopped at, or {@code null} when it reached the file's end
	 * @param gtids the GTIDs executed before {@code stoppedAt} (or before the file's end), or
	 * {@code null} when the server logs none
	 * @param endOffset where the file ends (its last transaction's end), when it was reached
	 * @param last whether the file is the last one the source has: the head is at its end
	 */
	record Walked(String file, long startSeconds, Transaction stoppedAt, String gtids, long endOffset, boolean last) {

		/** Returns the position the walk stopped at, or the file's end. */
		Position position(long serverId) {
			return Position.of(this.file, (this.stoppedAt != null) ? this.stoppedAt.offset() : this.endOffset,
					this.gtids, serverId);
		}

	}

	/**
	 * Walks a file until {@code stop} takes a transaction, or to the file's end.
	 * @param file the binlog file
	 * @param stop whether to stop at a transaction, before it
	 * @return what the walk found
	 * @throws IOException when the source cannot be read
	 */
	Walked walk(String file, Predicate<Transaction> stop) throws IOException {
		Walker walker = new Walker(file, stop);
		BinaryLogClient client = ConnectionOptions.client(this.settings, this.names, Position.of(file, 4), false,
				deserializer());
		client.setServerId(walkerId(this.settings.serverId()));
		client.setBlocking(false);
		client.setHeartbeatInterval(0);
		walker.client = client;
		client.registerEventListener(walker::onEvent);
		client.connect();
		if (walker.failure != null) {
			throw walker.failure;
		}
		return walker.result();
	}

	/** A random {@code server_id} other than the reader's, out of the range people usually give theirs. */
	private static long walkerId(long readerId) {
		long id;
		do {
			id = ThreadLocalRandom.current().nextLong(1L << 31, (1L << 32) - 1);
		}
		while (id == readerId);
		return id;
	}

	private static EventDeserializer deserializer() {
		EventDeserializer deserializer = new EventDeserializer();
		for (EventType type : EventType.values()) {
			if (!KEPT.contains(type)) {
				deserializer.setEventDataDeserializer(type, new NullEventDataDeserializer());
			}
		}
		return deserializer;
	}

	/** The state of one walk, on the client's thread. */
	private static final class Walker {

		private final String file;

		private final Predicate<Transaction> stop;

		private BinaryLogClient client;

		private long startSeconds = -1;

		private GtidSet mySqlGtids;

		private MariadbGtidSet mariaDbGtids;

		private boolean afterGtid;

		private boolean inTransaction;

		private Transaction stoppedAt;

		private long endOffset = 4;

		private boolean otherFile;

		private boolean done;

		private IOException failure;

		Walker(String file, Predicate<Transaction> stop) {
			this.file = file;
			this.stop = stop;
		}

		void onEvent(Event event) {
			if (this.done) {
				return;
			}
			EventHeaderV4 header = event.getHeader();
			EventType type = header.getEventType();
			if (type == EventType.ROTATE) {
				RotateEventData rotate = event.getData();
				if (!rotate.getBinlogFilename().equals(this.file)) {
					// The file ended; the server goes on with the next one.
					this.otherFile = true;
					finish();
				}
				return;
			}
			if (header.getNextPosition() == 0) {
				// An artificial event the server makes up for the connection, not part of the file.
				return;
			}
			if (this.startSeconds < 0) {
				this.startSeconds = header.getTimestamp() / 1000;
			}
			switch (type) {
				case PREVIOUS_GTIDS -> this.mySqlGtids = new GtidSet(
						((PreviousGtidSetEventData) event.getData()).getGtidSet().replace("\n", ""));
				case MARIADB_GTID_LIST -> this.mariaDbGtids = new MariadbGtidSet(
						((MariadbGtidListEventData) event.getData()).getMariaGTIDSet().toString());
				case GTID -> begin(header, ((GtidEventData) event.getData()).getMySqlGtid().toString());
				case ANONYMOUS_GTID -> begin(header, null);
				case MARIADB_GTID -> {
					MariadbGtidEventData gtid = event.getData();
					begin(header, gtid.getDomainId() + "-" + header.getServerId() + "-" + gtid.getSequence());
				}
				case QUERY -> onQuery(header, ((QueryEventData) event.getData()).getSql());
				case XID -> this.inTransaction = false;
				default -> {
				}
			}
			if (!this.done) {
				this.endOffset = header.getNextPosition();
			}
		}

		private void onQuery(EventHeaderV4 header, String sql) {
			boolean begins = sql.equalsIgnoreCase("BEGIN") || sql.regionMatches(true, 0, "XA START", 0, 8);
			if (!this.afterGtid && !this.inTransaction) {
				begin(header, null);
			}
			this.afterGtid = false;
			if (this.done) {
				return;
			}
			this.inTransaction = begins || (this.inTransaction && !sql.equalsIgnoreCase("COMMIT"));
		}

		private void begin(EventHeaderV4 header, String gtid) {
			Transaction transaction = new Transaction(header.getPosition(), header.getTimestamp() / 1000, gtid);
			if (this.stop.test(transaction)) {
				this.stoppedAt = transaction;
				finish();
				return;
			}
			this.afterGtid = true;
			if (gtid != null) {
				if (this.mySqlGtids != null && !MariadbGtidSet.isMariaGtidSet(gtid)) {
					this.mySqlGtids.add(gtid);
				}
				else {
					if (this.mariaDbGtids == null) {
						this.mariaDbGtids = new MariadbGtidSet("");
					}
					this.mariaDbGtids.add(gtid);
				}
			}
		}

		private void finish() {
			this.done = true;
			try {
				this.client.disconnect();
			}
			catch (IOException ex) {
				this.failure = ex;
			}
		}

		Walked result() {
			String gtids = (this.mariaDbGtids != null) ? this.mariaDbGtids.toString()
					: (this.mySqlGtids != null) ? this.mySqlGtids.toString() : null;
			return new Walked(this.file, this.startSeconds, this.stoppedAt, (gtids != null && gtids.isEmpty()) ? null
					: gtids, this.endOffset, !this.otherFile && this.stoppedAt == null);
		}

	}

}
