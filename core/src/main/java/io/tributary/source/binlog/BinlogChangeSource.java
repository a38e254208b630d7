package io.tributary.source.binlog;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;
import io.tributary.settings.SettingNames;
import io.tributary.source.ChangeHandler;
import io.tributary.source.Position;
import io.tributary.source.RowChange;
import io.tributary.source.SourceSettings;
import io.tributary.status.TableStatus;

/**
 * Reads one source server's binary log as a replica and turns the row events of subscribed tables
 * into {@link RowChange}s. One instance, and one connection, serves every table of that server.
 *
 * <p>The position it reports as delivered is always a transaction boundary: it moves only after a
 * transaction's commit (XID or COMMIT), after a statement outside any transaction (DDL), or to the
 * position of a heartbeat the server sends between transactions while it has nothing to send, so
 * an idle source still reaches its head. When the connection drops, the reader reconnects with
 * capped exponential backoff and starts again from that boundary, so a transaction cut in half is
 * read again whole; buffering by key absorbs the repeat.
 */
public final class BinlogChangeSource implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(BinlogChangeSource.class);

	private static final long MAX_BACKOFF_MILLIS = 30_000;

	private final SourceSettings settings;

	private final RowEventDispatch rows;

	private final TransactionBoundaries boundaries;

	private final AtomicLong reconnects = new AtomicLong();

	private final AtomicLong events = new AtomicLong();

	private volatile boolean running;

	private volatile boolean connected;

	/** When the reader was last left without a connection; {@code null} while connected. */
	private volatile Instant disconnectedSince;

	private volatile String lastError;

	private volatile long lastEventTimestamp;

	private volatile BinaryLogClient client;

	private Thread reader;

	/** Set when the connection in progress is given up: its remaining events are ignored. */
	private volatile boolean poisoned;

	/** A rewind asked for and not yet carried out by the reader thread. */
	private volatile Rewind pendingRewind;

	private final ChangeHandler handler;

	private final SettingNames names;

	/** Creates a reader whose messages name settings as {@code names} does, such as {@link SettingNames#ENGINE}. */
	public BinlogChangeSource(SourceSettings settings, SettingNames names, ChangeHandler handler) {
		this.settings = settings;
		this.names = names;
		this.handler = handler;
		this.rows = new RowEventDispatch(handler);
		this.boundaries = new TransactionBoundaries(this.rows, this::abandonConnection, settings.gtidPositioning(), names);
		this.boundaries.onCaughtUp(handler::onCaughtUp);
		this.rows.readingAt(this.boundaries::delivered);
		this.rows.timedBy(this::lastEventTimestamp);
	}

	/**
	 * Subscribes a table: from now on its row events are decoded with this layout and handed to
	 * the handler. Row images of other tables are skipped undecoded.
	 */
	public void subscribe(TableLayout layout) {
		this.rows.subscribe(layout);
	}

	/** Stops decoding a table's events. */
	public void unsubscribe(TableId table) {
		this.rows.unsubscribe(table);
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
		// The reader also checks at every event, heartbeats included, should this disconnect come
		// before the connection is up.
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
		Position until = this.boundaries.delivered();
		this.rows.replay(until, rewind.tables());
		// The delivered position goes back before the handler hears of it, so nothing confirms a
		// position the replay has not reached yet.
		this.boundaries.rewindTo(rewind.from());
		logger.info("Reading the binlog of {} again from {} for {} (it was at {})", this.settings, rewind.from(),
				rewind.tables().stream().map(TableLayout::table).toList(), until);
		this.handler.onRewind(until);
	}

	/**
	 * Starts reading at a transaction boundary, on a thread of its own.
	 * @param from where to start
	 */
	public synchronized void start(Position from) {
		if (this.running) {
			throw new IllegalStateException("Binlog reader for " + this.settings + " is already running");
		}
		this.boundaries.startAt(from);
		this.disconnectedSince = Instant.now();
		this.running = true;
		this.reader = new Thread(this::readUntilStopped, "tributary-binlog-" + this.settings.host());
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/** Returns the last transaction boundary whose changes have all been handed to the handler. */
	public Position delivered() {
		return this.boundaries.delivered();
	}

	public boolean isConnected() {
		return this.connected;
	}

	/**
	 * Returns since when the reader has been without a connection: since it started, or lost its
	 * last connection, and has not connected again. Failed attempts in between do not move it, so it
	 * tells how long the source has been out of reach.
	 * @return when the reader was left without a connection, or {@code null} while it is connected
	 * or before it starts
	 */
	public Instant disconnectedSince() {
		return this.disconnectedSince;
	}

	/**
	 * Returns whether {@link #delivered()} is in the source's own coordinates: true once a
	 * connection has reported its binlog file. Until then the delivered position is the one the
	 * reader was started at, whose file may be another server's after a resume by GTID.
	 */
	public boolean isPositioned() {
		return this.boundaries.isPositioned();
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

	/** Returns the transactions read since start, each statement outside a transaction counting as one. */
	public long transactions() {
		return this.rows.counters().transactions();
	}

	/** Returns the binlog events, and row events of subscribed tables, that could not be decoded. */
	public long decodeErrors() {
		return this.rows.counters().decodeErrors();
	}

	/**
	 * Returns the schema changes read that stopped a table: row images that no longer fit its
	 * layout, an ALTER the handler could not follow, a RENAME or DROP.
	 */
	public long schemaMismatches() {
		return this.rows.counters().schemaMismatches();
	}

	/** Returns the row changes of a table read since start, by kind. */
	public TableStatus.Events rowEvents(TableId table) {
		return this.rows.counters().events(table);
	}

	/**
	 * Returns whether the reader follows the source by GTID (MySQL auto-positioning, MariaDB GTID
	 * list) rather than by binlog file and offset; false until it has a position.
	 */
	public boolean positionsByGtid() {
		Position at = this.boundaries.delivered();
		return at != null && this.boundaries.resumesByGtid(at);
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
				BinaryLogClient next = newClient(this.boundaries.delivered());
				this.client = next;
				next.connect();
				if (this.running && !this.poisoned) {
					this.lastError = "Connection to " + this.settings.host() + ":" + this.settings.port() + " closed";
				}
			}
			catch (IOException | RuntimeException ex) {
				this.lastError = ex.getClass().getSimpleName() + ": " + ex.getMessage();
				logger.warn("Binlog connection to {} failed: {}", this.settings, ex.getMessage());
			}
			finally {
				this.connected = false;
				if (this.disconnectedSince == null) {
					this.disconnectedSince = Instant.now();
				}
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
			logger.info("Reconnecting to {} from {} in {} ms", this.settings, this.boundaries.delivered(), backoff);
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
		BinaryLogClient next = ConnectionOptions.client(this.settings, this.names, from,
				this.boundaries.resumesByGtid(from), StreamDeserializer.create(this.rows, this.boundaries::readAll));
		next.registerEventListener(this::onEvent);
		next.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {

			@Override
			public void onConnect(BinaryLogClient c) {
				String refusal = BinlogChangeSource.this.boundaries.connectedTo(c.getMasterServerId());
				if (refusal != null) {
					logger.error("{}", refusal);
					abandonConnection(refusal);
					return;
				}
				BinlogChangeSource.this.connected = true;
				BinlogChangeSource.this.disconnectedSince = null;
				logger.info("Reading the binlog of {} from {}{}", BinlogChangeSource.this.settings, from,
						BinlogChangeSource.this.boundaries.resumesByGtid(from) ? " by GTID" : "");
			}

			@Override
			public void onCommunicationFailure(BinaryLogClient c, Exception ex) {
				// Keep the server's own reason, such as a position it cannot serve, past the reconnect.
				if (!BinlogChangeSource.this.poisoned) {
					abandonConnection("The binlog stream of " + BinlogChangeSource.this.settings + " failed: "
							+ ex.getMessage());
				}
			}

			@Override
			public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
				BinlogChangeSource.this.rows.counters().decodeError();
				abandonConnection("Could not decode a binlog event: " + ex.getMessage());
			}

		});
		this.boundaries.connecting(from);
		this.rows.newConnection();
		this.poisoned = false;
		return next;
	}

	private void onEvent(Event event) {
		if (this.poisoned) {
			return;
		}
		if (this.pendingRewind != null || !this.running) {
			// Leave this connection, which a stop or a rewind may have missed while it was being made;
			// after a rewind the event is read again.
			this.poisoned = true;
			disconnect();
			return;
		}
		try {
			this.events.incrementAndGet();
			EventHeaderV4 header = event.getHeader();
			if (header.getTimestamp() > 0) {
				this.lastEventTimestamp = header.getTimestamp();
			}
			this.boundaries.handle(header, event.getData());
		}
		catch (RuntimeException | Error ex) {
			// The client would log and skip a failing listener, and an Error would end its thread
			// while the pipeline still read as running; reread from the boundary instead.
			logger.error("Failed to handle binlog event {}", event.getHeader(), ex);
			abandonConnection("Failed to handle a binlog event: " + ex);
			if (ex instanceof VirtualMachineError && !(ex instanceof StackOverflowError)) {
				throw ex;
			}
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

	/** Stops reading and waits for the reader thread to end. */
	@Override
	public void close() {
		Thread thread;
		synchronized (this) {
			this.running = false;
			notifyAll();
			thread = this.reader;
		}
		disconnect();
		if (thread != null && thread != Thread.currentThread()) {
			try {
				thread.join(10_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** A rewind asked for: where to read again from, and for which tables. */
	private record Rewind(Position from, List<TableLayout> tables) {

	}

}
