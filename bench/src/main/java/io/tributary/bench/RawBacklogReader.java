package io.tributary.bench;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderV4Deserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.network.SSLMode;

import io.tributary.source.Position;

/**
 * The floor of reading a stretch of binlog: the binlog client Tributary uses, on the same kind of
 * connection (TLS off, by file and offset, the same heartbeat and no keep-alive thread), with every
 * event body skipped ({@link NullEventDataDeserializer} for every type; the client itself still
 * reads ROTATE events to follow the file, and decodes every table map whatever the deserializer of
 * its body). Otherwise only the headers are decoded, so the figure is what receiving the bytes
 * costs. The round ends at the first event whose end reaches the end of the stretch.
 */
final class RawBacklogReader implements ReaderMain.BacklogReader {

	private final ReaderMain.Args args;

	RawBacklogReader(ReaderMain.Args args) {
		this.args = args;
	}

	@Override
	public ReaderMain.Round read(int round) throws Exception {
		Position from = this.args.position("from");
		Position to = this.args.position("to");
		BinaryLogClient client = new BinaryLogClient(this.args.text("host"), Integer.parseInt(this.args.text("port")),
				this.args.text("user"), this.args.text("password"));
		client.setServerId(Long.parseLong(this.args.text("serverId")) + round);
		client.setBinlogFilename(from.file());
		client.setBinlogPosition(from.offset());
		client.setKeepAlive(false);
		client.setSSLMode(SSLMode.DISABLED);
		client.setHeartbeatInterval(1000);
		Map<EventType, EventDataDeserializer> skipped = new IdentityHashMap<>();
		NullEventDataDeserializer none = new NullEventDataDeserializer();
		for (EventType type : EventType.values()) {
			skipped.put(type, none);
		}
		// The library decodes every table map into this map whatever the deserializer of their bodies.
		client.setEventDeserializer(
				new EventDeserializer(new EventHeaderV4Deserializer(), none, skipped, new HashMap<>()));
		AtomicLong events = new AtomicLong();
		CountDownLatch done = new CountDownLatch(1);
		long[] doneAt = { 0 };
		EndCheck end = new EndCheck(to);
		client.registerEventListener((event) -> {
			events.incrementAndGet();
			if (done.getCount() == 0 || event.getHeader().getEventType() == EventType.ROTATE) {
				return;
			}
			if (end.reached(client.getBinlogFilename(), ((EventHeaderV4) event.getHeader()).getNextPosition())) {
				doneAt[0] = System.nanoTime();
				done.countDown();
			}
		});
		long started = System.nanoTime();
		client.connect(TimeUnit.SECONDS.toMillis(10));
		try {
			long deadline = started + TimeUnit.MINUTES.toNanos(30);
			while (!done.await(100, TimeUnit.MILLISECONDS)) {
				if (!client.isConnected() || System.nanoTime() > deadline) {
					throw new IllegalStateException("The raw read stopped before " + to + " at "
							+ client.getBinlogFilename() + ":" + client.getBinlogPosition());
				}
			}
		}
		finally {
			client.disconnect();
		}
		return new ReaderMain.Round((doneAt[0] - started) / 1e9, Double.NaN, 0, events.get(), 0);
	}

	/**
	 * Tells whether an event ends at or past the end of the stretch, parsing a binlog file name only
	 * when the client moves to another file, so the check costs next to nothing per event.
	 */
	private static final class EndCheck {

		private final Position to;

		private String file;

		private boolean pastEndFile;

		private boolean inEndFile;

		EndCheck(Position to) {
			this.to = to;
		}

		boolean reached(String currentFile, long nextPosition) {
			if (currentFile != this.file) {
				this.file = currentFile;
				this.inEndFile = currentFile.equals(this.to.file());
				this.pastEndFile = Position.of(currentFile, 0).compareTo(Position.of(this.to.file(), 0)) > 0;
			}
			return nextPosition > 0 && (this.pastEndFile || (this.inEndFile && nextPosition >= this.to.offset()));
		}

	}

}
