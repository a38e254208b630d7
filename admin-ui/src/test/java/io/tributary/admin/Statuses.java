package io.tributary.admin;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.status.PipelineStatus;
import io.tributary.status.PipelineStatus.State;
import io.tributary.status.SinkStatus;
import io.tributary.status.TableDetail;
import io.tributary.status.TableEvent;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

/** Hand-built statuses for the admin pages' tests. */
final class Statuses {

	static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	private Statuses() {
	}

	static PipelineStatus pipeline(String name, long eventsRead, long lagMillis, Long lagBytes, TableStatus... tables) {
		PipelineStatus.Source source = new PipelineStatus.Source("db", 3306, 4242, "MYSQL", "8.0.31", "ON", true, null,
				3, eventsRead, null);
		return new PipelineStatus(name, State.RUNNING, source,
				new PipelineStatus.Positions("mysql-bin.000003:1200", "mysql-bin.000003:900", "mysql-bin.000003:1500"),
				lagMillis, lagBytes, List.of(tables), NOW.minusSeconds(3_600), null, true,
				new PipelineStatus.Counters(10, 0, 0, 5, 0), null,
				new PipelineStatus.Buffers(1L << 30, 3L << 20, 12, 340));
	}

	/** A table whose every counter has a value of its own, so a page showing the wrong one is caught. */
	static TableStatus everyCounter(String name, long changesApplied, long contentionEvents) {
		return TableStatus.builder(name, "replica." + name.substring(name.indexOf('.') + 1), Phase.STREAMING)
			.copy(new TableStatus.Copy(400_001, 1_000_002, 403, 12_345.6, 49L, true))
			.buffer(new TableStatus.Buffer(12_345, 1_234_567, 64L * 1024 * 1024, 9_876_543, 17, 4, 2, 1_500))
			.flushing(new TableStatus.Flushing(changesApplied, false, "mysql-bin.000003:900",
					new TableStatus.Flush(NOW.minusSeconds(2), 1_234, 56, "ok"),
					new TableStatus.Flushes(55, 2, 123_456, 789, 3_000_000_000L, 250_000_000L)))
			.apply(new TableStatus.Apply(3_456, 7, 1_111_111, 2_222, contentionEvents, 44, 3, 8))
			.lastError("Upserting 12 rows into replica.orders failed: Data too long for column 'v'")
			.checksum(new TableStatus.Checksum(TableStatus.Checksum.State.DONE, 12, 5, 1, 1, 40_000,
					NOW.minusSeconds(60), NOW.minusSeconds(50), null))
			.lastAction(new TableStatus.Action("pause", NOW.minusSeconds(90), "paused at mysql-bin.000003:800 (by alice)"))
			.events(new TableStatus.Events(101, 202, 303, 4))
			.build();
	}

	/** A table published to a Kafka topic, with what its sink reports. */
	static TableStatus publishedToKafka(String name) {
		Map<String, Long> offsets = new LinkedHashMap<>();
		offsets.put("0", 410_001L);
		offsets.put("1", 409_876L);
		return everyCounter(name, 5_000, 0).toBuilder()
			.destination(new Destination.Topic(name))
			.sink(new SinkStatus("kafka", name, 1_234_567, 3, offsets))
			.build();
	}

	/** The detail of a table with two columns, a partitioning index, a checkpoint and three events. */
	static TableDetail detail(TableStatus status) {
		return new TableDetail(status,
				List.of(new TableDetail.ColumnInfo("id", "int(10) unsigned", false, true),
						new TableDetail.ColumnInfo("email", "varchar(190)", true, false)),
				List.of("id"), List.of("uk_email(email)"),
				new TableDetail.Checkpoint("mysql-bin.000003:700", true, NOW.minusSeconds(5)),
				List.of(new TableEvent(NOW.minusSeconds(300), TableEvent.Kind.PHASE, "SNAPSHOTTING -> STREAMING", null),
						new TableEvent(NOW.minusSeconds(90), TableEvent.Kind.ACTION, "pause: paused at mysql-bin.000003:800",
								"alice"),
						new TableEvent(NOW.minusSeconds(30), TableEvent.Kind.FLUSH_FAILED,
								"Flush failed: Data too long for column 'v'", null)));
	}

	static TableStatus streaming(String name, long changesApplied, long bufferedBytes) {
		return table(name, Phase.STREAMING, changesApplied, bufferedBytes, 0, 0, null, TableStatus.Checksum.IDLE);
	}

	static TableStatus table(String name, Phase phase, long changesApplied, long bufferedBytes, long rowsCopied,
			long rowsEstimated, Long etaSeconds, TableStatus.Checksum checksum) {
		double rowsPerSecond = (phase == Phase.SNAPSHOTTING) ? 12_345.6 : 0;
		Destination target = new Destination.Table(new TableId("replica", TableId.parse(name, null).table()));
		return TableStatus.builder(name, target, phase)
			.copy(new TableStatus.Copy(rowsCopied, rowsEstimated, rowsCopied / 1_000, rowsPerSecond, etaSeconds,
					phase != Phase.SNAPSHOTTING))
			.buffer(new TableStatus.Buffer(bufferedBytes / 100, bufferedBytes, 64L * 1024 * 1024, 0, 17, 4, 2, 1_500))
			.changesApplied(changesApplied)
			.allChangesFlushed(bufferedBytes == 0)
			.confirmedPosition("mysql-bin.000003:900")
			.lastFlush(new TableStatus.Flush(NOW.minusSeconds(2), 1_234, 56, "ok"))
			.checksum(checksum)
			.build();
	}

	/**
	 * Returns a pipeline of {@code count} tables as a large deployment has them: one in ten listed
	 * on its own, the others taken by three patterns, nearly all streaming, and a few of each kind
	 * of trouble (failed, paused, catching up, a failing flush) and snapshots, spread through the
	 * list so that trouble is never first by accident. Tables named {@code shop.t_0000} onwards.
	 */
	static PipelineStatus many(String pipeline, int count) {
		return many(pipeline, count, 0);
	}

	/**
	 * Returns the pipeline of {@link #many(String, int)} as it is at a later sample: each table's
	 * changes applied grow by its own rate, so that the busiest tables differ.
	 */
	static PipelineStatus many(String pipeline, int count, int sample) {
		List<TableStatus> tables = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			String name = String.format(Locale.ROOT, "shop.t_%04d", i);
			String rule = (i % 10 == 0) ? null : "cdc.tables[" + (1 + i % 3) + "]";
			TableStatus table = streaming(name, 1_000L * i + (long) sample * (i % 13) * 150, (i % 7) * 1_024L);
			if (i % 97 == 41) {
				table = table.toBuilder().phase(Phase.FAILED).lastError("Table " + name + " was altered on the "
						+ "source in a way Tributary cannot follow: column 'v' dropped").build();
			}
			else if (i % 89 == 53) {
				table = table.toBuilder().phase(Phase.PAUSED).build();
			}
			else if (i % 53 == 29) {
				table = table.toBuilder().phase(Phase.CATCHING_UP).allChangesFlushed(false).build();
			}
			else if (i % 71 == 37) {
				table = table(name, Phase.SNAPSHOTTING, 0, 0, 400_000, 1_000_000, 49L, TableStatus.Checksum.IDLE);
			}
			else if (i % 61 == 47) {
				table = table.toBuilder().lastFlush(new TableStatus.Flush(NOW.minusSeconds(1), 12, 30_000,
						"Lock wait timeout exceeded; try restarting transaction")).build();
			}
			tables.add(table.toBuilder().rule(rule).build());
		}
		return pipeline(pipeline, 1_000_000 + sample * 9_000L, 1_500, 8_192L, tables.toArray(TableStatus[]::new));
	}

}
