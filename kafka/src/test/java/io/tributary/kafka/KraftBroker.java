package io.tributary.kafka;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.record.FileRecords;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * One Kafka broker in KRaft mode (broker and controller in one node) inside the test JVM, bound to
 * 127.0.0.1 on ports and a log directory of its own. {@link #stop()} and {@link #start()} restart
 * it on the same ports and directory, so the topics and their records survive, as a real broker's
 * restart would. Auto-creation of topics is off, so that a missing topic shows. Public for the
 * benchmark's kafka scenario, which gets it through this module's test jar.
 */
public final class KraftBroker implements AutoCloseable {

	private final Path logDir;

	private final int port;

	private final int controllerPort;

	private final Map<String, String> overrides;

	private KafkaRaftServer server;

	private KraftBroker(Map<String, String> overrides) throws IOException {
		this.overrides = Map.copyOf(overrides);
		this.logDir = Files.createTempDirectory("tributary-kafka-");
		this.port = freePort();
		this.controllerPort = freePort();
	}

	/** Formats a new log directory and starts the broker on it. */
	public static KraftBroker start() throws Exception {
		return start(Map.of());
	}

	/**
	 * Formats a new log directory and starts the broker on it with some broker settings of the
	 * caller's over the tests' ones.
	 * @param overrides broker properties, for example {@code log.flush.interval.messages}
	 */
	public static KraftBroker start(Map<String, String> overrides) throws Exception {
		KraftBroker broker = new KraftBroker(overrides);
		new Formatter().setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
			.setNodeId(1)
			.setClusterId(Uuid.randomUuid().toString())
			.setDirectories(List.of(broker.logDir.toString()))
			.setMetadataLogDirectory(broker.logDir.toString())
			.setControllerListenerName("CONTROLLER")
			.setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
			.run();
		broker.startServer();
		return broker;
	}

	/** Returns the bootstrap servers of the broker, {@code 127.0.0.1:<port>}. */
	public String bootstrapServers() {
		return "127.0.0.1:" + this.port;
	}

	/** Starts the broker again on the same ports and log directory. */
	public synchronized void restart() {
		startServer();
	}

	/** Stops the broker and waits until it has, leaving its log directory in place. */
	public synchronized void stop() {
		if (this.server != null) {
			this.server.shutdown();
			this.server.awaitShutdown();
			this.server = null;
		}
	}

	/**
	 * Reads a stopped broker's log of a topic from disk: every record of every partition, in offset
	 * order within each partition, as key and value ({@code null} for a tombstone).
	 */
	List<Map.Entry<String, String>> recordsOnDisk(String topic) throws IOException {
		if (this.server != null) {
			throw new IllegalStateException("Read the log only while the broker is stopped");
		}
		List<Map.Entry<String, String>> records = new ArrayList<>();
		try (Stream<Path> partitions = Files.list(this.logDir)) {
			for (Path partition : partitions.filter((p) -> p.getFileName().toString().startsWith(topic + "-"))
				.toList()) {
				try (Stream<Path> segments = Files.list(partition)) {
					for (Path segment : segments.filter((p) -> p.toString().endsWith(".log")).sorted().toList()) {
						try (FileRecords file = FileRecords.open(segment.toFile())) {
							for (RecordBatch batch : file.batches()) {
								for (Record record : batch) {
									records.add(new AbstractMap.SimpleEntry<>(text(record.key()),
											record.hasValue() ? text(record.value()) : null));
								}
							}
						}
					}
				}
			}
		}
		return records;
	}

	@Override
	public synchronized void close() {
		stop();
		try (Stream<Path> files = Files.walk(this.logDir)) {
			files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private synchronized void startServer() {
		Map<String, Object> config = new LinkedHashMap<>();
		config.put("process.roles", "broker,controller");
		config.put("node.id", "1");
		config.put("controller.quorum.voters", "1@127.0.0.1:" + this.controllerPort);
		config.put("listeners", "PLAINTEXT://127.0.0.1:" + this.port + ",CONTROLLER://127.0.0.1:" + this.controllerPort);
		config.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + this.port);
		config.put("controller.listener.names", "CONTROLLER");
		config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
		config.put("inter.broker.listener.name", "PLAINTEXT");
		config.put("log.dirs", this.logDir.toString());
		config.put("auto.create.topics.enable", "false");
		config.put("num.partitions", "1");
		config.put("offsets.topic.replication.factor", "1");
		config.put("offsets.topic.num.partitions", "1");
		config.put("transaction.state.log.replication.factor", "1");
		config.put("transaction.state.log.min.isr", "1");
		config.put("group.initial.rebalance.delay.ms", "0");
		config.put("controlled.shutdown.enable", "true");
		config.put("log.flush.interval.messages", "1");
		config.putAll(this.overrides);
		this.server = new KafkaRaftServer(new KafkaConfig(new HashMap<>(config), false), Time.SYSTEM);
		this.server.startup();
	}

	private static String text(ByteBuffer buffer) {
		if (buffer == null) {
			return null;
		}
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
