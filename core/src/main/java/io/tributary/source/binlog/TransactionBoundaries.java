package io.tributary.source.binlog;

import java.util.Locale;
import java.util.function.Consumer;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.source.Position;
import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;

/**
 * Follows a replication stream event by event and keeps the delivered position: the last
 * transaction boundary whose changes have all been handed over. It moves after a commit (XID or
 * COMMIT), after a statement outside any transaction (DDL), at a ROTATE read between
 * transactions, and to a heartbeat's position read between transactions. Row events and schema
 * statements go to the {@link RowEventDispatch} in stream order. Events are handled on the reader
 * thread only; the delivered position is read from any thread. Positions it makes name the
 * {@code server_id} of the server the connection reads, so a later resume by file and offset can
 * tell whether it is on the same server.
 */
final class TransactionBoundaries {

	private static final Logger logger = LoggerFactory.getLogger(TransactionBoundaries.class);

	private final RowEventDispatch rows;

	/** Ends the connection in progress; the next one reads again from the delivered boundary. */
	private final Consumer<String> abandon;

	private volatile Position delivered;

	/** Whether some connection has told where in the binlog it is (its first ROTATE). */
	private volatile boolean positioned;

	/** Set once a tagged GTID was met: positions are file and offset only from then on. */
	private volatile boolean gtidsAbandoned;

	/** Whether a position with GTIDs is resumed by them; false follows file and offset only. */
	private final boolean gtidPositioning;

	/** How messages name the settings they point to. */
	private final SettingNames names;

	/** {@code server_id} of the server the current connection reads, or 0 when unknown. */
	private long serverId;

	// Reader-thread state of the connection in progress.
	private String currentFile;

	/** Whether this connection's ROTATE named its file: {@link #currentFile} is the server's own. */
	private boolean located;

	/** Whether this connection was positioned by GTID, so the server skips what the set holds. */
	private boolean byGtid;

	private boolean inTransaction;

	private boolean inXaTransaction;

	/** A GTID event announced a transaction whose end has not been read yet. */
	private boolean announced;

	private GtidTracker gtids;

	/** Whether the connection held nothing more to read after the last event. */
	private boolean readAll;

	/** Told when a transaction ends and the connection holds nothing more to read. */
	private Runnable caughtUp = () -> {
	};

	TransactionBoundaries(RowEventDispatch rows, Consumer<String> abandon) {
		this(rows, abandon, true, SettingNames.ENGINE);
	}

	TransactionBoundaries(RowEventDispatch rows, Consumer<String> abandon, boolean gtidPositioning,
			SettingNames names) {
		this.rows = rows;
		this.abandon = abandon;
		this.gtidPositioning = gtidPositioning;
		this.names = names;
	}

	/** Sets what to tell when a transaction ends with nothing more to read; before the first connection. */
	void onCaughtUp(Runnable listener) {
		this.caughtUp = listener;
	}

	/** Notes, after each event, whether the connection holds more to read; reader thread. */
	void readAll(boolean nothingMore) {
		this.readAll = nothingMore;
	}

	/** Sets where reading starts, before the first connection. */
	void startAt(Position from) {
		this.delivered = from;
	}

	/**
	 * Goes back to an earlier boundary between two connections, on the reader thread; the next
	 * connection starts there and tells its place in the binlog again.
	 */
	void rewindTo(Position from) {
		this.delivered = from;
		this.positioned = false;
	}

	Position delivered() {
		return this.delivered;
	}

	boolean isPositioned() {
		return this.positioned;
	}

	/** Whether a connection starting at {@code from} should ask the server to position it by GTID. */
	boolean resumesByGtid(Position from) {
		return this.gtidPositioning && GtidTracker.resumesByGtid(from.gtids()) && !this.gtidsAbandoned;
	}

	/** Forgets the state of the previous connection; the next one starts at {@code from}. */
	void connecting(Position from) {
		this.currentFile = from.file();
		this.located = false;
		this.byGtid = resumesByGtid(from);
		this.inTransaction = false;
		this.inXaTransaction = false;
		this.announced = false;
		this.gtids = this.gtidsAbandoned ? null : GtidTracker.startingAt(from.gtids());
		this.serverId = 0;
	}

	/**
	 * The connection is up, to the server with this {@code server_id}.
	 * @return why reading must not go on, or {@code null}: a connection positioned by file and
	 * offset that reached another server than the one whose binary log the position points into
	 * would read from an arbitrary place, as after a failover behind an unchanged host name
	 */
	String connectedTo(long id) {
		this.serverId = id;
		Position from = this.delivered;
		if (this.byGtid || id == 0 || from.serverId() == 0 || from.serverId() == id) {
			return null;
		}
		return "The source is now the server with server_id " + id + ", but the reader is at " + from
				+ " in the binary log of server_id " + from.serverId() + "; a binlog file and offset mean "
				+ "nothing on another server, so reading stops here. Restart Tributary: tables whose checkpoint "
				+ "has no GTIDs to resume by are then refused, or snapshotted again with "
				+ this.names.of(Setting.INVALID_CHECKPOINT_BEHAVIOR) + "=restart (see docs/high-availability.md, "
				+ "source failover)";
	}

	void handle(EventHeaderV4 header, EventData data) {
		if (header instanceof TypedHeaderDeserializer.Header typed && typed.unnamed()) {
			onUnknownEvent(typed);
			return;
		}
		switch (header.getEventType()) {
			case ROTATE -> {
				RotateEventData rotate = (RotateEventData) data;
				this.currentFile = rotate.getBinlogFilename();
				this.located = true;
				this.positioned = true;
				if (!this.inTransaction) {
					this.delivered = Position.of(rotate.getBinlogFilename(), rotate.getBinlogPosition(),
							(this.gtids != null) ? this.gtids.current() : null, this.serverId);
				}
			}
			case HEARTBEAT -> {
				if (data instanceof StreamDeserializer.Heartbeat heartbeat) {
					onHeartbeat(heartbeat.file(), header.getNextPosition());
				}
			}
			case MARIADB_GTID -> {
				advanceToTransactionStart(header);
				this.announced = true;
				this.inTransaction = (((MariadbGtidEventData) data).getFlags() & 1) == 0;
				if (this.gtids != null) {
					// The event itself names domain and sequence number; the server id is in its header.
					this.gtids.begin(data, header.getServerId());
				}
			}
			case GTID -> {
				advanceToTransactionStart(header);
				this.announced = true;
				if (this.gtids != null) {
					this.gtids.begin(data, header.getServerId());
				}
			}
			case ANONYMOUS_GTID -> this.announced = true;
			case QUERY -> onQuery((QueryEventData) data, header);
			case XID -> endTransaction(header);
			case XA_PREPARE -> {
				this.inXaTransaction = false;
				endTransaction(header);
			}
			case WRITE_ROWS, EXT_WRITE_ROWS, UPDATE_ROWS, EXT_UPDATE_ROWS, DELETE_ROWS, EXT_DELETE_ROWS -> {
				this.inTransaction = true;
				this.rows.onRows((DecodedRows) data, this.delivered, this.inXaTransaction);
			}
			default -> {
			}
		}
	}

	/**
	 * The server sends a heartbeat when it has nothing to send for a while, and while it skips
	 * transactions a GTID-positioned connection already has: everything before the heartbeat's
	 * position was sent or is in the executed set. Read between transactions, with nothing half
	 * read, every change before it has been handed over, so it is delivered. On an idle source
	 * nothing else moves the reader past a ROTATE or other events that end no transaction.
	 */
	private void onHeartbeat(String file, long offset) {
		// After a GTID-positioned connection met a tagged GTID, a reconnect goes by file and offset,
		// which a heartbeat sent in the middle of a skipped transaction would not be a boundary for.
		if (!this.located || this.inTransaction || this.announced || offset <= 0 || (this.byGtid && this.gtidsAbandoned)
				|| !file.equals(this.currentFile)) {
			return;
		}
		Position at = inCurrentFile(offset, this.delivered.gtids());
		if (at.compareTo(this.delivered) > 0) {
			this.delivered = at;
		}
	}

	private void onQuery(QueryEventData query, EventHeaderV4 header) {
		String sql = query.getSql().trim();
		String verb = sql.length() >= 8 ? sql.substring(0, 8).toUpperCase(Locale.ROOT) : sql.toUpperCase(Locale.ROOT);
		if (verb.startsWith("BEGIN")) {
			this.inTransaction = true;
		}
		else if (verb.startsWith("XA START") || verb.startsWith("XA BEGIN")) {
			this.inTransaction = true;
			this.inXaTransaction = true;
		}
		else if (verb.startsWith("COMMIT") || verb.startsWith("ROLLBACK")) {
			endTransaction(header);
		}
		else if (!this.inTransaction) {
			// A statement outside a transaction (DDL) is its own boundary.
			this.rows.onSchemaStatement(SchemaStatement.parse(sql, query.getDatabase()), sql);
			endTransaction(header);
		}
		else if (verb.startsWith("CREATE")) {
			// MariaDB logs CREATE TABLE ... SELECT inside the transaction of the rows it selected.
			this.rows.onSchemaStatement(SchemaStatement.parse(sql, query.getDatabase()), sql);
		}
	}

	private void endTransaction(EventHeaderV4 header) {
		this.rows.counters().transactionEnded();
		this.inTransaction = false;
		this.announced = false;
		String executed = null;
		if (this.gtids != null) {
			this.gtids.commit();
			executed = this.gtids.current();
		}
		this.delivered = inCurrentFile(header.getNextPosition(), executed);
		if (this.readAll) {
			this.caughtUp.run();
		}
	}

	/** Returns a position at this offset of the file being read, of the server being read. */
	private Position inCurrentFile(long offset, String gtids) {
		Position last = this.delivered;
		if (last != null && last.serverId() == this.serverId && last.file().equals(this.currentFile)) {
			return last.at(offset, gtids);
		}
		return Position.of(this.currentFile, offset, gtids, this.serverId);
	}

	private void onUnknownEvent(TypedHeaderDeserializer.Header header) {
		int code = header.code();
		switch (TypedHeaderDeserializer.Unknown.of(code)) {
			case IGNORE -> {
			}
			case STOP_FOLLOWING_GTIDS -> {
				if (this.gtids != null || !this.gtidsAbandoned) {
					logger.warn("The source wrote a transaction with a tagged GTID at {}:{}, which this reader cannot "
							+ "decode; positions are binlog file and offset from here on, without GTIDs (resuming "
							+ "after a failover to another server then needs a new snapshot)", this.currentFile,
							header.getPosition());
				}
				anchorBeforeTaggedTransaction(header);
				this.gtids = null;
				this.gtidsAbandoned = true;
				this.announced = true;
			}
			case REFUSE -> this.abandon.accept("The source wrote a binlog event of type " + code + " at "
					+ this.currentFile + ":" + header.getPosition() + ", which this reader cannot decode. Skipping it "
					+ "could lose changes, so reading stops here; the source's server version is newer than "
					+ "Tributary supports, or the event comes from a plugin");
		}
	}

	/**
	 * Moves the delivered position up to the start of the transaction a GTID event opens, read
	 * between transactions: everything before it was sent or is in the executed set, so it is a true
	 * boundary. A GTID-positioned connection starts at its ROTATE's offset 4, and MariaDB sends no
	 * heartbeat while it seeks to the GTID; without this, the first transaction's changes would
	 * claim to resume from offset 4, before positions the pipeline already holds, and a table
	 * skipping a replay up to such a position would drop them.
	 */
	private void advanceToTransactionStart(EventHeaderV4 header) {
		if (!this.located || this.inTransaction || this.announced || (this.byGtid && this.gtidsAbandoned)
				|| header.getPosition() <= 0) {
			return;
		}
		Position start = inCurrentFile(header.getPosition(), this.delivered.gtids());
		if (start.compareTo(this.delivered) > 0) {
			this.delivered = start;
		}
	}

	/**
	 * Moves the delivered position to the start of the transaction a tagged GTID opens. A reconnect
	 * from here on goes by file and offset, and a heartbeat may have left the position inside a
	 * transaction the server skipped by GTID; the start of this one is a true boundary.
	 */
	private void anchorBeforeTaggedTransaction(EventHeaderV4 header) {
		if (!this.located || this.inTransaction || this.announced) {
			return;
		}
		Position start = Position.of(this.currentFile, header.getPosition(), null, this.serverId);
		if (start.compareTo(this.delivered) >= 0) {
			this.delivered = start;
		}
	}

}
