package io.tributary.source.binlog;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;
import io.tributary.source.ChangeHandler;
import io.tributary.source.Position;
import io.tributary.source.RowChange;
import io.tributary.source.SourceSettings;
import io.tributary.source.TableId;

/**
 * Reads one source server's binary log as a replica and turns the row events of subscribed tables
 * into {@link RowChange}s. One instance, and one connection, serves every table of that server.
 *
 * <p>The position it reports as delivered is always a transaction boundary: it moves only after a
 * transaction's commit (XID or COMMIT) or after a statement outside any transaction (DDL). When the
 * connection drops, the reader reconnects with capped exponential backoff and starts again from
 * that boundary, so a transaction cut in half is read again whole; buffering by key absorbs the
 * repeat.
 */
public final class BinlogChangeSource implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(BinlogChangeSource.class);

	private static final long MAX_BACKOFF_MILLIS = 30_000;

	private final SourceSettings settings;

	private final ChangeHandler handler;

	private final Map<TableId, TableLayout> layouts = new ConcurrentHashMap<>();

	/** Table id to table map, touched only by the reader thread; bounded like the server's cache. */
	private final Map<Long, TableMapEventData> tableMaps = new LinkedHashMap<>(256, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<Long, TableMapEventData> eldest) {
			return size() > 10_000;
		}

	};

	private final AtomicLong reconnects = new AtomicLong();

	private final AtomicLong events = new AtomicLong();

	private volatile Position delivered;

	private volatile boolean running;

	private volatile boolean connected;

	/** Whether the current connection has told where in the binlog it is (its first ROTATE). */
	private volatile boolean positioned;

	private volatile String lastError;

	private volatile long lastEventTimestamp;

	private volatile BinaryLogClient client;

	private Thread reader;

	// Reader-thread state for the connection in progress.
	private String currentFile;

	private boolean inTransaction;

	private boolean poisoned;

	private boolean inXaTransaction;

	private GtidTracker gtids;

	/** Set once a tagged GTID was met: positions are file and offset only from then on. */
	private volatile boolean gtidsAbandoned;

	/** A rewind asked for and not yet carried out by the reader thread. */
	private volatile Rewind pendingRewind;

	/**
	 * Tables that skip a replay: each was handed every change before its position already, so row
	 * events and statements before it are neither decoded nor handed again.
	 */
	private final Map<TableId, Position> skipUntil = new ConcurrentHashMap<>();

	/** The table map each table's layout was last checked against, by table id. */
	private final Map<Long, TableMapEventData> checkedMaps = new java.util.HashMap<>();

	public BinlogChangeSource(SourceSettings settings, ChangeHandler handler) {
		this.settings = settings;
		this.handler = handler;
	}

	/**
	 * Subscribes a table: from now on its row events are decoded with this layout and handed to
	 * the handler. Row images of other tables are skipped undecoded.
	 */
	public void subscribe(TableLayout layout) {
		this.layouts.put(layout.table(), layout);
	}

	/** Stops decoding a table's events. */
	public void unsubscribe(TableId table) {
		this.layouts.remove(table);
		this.skipUntil.remove(table);
	}

	/**
	 * Goes back to an earlier transaction boundary and reads again from there, for the given
	 * tables, which are subscribed at that moment. The tables subscribed already skip the replay up
	 * to where the reader was. Returns at once; on the reader thread, before the first replayed
	 * event, the handler hears {@link ChangeHandler#onRewind}. Two rewinds asked for before the first
	 * is carried out become one, from the earlier position.
	 * @param from where to read again from; a boundary the source still has
	 * @param tables the layouts of the tables to read again
	 */
	public void rewind(Position from, Collection<TableLayout> tables) {
		synchronized (this) {
			Rewind earlier = this.pendingRewind;
			List<TableLayout> all = new ArrayList<>(tables);
			if (earlier != null) {
				all.addAll(earlier.tables());
			}
			this.pendingRewind = new Rewind(Position.min(from, (earlier != null) ? earlier.from() : null), all);
			notifyAll();
		}
		// The reader also checks for the rewind at every event, heartbeats included, should this
		// disconnect come before the connection is up.
		disconnect();
	}

	/** Carries out a pending rewind on the reader thread, between two connections. */
	private void rewindIfAsked() {
		Rewind rewind;
		synchronized (this) {
			rewind = this.pendingRewind;
			this.pendingRewind = null;
		}
		if (rewind == null) {
			return;
		}
		Position until = this.delivered;
		for (TableId table : this.layouts.keySet()) {
			this.skipUntil.merge(table, until, (a, b) -> (a.compareTo(b) >= 0) ? a : b);
		}
		for (TableLayout layout : rewind.tables()) {
			this.layouts.put(layout.table(), layout);
			this.skipUntil.remove(layout.table());
		}
		// The delivered position goes back before the handler hears of it, so nothing confirms a
		// position the replay has not reached yet.
		this.delivered = rewind.from();
		this.positioned = false;
		logger.info("Reading the binlog of {} again from {} for {} (it was at {})", this.settings, rewind.from(),
				rewind.tables().stream().map(TableLayout::table).toList(), until);
		this.handler.onRewind(until);
	}

	/** Returns whether the reader replays changes the table was handed already. */
	private boolean skips(TableId table) {
		Position until = this.skipUntil.get(table);
		if (until == null) {
			return false;
		}
		if (this.delivered.compareTo(until) < 0) {
			return true;
		}
		this.skipUntil.remove(table, until);
		return false;
	}

	/**
	 * Starts reading at a transaction boundary, on a thread of its own.
	 * @param from where to start
	 */
	public synchronized void start(Position from) {
		if (this.running) {
			throw new IllegalStateException("Binlog reader for " + this.settings + " is already running");
		}
		this.delivered = from;
		this.running = true;
		this.reader = new Thread(this::readUntilStopped, "tributary-binlog-" + this.settings.host());
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/** Returns the last transaction boundary whose changes have all been handed to the handler. */
	public Position delivered() {
		return this.delivered;
	}

	public boolean isConnected() {
		return this.connected;
	}

	/**
	 * Returns whether {@link #delivered()} is in the source's own coordinates: true once a
	 * connection has reported its binlog file. Until then the delivered position is the one the
	 * reader was started at, whose file may be another server's after a resume by GTID.
	 */
	public boolean isPositioned() {
		return this.positioned;
	}

	public long reconnects() {
		return this.reconnects.get();
	}

	public long eventsRead() {
		return this.events.get();
	}

	public String lastError() {
		return this.lastError;
	}

	/** Returns the source timestamp (epoch millis) of the newest event read, or 0. */
	public long lastEventTimestamp() {
		return this.lastEventTimestamp;
	}

	private void readUntilStopped() {
		long backoff = 200;
		while (this.running) {
			rewindIfAsked();
			long connectedAt = System.nanoTime();
			try {
				BinaryLogClient next = newClient(this.delivered);
				this.client = next;
				next.connect();
				if (this.running) {
					this.lastError = "Connection to " + this.settings.host() + ":" + this.settings.port() + " closed";
				}
			}
			catch (IOException | RuntimeException ex) {
				this.lastError = ex.getClass().getSimpleName() + ": " + ex.getMessage();
				logger.warn("Binlog connection to {} failed: {}", this.settings, ex.getMessage());
			}
			finally {
				this.connected = false;
			}
			if (!this.running) {
				break;
			}
			if (this.pendingRewind != null) {
				continue;
			}
			if (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - connectedAt) > 60_000) {
				backoff = 200;
			}
			this.reconnects.incrementAndGet();
			logger.info("Reconnecting to {} from {} in {} ms", this.settings, this.delivered, backoff);
			synchronized (this) {
				try {
					if (this.running && this.pendingRewind == null) {
						wait(backoff);
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
			backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
		}
	}

	private BinaryLogClient newClient(Position from) {
		BinaryLogClient next = new BinaryLogClient(this.settings.host(), this.settings.port(), this.settings.username(),
				this.settings.password());
		next.setServerId(this.settings.serverId());
		next.setBinlogFilename(from.file());
		next.setBinlogPosition(from.offset());
		if (GtidTracker.resumesByGtid(from.gtids()) && !this.gtidsAbandoned) {
			// MySQL auto-positioning: the server sends every transaction not in the set, which
			// survives a failover to another server of the same topology.
			next.setGtidSet(from.gtids());
		}
		next.setKeepAlive(false);
		SourceTls.configure(next, this.settings);
		next.setConnectTimeout(this.settings.connectTimeout().toMillis());
		next.setHeartbeatInterval(this.settings.heartbeatInterval().toMillis());
		next.setEventDeserializer(eventDeserializer());
		next.registerEventListener(this::onEvent);
		next.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {

			@Override
			public void onConnect(BinaryLogClient c) {
				BinlogChangeSource.this.connected = true;
				logger.info("Reading the binlog of {} from {}", BinlogChangeSource.this.settings, from);
			}

			@Override
			public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
				abandonConnection("Could not decode a binlog event: " + ex.getMessage());
			}

		});
		this.currentFile = from.file();
		this.inTransaction = false;
		this.inXaTransaction = false;
		this.gtids = this.gtidsAbandoned ? null : GtidTracker.startingAt(from.gtids());
		this.poisoned = false;
		this.checkedMaps.clear();
		return next;
	}

	private EventDeserializer eventDeserializer() {
		Map<EventType, com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer> deserializers = new java.util.IdentityHashMap<>();
		EventDeserializer stock = new EventDeserializer();
		for (EventType type : EventType.values()) {
			deserializers.put(type, stock.getEventDataDeserializer(type));
		}
		TableMapEventDataDeserializer tableMap = new TableMapEventDataDeserializer();
		deserializers.put(EventType.TABLE_MAP, (in) -> {
			TableMapEventData data = tableMap.deserialize(in);
			this.tableMaps.put(data.getTableId(), data);
			return data;
		});
		java.util.function.LongPredicate subscribed = (tableId) -> {
			TableMapEventData map = this.tableMaps.get(tableId);
			if (map == null) {
				return false;
			}
			TableId table = new TableId(map.getDatabase(), map.getTable());
			return this.layouts.containsKey(table) && !skips(table);
		};
		for (boolean extra : new boolean[] { false, true }) {
			deserializers.put(extra ? EventType.EXT_WRITE_ROWS : EventType.WRITE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.WRITE, extra, this.tableMaps, subscribed));
			deserializers.put(extra ? EventType.EXT_UPDATE_ROWS : EventType.UPDATE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.UPDATE, extra, this.tableMaps, subscribed));
			deserializers.put(extra ? EventType.EXT_DELETE_ROWS : EventType.DELETE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.DELETE, extra, this.tableMaps, subscribed));
		}
		return new EventDeserializer(new TypedHeaderDeserializer(), new NullEventDataDeserializer(), deserializers,
				this.tableMaps);
	}

	private void onEvent(Event event) {
		if (this.poisoned) {
			return;
		}
		if (this.pendingRewind != null) {
			// Leave this connection; the event is read again after the rewind.
			this.poisoned = true;
			disconnect();
			return;
		}
		try {
			handle(event);
		}
		catch (RuntimeException ex) {
			// The client would log and skip a failing listener; reread from the boundary instead.
			logger.error("Failed to handle binlog event {}", event.getHeader(), ex);
			abandonConnection("Failed to handle a binlog event: " + ex);
		}
	}

	private void handle(Event event) {
		this.events.incrementAndGet();
		EventHeaderV4 header = event.getHeader();
		if (header.getTimestamp() > 0) {
			this.lastEventTimestamp = header.getTimestamp();
		}
		EventData data = event.getData();
		if (header instanceof TypedHeaderDeserializer.Header typed && typed.unnamed()) {
			onUnknownEvent(typed);
			return;
		}
		switch (header.getEventType()) {
			case ROTATE -> {
				RotateEventData rotate = (RotateEventData) data;
				this.currentFile = rotate.getBinlogFilename();
				this.positioned = true;
				if (!this.inTransaction) {
					this.delivered = Position.of(rotate.getBinlogFilename(), rotate.getBinlogPosition(),
							(this.gtids != null) ? this.gtids.current() : null);
				}
			}
			case MARIADB_GTID -> {
				this.inTransaction = (((MariadbGtidEventData) data).getFlags() & 1) == 0;
				if (this.gtids != null) {
					this.gtids.begin(data);
				}
			}
			case GTID -> {
				if (this.gtids != null) {
					this.gtids.begin(data);
				}
			}
			case QUERY -> onQuery((QueryEventData) data, header);
			case XID -> endTransaction(header);
			case XA_PREPARE -> {
				this.inXaTransaction = false;
				endTransaction(header);
			}
			case WRITE_ROWS, EXT_WRITE_ROWS, UPDATE_ROWS, EXT_UPDATE_ROWS, DELETE_ROWS, EXT_DELETE_ROWS -> {
				this.inTransaction = true;
				onRows((DecodedRows) data);
			}
			default -> {
			}
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
			onSchemaStatement(SchemaStatement.parse(sql, query.getDatabase()), sql);
			endTransaction(header);
		}
	}

	private void onSchemaStatement(SchemaStatement statement, String sql) {
		if (statement == null) {
			return;
		}
		for (TableId table : statement.tables()) {
			TableLayout layout = this.layouts.get(table);
			if (layout == null || skips(table)) {
				continue;
			}
			switch (statement.kind()) {
				case ALTER -> {
					try {
						this.layouts.put(table, this.handler.onAlter(table, layout, sql));
					}
					catch (RuntimeException ex) {
						failTable(table, ex.getMessage());
					}
				}
				case TRUNCATE -> {
					try {
						this.handler.onTruncate(table);
					}
					catch (RuntimeException ex) {
						failTable(table, ex.getMessage());
					}
				}
				case RENAME, DROP -> failTable(table, "Table " + table + " was " + ((statement.kind() == SchemaStatement.Kind.DROP)
						? "dropped" : "renamed") + " on the source (" + abbreviate(sql) + "); Tributary stopped following it. "
						+ "Remove it from cdc.tables, or point cdc.tables at its new name and delete its row from the "
						+ "checkpoint table so it is snapshotted again");
			}
		}
	}

	private static String abbreviate(String sql) {
		return (sql.length() <= 120) ? sql : sql.substring(0, 117) + "...";
	}

	private void endTransaction(EventHeaderV4 header) {
		this.inTransaction = false;
		String executed = null;
		if (this.gtids != null) {
			this.gtids.commit();
			executed = this.gtids.current();
		}
		this.delivered = Position.of(this.currentFile, header.getNextPosition(), executed);
	}

	private void onRows(DecodedRows rows) {
		TableMapEventData map = this.tableMaps.get(rows.tableId());
		if (map == null) {
			return;
		}
		TableId table = new TableId(map.getDatabase(), map.getTable());
		TableLayout layout = this.layouts.get(table);
		if (layout == null || skips(table)) {
			return;
		}
		if (rows.error() != null || !rows.decoded()) {
			failTable(table, "Could not decode a row event of " + table + ": "
					+ ((rows.error() != null) ? rows.error() : "the table was subscribed mid-event"));
			return;
		}
		if (this.inXaTransaction) {
			failTable(table, "An XA transaction changed " + table + "; Tributary does not follow XA transactions, "
					+ "whose rows are logged before the outcome is known. Stop using XA on this table, then delete its "
					+ "row from the checkpoint table and restart to snapshot it again");
			return;
		}
		if (this.checkedMaps.get(rows.tableId()) != map) {
			String mismatch = TableMapCheck.mismatch(map, layout);
			if (mismatch != null || rows.columnCount() != layout.columns().size()) {
				failTable(table, "Row images of " + table + " no longer match its layout: "
						+ ((mismatch != null) ? mismatch : "they carry " + rows.columnCount() + " columns")
						+ ". The table changed on the source in a way Tributary could not follow in the stream; "
						+ "delete its row from the checkpoint table and restart to snapshot it again");
				return;
			}
			this.checkedMaps.put(rows.tableId(), map);
		}
		Position resumeFrom = this.delivered;
		if (!rows.after().isEmpty() && !rows.before().isEmpty()) {
			for (int i = 0; i < rows.after().size(); i++) {
				Object[] before = canonical(rows.before().get(i), layout);
				Object[] after = canonical(rows.after().get(i), layout);
				Object[] oldKey = layout.keyOf(before);
				Object[] newKey = layout.keyOf(after);
				if (!java.util.Arrays.deepEquals(oldKey, newKey)) {
					this.handler.onChange(new RowChange(table, oldKey, null), resumeFrom);
				}
				this.handler.onChange(new RowChange(table, newKey, after), resumeFrom);
			}
		}
		else if (!rows.after().isEmpty()) {
			for (Serializable[] raw : rows.after()) {
				Object[] image = canonical(raw, layout);
				this.handler.onChange(new RowChange(table, layout.keyOf(image), image), resumeFrom);
			}
		}
		else {
			for (Serializable[] raw : rows.before()) {
				this.handler.onChange(new RowChange(table, layout.keyOf(canonical(raw, layout)), null), resumeFrom);
			}
		}
	}

	private static Object[] canonical(Serializable[] raw, TableLayout layout) {
		Object[] image = new Object[raw.length];
		for (int i = 0; i < raw.length; i++) {
			Column column = layout.columns().get(i);
			image[i] = Values.fromBinlog(raw[i], column);
		}
		return image;
	}

	private void failTable(TableId table, String message) {
		this.layouts.remove(table);
		logger.error(message);
		this.handler.onTableFailed(table, new IllegalStateException(message));
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
				this.gtids = null;
				this.gtidsAbandoned = true;
			}
			case REFUSE -> abandonConnection("The source wrote a binlog event of type " + code + " at "
					+ this.currentFile + ":" + header.getPosition() + ", which this reader cannot decode. Skipping it "
					+ "could lose changes, so reading stops here; the source's server version is newer than "
					+ "Tributary supports, or the event comes from a plugin");
		}
	}

	private void abandonConnection(String reason) {
		this.poisoned = true;
		this.lastError = reason;
		disconnect();
	}

	private void disconnect() {
		BinaryLogClient current = this.client;
		if (current != null) {
			try {
				current.disconnect();
			}
			catch (IOException ex) {
				logger.debug("Disconnect failed", ex);
			}
		}
	}

	/** A rewind asked for: where to read again from, and for which tables. */
	private record Rewind(Position from, List<TableLayout> tables) {

	}

	/** Stops reading and waits for the reader thread to end. */
	@Override
	public void close() {
		Thread thread;
		synchronized (this) {
			this.running = false;
			notifyAll();
			thread = this.reader;
		}
		BinaryLogClient current = this.client;
		if (current != null) {
			try {
				current.disconnect();
			}
			catch (IOException ex) {
				logger.debug("Disconnect failed", ex);
			}
		}
		if (thread != null && thread != Thread.currentThread()) {
			try {
				thread.join(10_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
