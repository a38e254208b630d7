package io.tributary.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import io.tributary.bench.ApplyReport.ThreadCpu;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.kafka.KafkaSinks;
import io.tributary.kafka.KraftBroker;
import io.tributary.kafka.TopicCreation;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.SnapshotMode;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.SinkStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.TestDatabaseServer;

/**
 * Kafka: a backlog of the apply scenario's uniform shape ({@code kafkaBacklog} single-row update
 * transactions over {@code applyRows} rows, written by {@link ApplyWorkload}; shorter than the
 * apply scenario's, since both figures here come from the same backlog) caught up twice in
 * the same run: by the table applier into a target table (the apply scenario's settings and
 * target server), and by the Kafka sink into a topic of a KRaft broker in this JVM. Both
 * pipelines stand stopped at the backlog's start, each with its checkpoint; each is timed from
 * {@link Pipeline#start()} until {@link Pipeline#awaitCaughtUp(Duration)} returns.
 *
 * <p>The figure is records/s: records the broker acknowledged over those seconds, set against the
 * table applier's changes/s (backlog transactions over its seconds); the Kafka run's changes/s is
 * given too, which compares the two times directly. After the runs the target table must equal
 * the source, and the topic must hold exactly the acknowledged records, keyed by exactly the ids
 * the backlog touched, each key's last record carrying the source's row ({@link PublishedTopic}).
 * No target: the issue asks for the figure, not a ratio.
 */
final class KafkaScenario implements Scenario {

	private static final TableId SOURCE_TABLE = new TableId("bench_kafka", "sbtest1");

	private static final String TARGET_SCHEMA = "bench_kafka_target";

	private static final TableId TARGET_TABLE = new TableId(TARGET_SCHEMA, "sbtest1");

	private static final TableId TABLE_CHECKPOINTS = new TableId(TARGET_SCHEMA, "table_checkpoints");

	private static final TableId KAFKA_CHECKPOINTS = new TableId(TARGET_SCHEMA, "kafka_checkpoints");

	private static final String TOPIC = "bench-kafka-sbtest1";

	/**
	 * Kafka's own default: the broker leaves flushing its log to the OS (durability comes from
	 * replication). The tests' broker syncs every append so that a restart finds each record on disk.
	 */
	private static final Map<String, String> BROKER_SETTINGS = Map.of("log.flush.interval.messages",
			Long.toString(Long.MAX_VALUE));

	private static final Duration LONG_WAIT = Duration.ofMinutes(30);

	private int nextServerId = 2001;

	@Override
	public String name() {
		return "kafka";
	}

	@Override
	public boolean runsOn(String server) {
		return true;
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		TestDatabaseServer server = context.server();
		BenchSettings settings = context.settings();
		// As in the apply scenario: the table fits in the source's buffer pool.
		SnapshotScenario.resizeBufferPool(server.dataSource(null));
		NativeReplica target = context.replica();
		ApplyWorkload workload = new ApplyWorkload(server, SOURCE_TABLE, settings.number("applyRows"),
				settings.number("applyClients"), settings.number("hotKeys"));
		int backlog = settings.number("kafkaBacklog");
		int workers = Arrays.stream(settings.numbers("applyWorkers")).max().orElseThrow();
		int partitions = settings.number("kafkaPartitions");
		CpuMeter meter = new CpuMeter(server.port(), target.port());
		boolean quiet = !settings.mode().equals("smoke");
		target.execute("DROP DATABASE IF EXISTS " + TableId.quote(TARGET_SCHEMA),
				"CREATE DATABASE " + TableId.quote(TARGET_SCHEMA));
		try (SourceTuning tuning = SourceTuning.apply(server);
				KraftBroker broker = KraftBroker.start(BROKER_SETTINGS);
				HikariDataSource sourcePool = ApplyBacklogRun.pool(server.jdbcUrl(null), server.username(),
						server.password(), 4, "kafka-source");
				HikariDataSource targetPool = ApplyBacklogRun.targetPool(target.jdbcUrl(), target.user(),
						target.password(), workers + 4, "kafka-target")) {
			Map<String, Object> kafka = Map.of("bootstrap.servers", broker.bootstrapServers());
			TopicCreation creation = new TopicCreation(true, partitions, null);
			double loadSeconds = workload.load();
			context.say(String.format("Loaded %,d rows in %.1f s; broker at %s, topic %s with %d partition(s)",
					workload.rows(), loadSeconds, broker.bootstrapServers(), TOPIC, partitions));

			// Both stopped at the head: the table snapshotted into its target, the topic created empty.
			try (Pipeline snapshot = new Pipeline(tableSettings(server, workers), sourcePool, targetPool)) {
				snapshot.start();
				snapshot.awaitCaughtUp(LONG_WAIT);
			}
			try (KafkaSinks sinks = new KafkaSinks(kafka, creation);
					Pipeline prime = new Pipeline(kafkaSettings(server, workers, sinks), sourcePool, targetPool)) {
				prime.start();
				prime.awaitCaughtUp(LONG_WAIT);
			}
			Position before = SourceQueries.head(sourcePool);
			String tableStart = checkpoint(targetPool, TABLE_CHECKPOINTS);
			String kafkaStart = checkpoint(targetPool, KAFKA_CHECKPOINTS);
			context.say("Checkpoints at the backlog's start " + before + ": table " + tableStart + ", Kafka "
					+ kafkaStart);

			// The apply scenario's uniform shape: the same seed, so each client's ids begin as there.
			ApplyWorkload.Backlog written = workload.write(backlog, 0, 1000);
			Position after = SourceQueries.head(sourcePool);
			context.say(String.format("Backlog: %,d single-row transactions in %.1f s, %,d distinct ids; binlog %s "
					+ "to %s", backlog, written.seconds(), written.distinctKeys(), before, after));

			ApplyBacklogRun.flushDirtyPages(target.dataSource());
			awaitQuiet(meter, quiet, context);
			Timed table = timed(meter, () -> new Pipeline(tableSettings(server, workers), sourcePool, targetPool));
			TableStatus tableStatus = table.status();
			String sourceSum = ApplyBacklogRun.checksum(server.dataSource(null), SOURCE_TABLE);
			String targetSum = ApplyBacklogRun.checksum(targetPool, TARGET_TABLE);
			if (!sourceSum.equals(targetSum)) {
				throw new IllegalStateException("Target table " + TARGET_TABLE + " differs from the source after the "
						+ "catch-up: " + targetSum + " against " + sourceSum);
			}
			context.say(String.format("Table applier, %d workers: %.2f s = %,.0f changes/s; %,d rows written in %,d "
					+ "statements; %s; JVM CPU seconds %s", workers, table.seconds(), backlog / table.seconds(),
					tableStatus.apply().rowsUpserted(), tableStatus.apply().batchesApplied(), table.cpu(),
					table.threads()));

			ApplyBacklogRun.flushDirtyPages(target.dataSource());
			awaitQuiet(meter, quiet, context);
			Timed published;
			try (KafkaSinks sinks = new KafkaSinks(kafka, creation)) {
				published = timed(meter, () -> new Pipeline(kafkaSettings(server, workers, sinks), sourcePool,
						targetPool));
			}
			TableStatus kafkaStatus = published.status();
			SinkStatus sink = kafkaStatus.sink();
			if (sink == null || sink.sendErrors() != 0) {
				throw new IllegalStateException("The Kafka run reported no sink status or send errors: " + sink);
			}
			long records = sink.recordsSent();
			context.say(String.format("Kafka sink: %.2f s = %,.0f records/s (%,.0f changes/s); %,d records in %,d "
					+ "flushes; %s; JVM CPU seconds %s", published.seconds(), records / published.seconds(),
					backlog / published.seconds(), records, kafkaStatus.apply().batchesApplied(), published.cpu(),
					published.threads()));

			String checked = PublishedTopic.check(broker.bootstrapServers(), TOPIC, records, written.touched(),
					PublishedTopic.sourceValues(server.dataSource(null), SOURCE_TABLE, workload.rows()),
					SOURCE_TABLE.toString());
			context.say("Topic check: " + checked);

			record(context, workload, backlog, workers, partitions, written, table, published, sourceSum, checked);
		}
	}

	private static void record(ScenarioContext context, ApplyWorkload workload, int backlog, int workers,
			int partitions, ApplyWorkload.Backlog written, Timed table, Timed published, String sum, String checked) {
		String flavor = context.flavor();
		String shape = String.format("%,d single-row transactions on %,d rows", backlog, workload.rows());
		TableStatus kafka = published.status();
		long records = kafka.sink().recordsSent();
		long flushes = kafka.apply().batchesApplied();
		double tableRate = backlog / table.seconds();
		String tableMeasure = "Tributary catch-up into a table, " + workers + " workers";
		context.record(ResultRow.measured("kafka", flavor, shape, tableMeasure, tableRate, "changes/s",
				String.format("%.2f s; %,d rows written; source and target %s", table.seconds(),
						table.status().apply().rowsUpserted(), sum)));
		context.record(ResultRow.compared("kafka", flavor, shape, "Tributary catch-up to Kafka, records published",
				records / published.seconds(), "records/s", tableMeasure, tableRate, Double.NaN,
				String.format("%,d records acknowledged in %.2f s, %,d flushes; the reference is in changes/s; "
						+ "topic checked: %s", records,
						published.seconds(), flushes, checked)).withReferenceUnit("changes/s"));
		context.record(ResultRow.compared("kafka", flavor, shape, "Tributary catch-up to Kafka, changes",
				backlog / published.seconds(), "changes/s", tableMeasure, tableRate, Double.NaN,
				String.format("%,d backlog transactions in %.2f s (the table applier: %.2f s)", backlog,
						published.seconds(), table.seconds())));
		context.bound(String.format("%s to Kafka: %,d records (%,d distinct ids, %.0f records per flush) to one "
				+ "broker in this JVM with %d partition(s), producer defaults (acks=all, idempotent, linger.ms 5, "
				+ "batch.size 16384, no compression), the log not synced per append (Kafka's default; the table's "
				+ "target syncs each commit); %s; the JVM's CPU seconds (reader, sink and broker): %s", shape,
				records, written.distinctKeys(), (double) records / Math.max(1, flushes), partitions, published.cpu(),
				published.threads()));
		context.detail(String.format("### Kafka sink (%s)%n%n%s, a backlog of the apply scenario's uniform shape, caught up from "
				+ "the same start by each pipeline, one after the other.%n%n"
				+ "| sink | seconds | changes/s | records/s | records written | flushes | CPU |%n"
				+ "| --- | --- | --- | --- | --- | --- | --- |%n"
				+ "| target table, %d workers | %.2f | %,.0f | - | %,d | %,d | %s |%n"
				+ "| Kafka topic, %d partition(s) | %.2f | %,.0f | %,.0f | %,d | %,d | %s |%n%n"
				+ "Checks: source and target table %s; topic: %s.%n", flavor, shape, workers, table.seconds(),
				tableRate, table.status().apply().rowsUpserted(), table.status().apply().batchesApplied(), table.cpu(),
				partitions, published.seconds(), backlog / published.seconds(), records / published.seconds(), records,
				flushes, published.cpu(), sum, checked));
	}

	/** Starts a pipeline and times it until caught up with the head; the status is read before it stops. */
	private static Timed timed(CpuMeter meter, PipelineFactory factory) throws Exception {
		try (Pipeline pipeline = factory.create()) {
			CpuMeter.Sample cpu = meter.sample();
			ThreadCpu threads = ThreadCpu.now();
			long started = System.nanoTime();
			pipeline.start();
			pipeline.awaitCaughtUp(LONG_WAIT);
			double seconds = (System.nanoTime() - started) / 1e9;
			CpuMeter.Share share = cpu.untilNow(meter);
			return new Timed(seconds, pipeline.status().tables().get(0), share, threads.since());
		}
	}

	private static void awaitQuiet(CpuMeter meter, boolean quiet, ScenarioContext context) throws InterruptedException {
		if (quiet) {
			double waited = meter.awaitQuiet(0.10, Duration.ofSeconds(90));
			if (waited > 5) {
				context.say(String.format("Waited %.0f s for other processes to go quiet", waited));
			}
		}
	}

	/** The apply scenario's pipeline settings: plain connections, checksums off. */
	private PipelineSettings settings(TestDatabaseServer server, TableMapping table, TableId checkpoints, int workers) {
		SourceSettings source = new SourceSettings(server.host(), server.port(), server.username(), server.password(),
				this.nextServerId++, Duration.ofSeconds(10), Duration.ofSeconds(5), SslMode.DISABLED, null);
		return PipelineSettings.of(source, List.of(table), checkpoints)
			.withApplyConcurrency(workers)
			.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false));
	}

	private PipelineSettings tableSettings(TestDatabaseServer server, int workers) {
		return settings(server, new TableMapping(SOURCE_TABLE, TARGET_TABLE), TABLE_CHECKPOINTS, workers);
	}

	/** The table to the topic, never snapshotted: the topic holds the backlog's records and nothing else. */
	private PipelineSettings kafkaSettings(TestDatabaseServer server, int workers, KafkaSinks sinks) {
		return settings(server, TableMapping.toSink(SOURCE_TABLE, List.of(), SnapshotMode.NEVER, sinks.sink(TOPIC)),
				KAFKA_CHECKPOINTS, workers);
	}

	private static String checkpoint(DataSource target, TableId checkpoints) throws SQLException {
		try (Connection connection = target.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT binlog_position FROM " + checkpoints.quoted()
						+ " WHERE source_table = '" + SOURCE_TABLE + "'")) {
			if (!rs.next()) {
				throw new IllegalStateException("No checkpoint saved in " + checkpoints + " for " + SOURCE_TABLE);
			}
			return rs.getString(1);
		}
	}

	/** Makes the pipeline of a timed run. */
	@FunctionalInterface
	private interface PipelineFactory {

		Pipeline create() throws Exception;

	}

	/**
	 * One timed catch-up.
	 *
	 * @param seconds from start until caught up
	 * @param status the table's status when caught up
	 * @param cpu how the machine's CPU was used
	 * @param threads CPU seconds of this JVM's threads by name
	 */
	private record Timed(double seconds, TableStatus status, CpuMeter.Share cpu, String threads) {

	}

}
