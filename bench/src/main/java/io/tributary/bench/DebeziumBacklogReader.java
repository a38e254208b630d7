package io.tributary.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import org.apache.kafka.connect.source.SourceRecord;

import io.tributary.source.Position;

/**
 * The Debezium embedded engine as a user would run it for this backlog, with a consumer that only
 * counts: the MariaDB connector on MariaDB, the MySQL connector on MySQL, records in Kafka Connect
 * form (no serialisation), an in-memory offset store preset to the start of the stretch
 * ({@link PresetOffsetStore}), a file schema history, no snapshot of data, TLS off. Every other
 * setting is the connector's default. A round runs a new engine from its start until the consumer
 * has counted every change of the measured table.
 *
 * <p>A connector that resumes from an offset needs the schema history of the tables up to that
 * offset. The {@code debezium-schema} reader writes it once, before the backlogs: it starts an
 * engine with {@code snapshot.mode=no_data}, which records the schema, and writes marker rows until
 * one reaches the consumer, so the history is complete. Each measured round reads a copy of it.
 */
final class DebeziumBacklogReader implements ReaderMain.BacklogReader {

	private final ReaderMain.Args args;

	private final boolean schemaOnly;

	DebeziumBacklogReader(ReaderMain.Args args) {
		this.args = args;
		this.schemaOnly = args.text("reader").equals("debezium-schema");
	}

	private Properties config(int round, Path history) {
		boolean mariadb = this.args.text("flavor").equals("mariadb");
		String schema = this.args.text("schema");
		Properties props = new Properties();
		props.setProperty("name", "bench");
		props.setProperty("connector.class", mariadb ? "io.debezium.connector.mariadb.MariaDbConnector"
				: "io.debezium.connector.mysql.MySqlConnector");
		props.setProperty("offset.storage", PresetOffsetStore.class.getName());
		props.setProperty("offset.flush.interval.ms", "60000");
		props.setProperty("topic.prefix", "bench");
		props.setProperty("database.hostname", this.args.text("host"));
		props.setProperty("database.port", this.args.text("port"));
		props.setProperty("database.user", this.args.text("user"));
		props.setProperty("database.password", this.args.text("password"));
		props.setProperty("database.server.id", Long.toString(Long.parseLong(this.args.text("serverId")) + round));
		props.setProperty("database.ssl.mode", mariadb ? "disable" : "disabled");
		props.setProperty("database.include.list", schema);
		props.setProperty("table.include.list", schema + "." + this.args.text("table") + "," + schema + ".marker");
		props.setProperty("snapshot.mode", "no_data");
		props.setProperty("include.schema.changes", "false");
		props.setProperty("schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory");
		props.setProperty("schema.history.internal.file.filename", history.toString());
		return props;
	}

	@Override
	public ReaderMain.Round read(int round) throws Exception {
		Path history = Path.of(this.args.text("history"));
		Path copy = history;
		if (this.schemaOnly) {
			PresetOffsetStore.preset(null);
			Files.deleteIfExists(history);
		}
		else {
			Position from = this.args.position("from");
			// Where the server writes GTIDs, both connectors resume by GTID only: the offset must carry them.
			String gtids = this.args.values().getOrDefault("fromGtids", "");
			PresetOffsetStore.preset("{\"file\":\"" + from.file() + "\",\"pos\":" + from.offset()
					+ (gtids.isEmpty() ? "" : ",\"gtids\":\"" + gtids + "\"") + "}");
			copy = history.resolveSibling(history.getFileName() + "-round-" + round);
			Files.copy(history, copy, StandardCopyOption.REPLACE_EXISTING);
		}
		String topic = "bench." + this.args.text("schema") + "."
				+ (this.schemaOnly ? "marker" : this.args.text("table"));
		long expected = this.schemaOnly ? 1 : this.args.number("changes");
		AtomicLong seen = new AtomicLong();
		AtomicLong records = new AtomicLong();
		long[] firstAt = { 0 };
		long[] doneAt = { 0 };
		CountDownLatch done = new CountDownLatch(1);
		AtomicReference<String> failure = new AtomicReference<>();
		DebeziumEngine<RecordChangeEvent<SourceRecord>> engine = DebeziumEngine
			.create(ChangeEventFormat.of(Connect.class))
			.using(config(round, copy))
			.using((success, message, error) -> {
				if (!success || error != null) {
					failure.set(message + ((error != null) ? ": " + error : ""));
				}
				done.countDown();
			})
			.notifying((event) -> {
				records.incrementAndGet();
				if (topic.equals(event.record().topic())) {
					long count = seen.incrementAndGet();
					if (count == 1) {
						firstAt[0] = System.nanoTime();
					}
					if (count == expected) {
						doneAt[0] = System.nanoTime();
						done.countDown();
					}
				}
			})
			.build();
		ExecutorService executor = Executors.newSingleThreadExecutor();
		long started = System.nanoTime();
		executor.execute(engine);
		try {
			long deadline = started + TimeUnit.MINUTES.toNanos(30);
			long nextMarker = started;
			while (!done.await(100, TimeUnit.MILLISECONDS)) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("Debezium did not deliver " + expected + " records of " + topic
							+ " within 30 minutes; it delivered " + seen.get());
				}
				if (this.schemaOnly && System.nanoTime() >= nextMarker) {
					writeMarker();
					nextMarker = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
				}
			}
			if (failure.get() != null || doneAt[0] == 0) {
				throw new IllegalStateException("The Debezium engine stopped after " + seen.get() + " of " + expected
						+ " records of " + topic + ": " + failure.get());
			}
		}
		finally {
			try {
				engine.close();
			}
			catch (RuntimeException ex) {
				// An engine that stopped by itself refuses a second stop; the reason is in the completion.
			}
			executor.shutdown();
			executor.awaitTermination(1, TimeUnit.MINUTES);
			if (copy != history) {
				Files.deleteIfExists(copy);
			}
		}
		double first = (firstAt[0] > 0) ? (firstAt[0] - started) / 1e9 : Double.NaN;
		return new ReaderMain.Round((doneAt[0] - started) / 1e9, first, seen.get(), records.get(), 0);
	}

	private void writeMarker() throws Exception {
		String url = "jdbc:mysql://" + this.args.text("host") + ":" + this.args.text("port")
				+ "/?useSSL=false&allowPublicKeyRetrieval=true";
		try (Connection connection = DriverManager.getConnection(url, this.args.text("user"), this.args.text("password"));
				Statement statement = connection.createStatement()) {
			statement.execute("INSERT INTO `" + this.args.text("schema") + "`.marker () VALUES ()");
		}
	}

}
