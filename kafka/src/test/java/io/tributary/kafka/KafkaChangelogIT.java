package io.tributary.kafka;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.name.TablePattern;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.SnapshotMode;
import io.tributary.pipeline.TableRule;
import io.tributary.source.Position;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.SinkStatus;
import io.tributary.status.TableDetail;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Source to Kafka to a rebuilt table, against a real broker in the test JVM: a compacted topic
 * converges to the source table under a workload and across a broker restart, and the checkpoint
 * never passes a change that is not in the topic.
 */
@ExtendWith(DatabaseExtension.class)
class KafkaChangelogIT {

	private static final Duration WAIT = Duration.ofMinutes(1);

	private static KraftBroker broker;

	@BeforeAll
	static void startBroker() throws Exception {
		broker = KraftBroker.start();
	}

	@AfterAll
	static void stopBroker() {
		if (broker != null) {
			broker.close();
		}
	}

	/**
	 * Orders change under a workload from before the snapshot to the end, and rows are appended to a
	 * ledger one transaction at a time, each noting the binlog head after its commit. The broker is
	 * stopped mid-stream: the ledger's checkpoint then covers only rows whose records are in the log
	 * on disk. After a restart both topics rebuild their tables row for row.
	 */
	@Test
	void topicsConvergeToTheTablesAcrossABrokerRestart(TestDatabase db) throws Exception {
		KafkaReplication kafka = new KafkaReplication(db, "changelog", broker);
		kafka.createOrdersTable(3_000);
		kafka.onSource("CREATE TABLE ledger (id BIGINT PRIMARY KEY, v INT NOT NULL)");
		Workload workload = kafka.workload("orders").threads(2).ratePerSecond(300).mix(3, 5, 2, 1).build();
		Ledger ledger = new Ledger(kafka.sourcePool(), kafka.source() + ".ledger");
		try (KafkaSinks sinks = kafka.sinks(new TopicCreation(true, 3, null));
				Pipeline pipeline = kafka.start(kafka.settings(sinks, Map.of("orders", "orders", "ledger", "ledger")))) {
			workload.start();
			ledger.start();
			Await.until("both tables stream", WAIT, () -> pipeline.status().tables().stream()
				.allMatch((t) -> t.phase() == Phase.STREAMING));
			Await.until("ledger records acknowledged", WAIT, () -> sink(pipeline, kafka, "ledger").recordsSent() > 100);

			broker.stop();
			long atStop = ledger.inserted();
			Await.until("ledger rows written while the broker is down", WAIT, () -> ledger.inserted() >= atStop + 30);
			Instant later = Instant.now();
			Await.until("a checkpoint written after those rows", WAIT, () -> savedAfter(pipeline, kafka, later));
			// Those rows reach a flush of their own only when the reader gets to them, which may be
			// after another table's failing flush; the restart waits until one of theirs failed.
			Await.until("a ledger flush failed while the broker is down", WAIT,
					() -> status(pipeline, kafka, "ledger").flushes().failed() > 0);
			TableCheckpoint checkpoint = kafka.checkpoint("ledger");
			Set<String> onDisk = keysOf(broker.recordsOnDisk("ledger"));
			Map<Long, Position> covered = ledger.committedUpTo(checkpoint.position());
			assertThat(covered).as("ledger rows before the checkpoint").isNotEmpty();
			assertThat(onDisk).as("ledger keys in the topic when the broker stopped, against the rows the checkpoint "
					+ "at %s covers", checkpoint.position())
				.containsAll(covered.keySet().stream().map((id) -> "[" + id + "]").toList());
			assertThat(ledger.inserted()).as("rows written, some not in the topic at the stop")
				.isGreaterThan(onDisk.size());

			broker.restart();
			Await.until("ledger rows after the restart", WAIT, () -> ledger.inserted() >= atStop + 100);
			ledger.stop();
			workload.stop();
			pipeline.awaitCaughtUp(WAIT);
			kafka.assertTopicEqualsSource("orders", "orders");
			kafka.assertTopicEqualsSource("ledger", "ledger");
			assertThat(status(pipeline, kafka, "ledger").flushes().failed()).as("flushes failed while the broker was down")
				.isPositive();
			SinkStatus ledgerSink = sink(pipeline, kafka, "ledger");
			assertThat(ledgerSink.destination()).isEqualTo("ledger");
			assertThat(ledgerSink.sendErrors()).isPositive();
			assertThat(ledgerSink.lastAcknowledged()).isNotEmpty();
		}
		finally {
			ledger.stop();
			workload.stop();
		}
	}

	/** Without leave to create topics, a missing topic stops its table at start, saying what to do. */
	@Test
	void aPatternPublishesEachTableItTakesToATopicOfItsOwn(TestDatabase db) throws Exception {
		KafkaReplication kafka = new KafkaReplication(db, "kpattern", broker);
		Workload.createOrdersTable(kafka.sourcePool(), kafka.source() + ".k_1", 400);
		Workload.createOrdersTable(kafka.sourcePool(), kafka.source() + ".k_2", 300);
		try (KafkaSinks sinks = kafka.sinks(new TopicCreation(true, 2, null))) {
			TableRule rule = TableRule.toSinks("k", TablePattern.parse(kafka.source() + ".k_*"), List.of(),
					(table) -> sinks.sink(table.table() + "-log"), List.of(), SnapshotMode.AUTO);
			try (Pipeline pipeline = kafka.start(kafka.settings(List.of(rule)))) {
				Await.until("both tables stream", WAIT, () -> pipeline.status().tables().size() == 2
						&& pipeline.status().tables().stream().allMatch((t) -> t.phase() == Phase.STREAMING));
				Workload.createOrdersTable(kafka.sourcePool(), kafka.source() + ".k_3", 200);
				kafka.onSource("DELETE FROM k_1 WHERE id <= 30", "UPDATE k_2 SET amount = 1 WHERE id <= 20");
				Await.until("the new table streams", WAIT, () -> pipeline.status().tables().size() == 3
						&& pipeline.status().tables().stream().allMatch((t) -> t.phase() == Phase.STREAMING));
				pipeline.awaitCaughtUp(WAIT);
				assertThat(pipeline.status().tables()).extracting(TableStatus::target)
					.containsExactly("(kafka).k_1-log", "(kafka).k_2-log", "(kafka).k_3-log");
				kafka.assertTopicEqualsSource("k_1", "k_1-log");
				kafka.assertTopicEqualsSource("k_2", "k_2-log");
				kafka.assertTopicEqualsSource("k_3", "k_3-log");
			}
		}
	}

	@Test
	void aMissingTopicStopsItsTableUnlessTopicsMayBeCreated(TestDatabase db) throws Exception {
		KafkaReplication kafka = new KafkaReplication(db, "missing", broker);
		kafka.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1)");
		try (KafkaSinks sinks = kafka.sinks(TopicCreation.DISABLED);
				Pipeline pipeline = kafka.start(kafka.settings(sinks, Map.of("t", "not-created")))) {
			TableStatus failed = Await.value("the table failed", WAIT, () -> status(pipeline, kafka, "t"),
					(t) -> t.phase() == Phase.FAILED);
			assertThat(failed.lastError()).contains("Kafka topic 'not-created'", "does not exist",
					"cleanup.policy=compact", "cdc.kafka.topics.create=true");
		}
	}

	/**
	 * A TRUNCATE on the source cannot be passed on to a compacted topic without knowing its keys:
	 * the table stops with its checkpoint before the truncation, and the topic keeps its rows.
	 */
	@Test
	void aTruncateStopsTheTableBeforeIt(TestDatabase db) throws Exception {
		KafkaReplication kafka = new KafkaReplication(db, "truncate", broker);
		kafka.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1), (2, 2)");
		try (KafkaSinks sinks = kafka.sinks(new TopicCreation(true, 1, null));
				Pipeline pipeline = kafka.start(kafka.settings(sinks, Map.of("t", "truncated")))) {
			Await.until("the table streams", WAIT, () -> status(pipeline, kafka, "t").phase() == Phase.STREAMING);
			kafka.onSource("UPDATE t SET v = 3 WHERE id = 2");
			pipeline.awaitCaughtUp(WAIT);
			Position before = SourceQueries.headFileOffset(kafka.pool());
			kafka.onSource("TRUNCATE TABLE t");
			TableStatus failed = Await.value("the table failed", WAIT, () -> status(pipeline, kafka, "t"),
					(t) -> t.phase() == Phase.FAILED);
			assertThat(failed.lastError()).contains("truncated on the source", "cannot follow a TRUNCATE",
					"tombstones");
			Position stoppedAt = Position.parse(failed.confirmedPosition());
			assertThat(stoppedAt.file()).isEqualTo(before.file());
			assertThat(stoppedAt.offset()).as("position of the failed table")
				.isLessThanOrEqualTo(firstEventAfter(kafka, before, "TRUNCATE TABLE t"));
			assertThat(kafka.compacted("truncated")).hasSize(2).containsKey("[2]");
		}
	}

	/**
	 * With its checkpoints in a compacted topic a pipeline needs no target database: a second
	 * pipeline resumes from the checkpoint the first saved there, without a snapshot, and the
	 * topic still rebuilds the table.
	 */
	@Test
	void checkpointsInATopicResumeAPipelineWithoutATargetDatabase(TestDatabase db) throws Exception {
		KafkaReplication kafka = new KafkaReplication(db, "nodb", broker);
		kafka.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 1), (2, 2)");
		try (KafkaSinks sinks = kafka.sinks(new TopicCreation(true, 1, null))) {
			KafkaCheckpointStore checkpoints = sinks.checkpointStore("checkpoints", "nodb");
			try (Pipeline first = kafka.startWithoutTarget(kafka.settings(sinks, Map.of("t", "nodb")), checkpoints)) {
				Await.until("the table streams", WAIT, () -> status(first, kafka, "t").phase() == Phase.STREAMING);
				kafka.onSource("UPDATE t SET v = 20 WHERE id = 2");
				first.awaitCaughtUp(WAIT);
			}
			TableCheckpoint saved = checkpoints.load().get(kafka.table("t"));
			assertThat(saved).isNotNull();
			assertThat(saved.snapshotDone()).isTrue();
			kafka.onSource("INSERT INTO t VALUES (3, 3)", "DELETE FROM t WHERE id = 1");
			try (Pipeline second = kafka.startWithoutTarget(kafka.settings(sinks, Map.of("t", "nodb")), checkpoints)) {
				Await.until("the table streams", WAIT, () -> status(second, kafka, "t").phase() == Phase.STREAMING);
				second.awaitCaughtUp(WAIT);
				assertThat(status(second, kafka, "t").rowsCopied()).as("rows copied by a snapshot").isZero();
				kafka.assertTopicEqualsSource("t", "nodb");
			}
		}
	}

	/**
	 * A record larger than the producer accepts can never be sent: the table stops, saying what to
	 * raise, whether the row comes from the snapshot or the stream, instead of retrying forever.
	 */
	@Test
	void aRecordTooLargeStopsItsTableWithWhatToRaise(TestDatabase db) throws Exception {
		KafkaReplication kafka = new KafkaReplication(db, "large", broker);
		kafka.onSource("CREATE TABLE snap (id INT PRIMARY KEY, v TEXT)", "CREATE TABLE stream (id INT PRIMARY KEY, v TEXT)",
				"INSERT INTO snap VALUES (1, REPEAT('x', 4000))", "INSERT INTO stream VALUES (1, 'small')");
		try (KafkaSinks sinks = kafka.sinks(new TopicCreation(true, 1, null), Map.of("max.request.size", 2_000));
				Pipeline pipeline = kafka.start(kafka.settings(sinks, Map.of("snap", "large-snap", "stream", "large-stream")))) {
			Await.until("the small table streams", WAIT,
					() -> status(pipeline, kafka, "stream").phase() == Phase.STREAMING);
			Position before = SourceQueries.headFileOffset(kafka.pool());
			kafka.onSource("UPDATE stream SET v = REPEAT('y', 4000) WHERE id = 1");
			for (String table : List.of("snap", "stream")) {
				TableStatus failed = Await.value(table + " failed", WAIT, () -> status(pipeline, kafka, table),
						(t) -> t.phase() == Phase.FAILED);
				assertThat(failed.lastError()).as(table).contains("RecordTooLargeException", "max.request.size");
			}
			Position stoppedAt = Position.parse(status(pipeline, kafka, "stream").confirmedPosition());
			assertThat(stoppedAt.file()).isEqualTo(before.file());
			assertThat(stoppedAt.offset()).as("position of the failed table")
				.isLessThanOrEqualTo(firstEventAfter(kafka, before, "(" + kafka.source() + ".stream)"));
			assertThat(kafka.compacted("large-stream")).containsOnlyKeys("[1]");
		}
	}

	/**
	 * Returns the offset of the first event at or after {@code from} whose description contains
	 * {@code info}. The head read before a change is not the change's own position: the pipeline's
	 * checkpoints live on the same server, so their writes may come between.
	 */
	private static long firstEventAfter(KafkaReplication kafka, Position from, String info) throws SQLException {
		try (Connection connection = kafka.pool().getConnection(); Statement statement = connection.createStatement();
				ResultSet events = statement
					.executeQuery("SHOW BINLOG EVENTS IN '" + from.file() + "' FROM " + from.offset())) {
			while (events.next()) {
				if (events.getString("Info").contains(info)) {
					return events.getLong("Pos");
				}
			}
		}
		throw new AssertionError("no event with '" + info + "' in " + from.file() + " after " + from.offset());
	}

	private static TableStatus status(Pipeline pipeline, KafkaReplication kafka, String table) {
		return pipeline.detail(kafka.table(table)).status();
	}

	private static SinkStatus sink(Pipeline pipeline, KafkaReplication kafka, String table) {
		SinkStatus sink = status(pipeline, kafka, table).sink();
		return (sink != null) ? sink : new SinkStatus("kafka", "", 0, 0, Map.of());
	}

	private static boolean savedAfter(Pipeline pipeline, KafkaReplication kafka, Instant moment) {
		TableDetail.Checkpoint last = pipeline.detail(kafka.table("ledger")).checkpoint();
		return last != null && last.savedAt().isAfter(moment);
	}

	/** Returns the keys a log holds after its last record for each: those not deleted by a tombstone. */
	private static Set<String> keysOf(List<Map.Entry<String, String>> records) {
		Set<String> keys = new HashSet<>();
		for (Map.Entry<String, String> record : records) {
			if (record.getValue() != null) {
				keys.add(record.getKey());
			}
			else {
				keys.remove(record.getKey());
			}
		}
		return keys;
	}

	/**
	 * Appends rows to a ledger table, one autocommitted insert at a time, about 200 a second, and
	 * notes for each the source's binlog head read after its commit: the change is before any
	 * position at or after that head.
	 */
	static final class Ledger {

		private final DataSource source;

		private final String table;

		private final Map<Long, Position> headAfterCommit = new ConcurrentHashMap<>();

		private final AtomicLong inserted = new AtomicLong();

		private final AtomicBoolean running = new AtomicBoolean();

		private Thread thread;

		Ledger(DataSource source, String table) {
			this.source = source;
			this.table = table;
		}

		void start() {
			this.running.set(true);
			this.thread = new Thread(this::run, "ledger-writer");
			this.thread.start();
		}

		void stop() throws InterruptedException {
			this.running.set(false);
			if (this.thread != null) {
				this.thread.join(10_000);
			}
		}

		long inserted() {
			return this.inserted.get();
		}

		/** Returns the rows whose commit is at or before {@code position} in the binlog, by id. */
		Map<Long, Position> committedUpTo(Position position) {
			Map<Long, Position> covered = new ConcurrentHashMap<>();
			this.headAfterCommit.forEach((id, head) -> {
				int files = head.file().compareTo(position.file());
				if (files < 0 || (files == 0 && head.offset() <= position.offset())) {
					covered.put(id, head);
				}
			});
			return covered;
		}

		private void run() {
			try (Connection connection = this.source.getConnection(); Statement statement = connection.createStatement()) {
				connection.setAutoCommit(true);
				for (long id = 1; this.running.get(); id++) {
					statement.executeUpdate("INSERT INTO " + this.table + " VALUES (" + id + ", " + (id % 7) + ")");
					this.headAfterCommit.put(id, SourceQueries.headFileOffset(this.source));
					this.inserted.incrementAndGet();
					// Paces the writer; nothing waits on it.
					LockSupport.parkNanos(5_000_000);
				}
			}
			catch (SQLException ex) {
				throw new IllegalStateException("The ledger writer failed", ex);
			}
		}

	}

}
