package io.tributary.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.tributary.name.TableId;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.settings.SettingNames;
import io.tributary.source.ChangeHandler;
import io.tributary.source.Position;
import io.tributary.source.RowChange;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.subscription.BufferBudget;
import io.tributary.subscription.BufferedSubscription;
import io.tributary.subscription.Watermarks;

/**
 * Tributary's source as a pipeline runs it, minus the target: the binlog reader decodes the row
 * events of the subscribed table, routes each change by table to its buffer and adds it there;
 * a drain thread empties the buffer at the pipeline's flush interval, or sooner when the buffer
 * asks for a flush, and throws the drained changes away. Nothing is applied.
 *
 * <p>Subscribed ({@code tributary}), the measured table is subscribed and the round ends at its
 * last change. Unsubscribed ({@code tributary-unsubscribed}), another table is subscribed, every row
 * event of the measured table is skipped undecoded, and the round ends when the delivered position
 * reaches the end of the stretch.
 *
 * <p>The connection is the one a pipeline makes, with TLS off and positions by file and offset
 * (not GTID), the same kind of connection as the raw read's.
 */
final class TributaryBacklogReader implements ReaderMain.BacklogReader {

	private final ReaderMain.Args args;

	private final boolean subscribed;

	private final TableLayout layout;

	private final PipelineSettings defaults;

	TributaryBacklogReader(ReaderMain.Args args) throws Exception {
		this.args = args;
		this.subscribed = args.text("reader").equals("tributary");
		TableId table = new TableId(args.text("schema"), this.subscribed ? args.text("table") : args.text("other"));
		String url = "jdbc:mysql://" + args.text("host") + ":" + args.text("port") + "/?useSSL=false"
				+ "&allowPublicKeyRetrieval=true";
		try (Connection connection = DriverManager.getConnection(url, args.text("user"), args.text("password"))) {
			this.layout = LayoutReader.read(connection, table);
		}
		this.defaults = PipelineSettings.of(settings(1),
				List.of(new TableMapping(table, new TableId(table.schema() + "_target", table.table()))),
				new TableId("bench_meta", "checkpoints"));
	}

	private SourceSettings settings(int round) {
		return new SourceSettings(this.args.text("host"), Integer.parseInt(this.args.text("port")),
				this.args.text("user"), this.args.text("password"), Long.parseLong(this.args.text("serverId")) + round,
				null, null, SslMode.DISABLED, null, false);
	}

	@Override
	public ReaderMain.Round read(int round) throws Exception {
		Position from = this.args.position("from");
		Position to = this.args.position("to");
		long expected = this.subscribed ? this.args.number("changes") : 0;
		Drainer drainer = new Drainer(this.defaults.flushInterval().toNanos());
		// With the pipeline's budget, as a pipeline's buffers have: its count is on the add path.
		BufferedSubscription buffer = new BufferedSubscription(this.layout, this.defaults.bufferSoftLimitBytes(),
				this.defaults.flushMaxChanges(), drainer::wake, new BufferBudget(this.defaults.bufferBudgetBytes()));
		Map<TableId, BufferedSubscription> buffers = new ConcurrentHashMap<>(Map.of(this.layout.table(), buffer));
		AtomicLong changes = new AtomicLong();
		long[] firstAt = { 0 };
		CountDownLatch done = new CountDownLatch(1);
		long[] doneAt = { 0 };
		ChangeHandler handler = new ChangeHandler() {

			@Override
			public void onChange(RowChange change, Position resumeFrom) {
				BufferedSubscription target = buffers.get(change.table());
				if (target != null) {
					target.add(change, resumeFrom);
				}
				long seen = changes.incrementAndGet();
				if (seen == 1) {
					firstAt[0] = System.nanoTime();
				}
				if (seen == expected) {
					doneAt[0] = System.nanoTime();
					done.countDown();
				}
			}

			@Override
			public TableLayout onAlter(TableId table, TableLayout current, String statement) {
				return current;
			}

			@Override
			public void onTruncate(TableId table) {
				buffers.get(table).clear();
			}

			@Override
			public void onTableFailed(TableId table, RuntimeException error) {
				throw error;
			}

		};
		drainer.start(buffer);
		long started = System.nanoTime();
		long deadline = started + TimeUnit.MINUTES.toNanos(30);
		try (BinlogChangeSource source = new BinlogChangeSource(settings(round), SettingNames.ENGINE, handler)) {
			source.subscribe(this.layout);
			source.start(from);
			if (this.subscribed) {
				while (!done.await(100, TimeUnit.MILLISECONDS)) {
					failIfStuck(source, deadline);
				}
			}
			else {
				while (source.delivered().compareTo(to) < 0) {
					failIfStuck(source, deadline);
					Thread.sleep(1);
				}
				doneAt[0] = System.nanoTime();
			}
			double seconds = (doneAt[0] - started) / 1e9;
			double first = (firstAt[0] > 0) ? (firstAt[0] - started) / 1e9 : Double.NaN;
			return new ReaderMain.Round(seconds, first, changes.get(), source.eventsRead(), 0);
		}
		finally {
			drainer.stop();
			buffer.close();
		}
	}

	private static void failIfStuck(BinlogChangeSource source, long deadline) {
		if (System.nanoTime() > deadline) {
			throw new IllegalStateException("The stretch was not read within 30 minutes; at " + source.delivered()
					+ ", last error " + source.lastError());
		}
		if (source.decodeErrors() > 0 || source.schemaMismatches() > 0) {
			throw new IllegalStateException("The source failed to decode: " + source.lastError());
		}
	}

	/**
	 * Empties the buffer at the flush interval, or at once when the buffer asks for a flush, as the
	 * catch-up loop does, and discards what it takes out.
	 */
	private static final class Drainer implements Runnable {

		private final long intervalNanos;

		private final Thread thread;

		private volatile BufferedSubscription buffer;

		private volatile boolean running = true;

		Drainer(long intervalNanos) {
			this.intervalNanos = intervalNanos;
			this.thread = new Thread(this, "bench-drain");
			this.thread.setDaemon(true);
		}

		void start(BufferedSubscription drained) {
			this.buffer = drained;
			this.thread.start();
		}

		/** Called by the buffer under its lock: must not block. */
		void wake() {
			LockSupport.unpark(this.thread);
		}

		@Override
		public void run() {
			while (this.running) {
				// Nothing is applied, so the drain ends at once; until settled it holds its room.
				this.buffer.settle(this.buffer.drain(() -> Watermarks.NONE));
				LockSupport.parkNanos(this.intervalNanos);
			}
		}

		void stop() throws InterruptedException {
			this.running = false;
			wake();
			this.thread.join(10_000);
		}

	}

}
