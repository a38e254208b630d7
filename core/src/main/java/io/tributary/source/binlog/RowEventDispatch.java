package io.tributary.source.binlog;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.SchemaException;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;
import io.tributary.source.ChangeHandler;
import io.tributary.source.Position;
import io.tributary.source.RowChange;

/**
 * Hands the row events and schema statements of subscribed tables to the {@link ChangeHandler}:
 * row images become canonical values checked against the table's layout, and a table whose
 * events can no longer be followed is stopped, never the stream. Layouts may be changed from any
 * thread; everything else runs on the reader thread.
 */
final class RowEventDispatch {

	private static final Logger logger = LoggerFactory.getLogger(RowEventDispatch.class);

	private final ChangeHandler handler;

	/** How messages name the settings they point to. */

	/** What was read, for the status. */
	private final ReadCounters counters = new ReadCounters();

	private final Map<TableId, TableLayout> layouts = new ConcurrentHashMap<>();

	/**
	 * Moves on every change of {@link #layouts} or {@link #skipUntil}, after it is made: a
	 * {@link ResolvedTable} of the current generation still tells the truth.
	 */
	private volatile int generation;

	/** What the last table id resolved to. Reader thread only. */
	private ResolvedTable last;

	/** Table id to table map, bounded like the server's own cache. */
	private final Map<Long, TableMapEventData> tableMaps = new LinkedHashMap<>(256, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<Long, TableMapEventData> eldest) {
			return size() > 10_000;
		}

	};

	/** The table map each table's layout was last checked against, by table id. */
	private final Map<Long, TableMapEventData> checkedMaps = new HashMap<>();

	/**
	 * Tables that skip a replay: each was handed every change before its position already, so row
	 * events and statements before it are neither decoded nor handed again.
	 */
	private final Map<TableId, Position> skipUntil = new ConcurrentHashMap<>();

	/** Where the reader stands: the last boundary it delivered. */
	private Supplier<Position> boundary = () -> null;

	/** The timestamp (epoch millis) of the event being handled, which its changes carry. */
	private LongSupplier eventTime = () -> 0;

	RowEventDispatch(ChangeHandler handler) {
		this.handler = handler;
	}

	void subscribe(TableLayout layout) {
		this.layouts.put(layout.table(), layout);
		changed();
	}

	void unsubscribe(TableId table) {
		this.layouts.remove(table);
		this.skipUntil.remove(table);
		changed();
	}

	/** Marks every resolution made before as stale; called after each change of the subscriptions. */
	private synchronized void changed() {
		this.generation++;
	}

	/** Tells the dispatch where the reader stands, to know when a replay is over for a table. */
	void readingAt(Supplier<Position> delivered) {
		this.boundary = delivered;
	}

	/** Tells the dispatch where to read the timestamp of the event being handled. */
	void timedBy(LongSupplier eventMillis) {
		this.eventTime = eventMillis;
	}

	/**
	 * Prepares a replay: the tables subscribed now skip everything before {@code until}, which they
	 * were handed already, and {@code replayed} are subscribed and take everything.
	 */
	void replay(Position until, Collection<TableLayout> replayed) {
		for (TableId table : this.layouts.keySet()) {
			this.skipUntil.merge(table, until, (a, b) -> (a.compareTo(b) >= 0) ? a : b);
		}
		for (TableLayout layout : replayed) {
			this.layouts.put(layout.table(), layout);
			this.skipUntil.remove(layout.table());
		}
		changed();
	}

	/** Returns whether the reader replays changes the table was handed already. */
	private boolean skips(TableId table) {
		Position until = this.skipUntil.get(table);
		if (until == null) {
			return false;
		}
		Position at = this.boundary.get();
		if (at != null && at.compareTo(until) < 0) {
			return true;
		}
		this.skipUntil.remove(table, until);
		changed();
		return false;
	}

	ReadCounters counters() {
		return this.counters;
	}

	/** The table maps read so far, shared with the deserializer that fills it. */
	Map<Long, TableMapEventData> tableMaps() {
		return this.tableMaps;
	}

	/**
	 * Resolves a rows event's table id: its map, its table, and whether and how the table's rows are
	 * wanted. Called by the decoder on the reader thread once per rows event; the table map reader
	 * gives back the same map object while a table's map repeats, so the last answer serves again
	 * while the map and the generation are the same.
	 * @return what the id stands for, or {@code null} when no table map named it
	 */
	ResolvedTable resolve(long tableId) {
		TableMapEventData map = this.tableMaps.get(tableId);
		if (map == null) {
			return null;
		}
		int now = this.generation;
		ResolvedTable before = this.last;
		if (before != null && before.map() == map) {
			if (before.lasting() && before.generation() == now) {
				return before;
			}
		}
		else {
			before = null;
		}
		TableId table = (before != null) ? before.table() : new TableId(map.getDatabase(), map.getTable());
		TableLayout layout = this.layouts.get(table);
		ResolvedTable resolved;
		if (layout == null) {
			resolved = new ResolvedTable(now, map, table, null, null, null, true);
		}
		else if (skips(table)) {
			resolved = new ResolvedTable(now, map, table, null, null, null, false);
		}
		else {
			boolean[] mask = (before != null && before.layout() == layout) ? before.keyMask() : keyMask(layout);
			resolved = new ResolvedTable(now, map, table, layout, mask, this.counters.counts(table), true);
		}
		this.last = resolved;
		return resolved;
	}

	private static boolean[] keyMask(TableLayout layout) {
		boolean[] mask = new boolean[layout.columns().size()];
		for (int column : layout.keyColumns()) {
			mask[column] = true;
		}
		return mask;
	}

	/** Forgets which table maps were checked: a new connection checks each table again. */
	void newConnection() {
		this.checkedMaps.clear();
	}

	/**
	 * Hands the changes of one row event to the handler.
	 * @param resumeFrom the last boundary delivered before the event
	 * @param inXaTransaction whether the event belongs to an XA transaction
	 */
	void onRows(DecodedRows rows, Position resumeFrom, boolean inXaTransaction) {
		ResolvedTable resolved = rows.resolved();
		if (resolved == null || resolved.generation() != this.generation) {
			// A subscription changed since the event was decoded: ask again.
			resolved = resolve(rows.tableId());
		}
		if (resolved == null || !resolved.wanted()) {
			return;
		}
		TableMapEventData map = resolved.map();
		TableId table = resolved.table();
		TableLayout layout = resolved.layout();
		if (rows.error() != null) {
			this.counters.decodeError();
			failTable(table, "Could not decode a row event of " + table + ": " + rows.error());
			return;
		}
		if (!rows.decoded()) {
			// Read before the table was subscribed, as if handed over just before: its copy, which
			// starts after the subscription, reads what the event wrote.
			return;
		}
		if (inXaTransaction) {
			failTable(table, "An XA transaction changed " + table + "; Tributary does not follow XA transactions, "
					+ "whose rows are logged before the outcome is known. Stop using XA on this table, then restart the "
					+ "table (the restart action), which copies it again");
			return;
		}
		if (this.checkedMaps.get(rows.tableId()) != map) {
			String mismatch = TableMapCheck.mismatch(map, layout);
			if (mismatch != null || rows.columnCount() != layout.columns().size()) {
				this.counters.schemaMismatch();
				failTable(table, "Row images of " + table + " no longer match its layout: "
						+ ((mismatch != null) ? mismatch : "they carry " + rows.columnCount() + " columns")
						+ ". The table changed on the source in a way Tributary could not follow in the stream; "
						+ "restart the table (the restart action), which copies it again");
				return;
			}
			this.checkedMaps.put(rows.tableId(), map);
		}
		long at = this.eventTime.getAsLong();
		if (!rows.after().isEmpty() && !rows.before().isEmpty()) {
			resolved.counts().addAndGet(ReadCounters.UPDATE, rows.after().size());
			for (int i = 0; i < rows.after().size(); i++) {
				Object[] oldKey = keyOf(rows.before().get(i), layout);
				Object[] after = canonical(rows.after().get(i), layout);
				Object[] newKey = layout.keyOf(after);
				if (!Arrays.deepEquals(oldKey, newKey)) {
					this.handler.onChange(new RowChange(table, oldKey, null, at), resumeFrom);
				}
				this.handler.onChange(new RowChange(table, newKey, after, at), resumeFrom);
			}
		}
		else if (!rows.after().isEmpty()) {
			resolved.counts().addAndGet(ReadCounters.INSERT, rows.after().size());
			for (Serializable[] raw : rows.after()) {
				Object[] image = canonical(raw, layout);
				this.handler.onChange(new RowChange(table, layout.keyOf(image), image, at), resumeFrom);
			}
		}
		else {
			resolved.counts().addAndGet(ReadCounters.DELETE, rows.before().size());
			for (Serializable[] raw : rows.before()) {
				this.handler.onChange(new RowChange(table, keyOf(raw, layout), null, at), resumeFrom);
			}
		}
	}

	/**
	 * Follows an ALTER, TRUNCATE, RENAME or DROP of a subscribed table at its place in the stream,
	 * and tells of tables that appear under a name not subscribed.
	 */
	void onSchemaStatement(SchemaStatement statement, String sql) {
		if (statement == null) {
			return;
		}
		List<TableId> tables = statement.tables();
		boolean[] followed = new boolean[tables.size()];
		if (statement.kind() == SchemaStatement.Kind.RENAME) {
			// Before anyone hears of the new names: a table followed under one is no new table.
			for (int i = 0; i + 1 < tables.size(); i += 2) {
				TableLayout layout = this.layouts.get(tables.get(i));
				followed[i] = layout != null && !skips(tables.get(i)) && followed(tables.get(i), tables.get(i + 1), layout, sql);
				followed[i + 1] = followed[i];
			}
		}
		for (int i = 0; i < tables.size(); i++) {
			boolean appears = statement.kind() == SchemaStatement.Kind.CREATE
					|| statement.kind() == SchemaStatement.Kind.REPLACE
					|| (statement.kind() == SchemaStatement.Kind.RENAME && i % 2 == 1);
			if (appears && !followed[i] && !this.layouts.containsKey(tables.get(i))) {
				this.handler.onTableAppeared(tables.get(i));
			}
		}
		for (int i = 0; i < tables.size(); i++) {
			TableId table = tables.get(i);
			TableLayout layout = this.layouts.get(table);
			if (followed[i] || layout == null || skips(table)) {
				continue;
			}
			switch (statement.kind()) {
				case ALTER -> {
					try {
						this.layouts.put(table, this.handler.onAlter(table, layout, sql));
						changed();
					}
					catch (RuntimeException ex) {
						if (ex instanceof SchemaException) {
							this.counters.schemaMismatch();
						}
						failTable(table, ex.getMessage());
					}
				}
				case TRUNCATE -> {
					this.counters.rows(table, ReadCounters.TRUNCATE, 1);
					try {
						this.handler.onTruncate(table);
					}
					catch (RuntimeException ex) {
						failTable(table, ex.getMessage());
					}
				}
				case CREATE -> {
					// CREATE TABLE IF NOT EXISTS of a table that exists, logged all the same: nothing changed.
				}
				case REPLACE -> {
					// Its rows are gone, as after a DROP.
					this.counters.schemaMismatch();
					failTable(table, "Table " + table + " was replaced on the source (" + abbreviate(sql) + "); "
							+ "Tributary stopped following it. Restart the table to copy it again");
				}
				case RENAME, DROP -> {
					String verb = (statement.kind() == SchemaStatement.Kind.DROP) ? "dropped" : "renamed";
					this.layouts.remove(table);
					changed();
					String what = "Table " + table + " was " + verb + " on the source (" + abbreviate(sql) + "); its "
							+ "target and checkpoint are kept";
					logger.warn(what);
					this.handler.onTableDropped(table, what);
				}
			}
		}
	}

	/** Follows a subscribed table renamed to {@code to} when the handler takes it under that name. */
	private boolean followed(TableId from, TableId to, TableLayout layout, String sql) {
		TableLayout renamed;
		try {
			renamed = this.handler.onTableRenamed(from, to, layout, abbreviate(sql));
		}
		catch (RuntimeException ex) {
			logger.warn("Table {} was renamed to {} on the source and cannot be followed: {}", from, to, ex.getMessage());
			return false;
		}
		if (renamed == null) {
			return false;
		}
		this.layouts.remove(from);
		this.layouts.put(to, renamed);
		changed();
		return true;
	}

	private static String abbreviate(String sql) {
		return (sql.length() <= 120) ? sql : sql.substring(0, 117) + "...";
	}

	private static Object[] canonical(Serializable[] raw, TableLayout layout) {
		Object[] image = new Object[raw.length];
		for (int i = 0; i < raw.length; i++) {
			Column column = layout.columns().get(i);
			image[i] = Values.fromBinlog(raw[i], column);
		}
		return image;
	}

	/**
	 * The key of a raw image, only its columns converted: of a before-image nothing but the key is
	 * used, and converting the other columns (decoding every text value) was wasted on the reader
	 * thread.
	 */
	private static Object[] keyOf(Serializable[] raw, TableLayout layout) {
		int[] columns = layout.keyColumns();
		Object[] key = new Object[columns.length];
		for (int i = 0; i < columns.length; i++) {
			key[i] = Values.fromBinlog(raw[columns[i]], layout.columns().get(columns[i]));
		}
		return key;
	}

	private void failTable(TableId table, String message) {
		this.layouts.remove(table);
		changed();
		logger.error(message);
		this.handler.onTableFailed(table, new IllegalStateException(message));
	}

}
