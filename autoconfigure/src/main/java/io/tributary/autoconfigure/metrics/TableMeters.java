package io.tributary.autoconfigure.metrics;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

import io.tributary.name.Destination;
import io.tributary.status.TableStatus;

/**
 * The meters of one table: phase, changes read, buffer pressure, flushes, statements, snapshot
 * copy and checksum, and for a table published to Kafka what the brokers acknowledged.
 */
final class TableMeters {

	private TableMeters() {
	}

	/**
	 * Registers the meters of one table.
	 * @param destination where the table's changes go; a Kafka topic adds the meters of what the
	 * brokers acknowledged, tagged with the topic
	 * @return the meters registered, to remove them when the table leaves the tables metered
	 */
	static List<Meter> register(MeterRegistry registry, Supplier<TableStatus> status, String pipeline, String table,
			Destination destination) {
		StatusMeters<TableStatus> meters = new StatusMeters<>(registry, status,
				Tags.of("pipeline", pipeline, "table", table));
		for (TableStatus.Phase phase : TableStatus.Phase.values()) {
			meters.tagged("phase", phase.name().toLowerCase(Locale.ROOT))
				.flag("cdc.table.phase", "1 for the table's current phase, 0 for the others",
						(current) -> current.phase() == phase);
		}
		meters.flag("cdc.table.flushed", "Whether nothing of the table is buffered and its position is the "
				+ "delivered one", TableStatus::allChangesFlushed);
		events(meters);
		buffer(meters);
		flushes(meters);
		statements(meters);
		copy(meters);
		checksum(meters);
		if (destination instanceof Destination.Topic topic) {
			kafka(meters.tagged("topic", topic.name()));
		}
		return meters.registered();
	}

	private static void events(StatusMeters<TableStatus> meters) {
		String description = "Row changes of the table read from the binlog, by kind";
		meters.tagged("type", "insert").counter("cdc.events", description, (current) -> current.events().inserts());
		meters.tagged("type", "update").counter("cdc.events", description, (current) -> current.events().updates());
		meters.tagged("type", "delete").counter("cdc.events", description, (current) -> current.events().deletes());
		meters.tagged("type", "truncate").counter("cdc.events", description,
				(current) -> current.events().truncates());
	}

	private static void buffer(StatusMeters<TableStatus> meters) {
		meters.gauge("cdc.buffer.keys", null, "Changes held in the table's buffer", TableStatus::bufferedKeys);
		meters.gauge("cdc.buffer.bytes", BaseUnits.BYTES,
				"Estimated bytes of the table's changes held, buffered or being applied",
				TableStatus::bufferedBytes);
		meters.gauge("cdc.buffer.soft.limit", BaseUnits.BYTES, "Buffer size at which the reader waits for room; NaN "
				+ "when there is no limit",
				(current) -> (current.bufferSoftLimitBytes() >= 0) ? current.bufferSoftLimitBytes() : Double.NaN);
		meters.counter("cdc.buffer.added", "Changes added to the table's buffer", TableStatus::keysAdded);
		meters.counter("cdc.buffer.dropped", "Changes dropped because the snapshot's later read of their chunk will "
				+ "see them (above the high watermark)", TableStatus::droppedAboveHighWatermark);
		meters.counter("cdc.buffer.deferred", "Times a change waited for the snapshot chunk holding its key to land",
				TableStatus::deferredInFlight);
		meters.timer("cdc.buffer.park", "Times the reader waited for room under the buffer's soft limit, and how long",
				TableStatus::parkEvents, TableStatus::parkedMillis, TimeUnit.MILLISECONDS);
	}

	private static void flushes(StatusMeters<TableStatus> meters) {
		String timer = "Flushes of the table's buffer into the target, and the time they took";
		String rows = "Rows written and deleted by the table's flushes";
		StatusMeters<TableStatus> ok = meters.tagged("outcome", "ok");
		ok.timer("cdc.flush", timer, (current) -> current.flushes().ok(), (current) -> current.flushes().okNanos(),
				TimeUnit.NANOSECONDS);
		ok.counter("cdc.flush.rows", rows, (current) -> current.flushes().okRows());
		StatusMeters<TableStatus> failed = meters.tagged("outcome", "failed");
		failed.timer("cdc.flush", timer, (current) -> current.flushes().failed(),
				(current) -> current.flushes().failedNanos(), TimeUnit.NANOSECONDS);
		failed.counter("cdc.flush.rows", rows, (current) -> current.flushes().failedRows());
		meters.counter("cdc.changes.applied", "Row images and deletes of the table applied to the target (or "
				+ "accepted by the change listener), snapshot rows not included", TableStatus::changesApplied);
	}

	private static void statements(StatusMeters<TableStatus> meters) {
		String description = "Statements that applied the table's changes (listener calls in listener mode)";
		meters.tagged("outcome", "ok").counter("cdc.apply.statements", description,
				(current) -> (current.apply() != null) ? current.apply().batchesApplied() : 0);
		meters.tagged("outcome", "failed").counter("cdc.apply.statements", description,
				(current) -> (current.apply() != null) ? current.apply().batchesFailed() : 0);
		meters.counter("cdc.apply.rows.upserted", "Row images the table's statements wrote",
				(current) -> (current.apply() != null) ? current.apply().rowsUpserted() : 0);
		meters.counter("cdc.apply.keys.deleted", "Keys the table's statements deleted",
				(current) -> (current.apply() != null) ? current.apply().keysDeleted() : 0);
		meters.counter("cdc.apply.contention", "Deadlocks and lock wait timeouts the table's statements met",
				(current) -> (current.apply() != null) ? current.apply().contentionEvents() : 0);
		meters.counter("cdc.apply.retries", "Statements run again after contention",
				(current) -> (current.apply() != null) ? current.apply().retries() : 0);
		meters.gauge("cdc.apply.concurrency", null, "Statements allowed at once now; halved on contention, grown "
				+ "back slowly", (current) -> (current.apply() != null) ? current.apply().concurrency() : Double.NaN);
		meters.gauge("cdc.apply.concurrency.max", null, "The configured most statements at once",
				(current) -> (current.apply() != null) ? current.apply().maxConcurrency() : Double.NaN);
	}

	private static void copy(StatusMeters<TableStatus> meters) {
		meters.counter("cdc.copy.rows", "Rows the table's snapshot copied; starts again at 0 when the table is "
				+ "snapshotted again", TableStatus::rowsCopied);
		meters.gauge("cdc.copy.rows.estimated", null, "Estimated rows of the source table, as the snapshot saw it",
				TableStatus::rowsEstimated);
		meters.counter("cdc.copy.chunks", "Snapshot chunks copied", TableStatus::chunksCopied);
		meters.gauge("cdc.copy.rows.per.second", null, "Rows the snapshot copied per second lately; 0 when not "
				+ "snapshotting", TableStatus::copyRowsPerSecond);
		meters.timeGauge("cdc.copy.eta", TimeUnit.SECONDS, "Time until the snapshot has copied the estimated rows "
				+ "at its current rate; NaN when unknown",
				(current) -> (current.copyEtaSeconds() != null) ? current.copyEtaSeconds() : Double.NaN);
		meters.flag("cdc.copy.complete", "Whether the table's existing rows have all been copied, or it resumed past "
				+ "its snapshot", TableStatus::snapshotDone);
	}

	/** Read from the sink's status, which exists once the table opened its topic; 0 before. */
	private static void kafka(StatusMeters<TableStatus> meters) {
		meters.counter("cdc.kafka.records.sent", "Records of the table the Kafka brokers acknowledged",
				(current) -> (current.sink() != null) ? current.sink().recordsSent() : 0);
		meters.counter("cdc.kafka.send.errors", "Records of the table Kafka did not acknowledge; each failed its "
				+ "flush, whose changes were sent again",
				(current) -> (current.sink() != null) ? current.sink().sendErrors() : 0);
	}

	private static void checksum(StatusMeters<TableStatus> meters) {
		meters.gauge("cdc.checksum.chunks.checked", null, "Chunks the latest checksum pass compared",
				(current) -> current.checksum().chunksChecked());
		meters.gauge("cdc.checksum.chunks.differing", null, "Chunks that differed at first in the latest checksum "
				+ "pass, changes still on their way included", (current) -> current.checksum().chunksDiffering());
		meters.gauge("cdc.checksum.chunks.rechecked.differing", null, "Chunks that still differed in the latest "
				+ "checksum pass once the changes up to their first read were applied",
				(current) -> current.checksum().chunksRecheckedStillDiffering());
		meters.gauge("cdc.checksum.chunks.repaired", null, "Chunks the latest checksum pass copied again and found "
				+ "equal afterwards", (current) -> current.checksum().chunksRepaired());
		meters.gauge("cdc.checksum.rows", null, "Source rows the latest checksum pass compared",
				(current) -> current.checksum().rowsChecked());
	}

}
