package io.tributary.autoconfigure.metrics;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

import io.tributary.autoconfigure.TableTrouble;
import io.tributary.source.Position;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * The meters of one pipeline: its state, the source connection, the stream, lag, the buffer budget,
 * positions, checkpoints.
 */
final class PipelineMeters {

	private PipelineMeters() {
	}

	static void register(MeterRegistry registry, RecentStatus status, String pipeline) {
		StatusMeters<PipelineStatus> meters = new StatusMeters<>(registry, status, Tags.of("pipeline", pipeline));
		for (PipelineStatus.State state : PipelineStatus.State.values()) {
			meters.tagged("state", state.name().toLowerCase(Locale.ROOT))
				.flag("cdc.pipeline.state", "1 for the pipeline's current state, 0 for the others",
						(current) -> current.state() == state);
		}
		meters.flag("cdc.source.connected", "Whether the binlog connection to the source is up",
				(current) -> current.source().connected());
		meters.counter("cdc.source.reconnects", "Times the binlog connection was made again after it dropped or failed",
				(current) -> current.source().reconnects());
		meters.flag("cdc.source.gtid",
				"Whether the reader follows the source by GTID (MySQL auto-positioning, MariaDB GTID list) rather "
						+ "than by binlog file and offset",
				PipelineStatus::positionsByGtid);
		meters.counter("cdc.binlog.events", "Binlog events read, of every kind, heartbeats included",
				(current) -> current.source().eventsRead());
		meters.counter("cdc.transactions", "Transactions read from the binlog; a DDL statement counts as one",
				(current) -> current.counters().transactions());
		meters.counter("cdc.decode.errors", "Binlog events, or row events of a replicated table, that could not be "
				+ "decoded", (current) -> current.counters().decodeErrors());
		meters.counter("cdc.schema.mismatches", "Schema changes read from the stream that stopped a table",
				(current) -> current.counters().schemaMismatches());
		meters.timeGauge("cdc.lag", TimeUnit.MILLISECONDS, "Now minus the source timestamp of the newest event read "
				+ "while the reader is behind the source head; 0 at the head", PipelineStatus::lagMillis);
		meters.gauge("cdc.lag.bytes", BaseUnits.BYTES, "Binlog bytes between the confirmed position and the source "
				+ "head; NaN while they are in different binlog files",
				(current) -> (current.lagBytes() != null) ? current.lagBytes() : Double.NaN);
		meters.gauge("cdc.buffer.budget", BaseUnits.BYTES, "cdc.buffer.budget: bytes the buffers of all the "
				+ "pipeline's tables hold together at which the reader waits for room; NaN without a budget",
				(current) -> (current.buffers().budgetBytes() >= 0) ? current.buffers().budgetBytes() : Double.NaN);
		meters.gauge("cdc.buffer.budget.held", BaseUnits.BYTES, "Estimated bytes of the changes all the pipeline's "
				+ "tables hold: buffered plus being applied (what cdc.buffer.budget bounds)",
				(current) -> current.buffers().heldBytes());
		meters.counter("cdc.buffer.budget.parks", "Times the reader waited for room under the pipeline's buffer budget",
				(current) -> current.buffers().parkEvents());
		position(meters.tagged("position", "head"), (current) -> current.position().sourceHead());
		position(meters.tagged("position", "delivered"), (current) -> current.position().delivered());
		position(meters.tagged("position", "confirmed"), (current) -> current.position().confirmed());
		meters.counter("cdc.checkpoint.writes", "Checkpoint writes that succeeded",
				(current) -> current.counters().checkpointWrites());
		meters.counter("cdc.checkpoint.failures", "Checkpoint writes that failed; retried at the next cycle",
				(current) -> current.counters().checkpointFailures());
		tableTotals(meters);
	}

	/** What the pipeline's tables add up to, registered whichever tables have meters of their own. */
	private static void tableTotals(StatusMeters<PipelineStatus> meters) {
		for (TableStatus.Phase phase : TableStatus.Phase.values()) {
			meters.tagged("phase", phase.name().toLowerCase(Locale.ROOT))
				.gauge("cdc.pipeline.tables", null, "Tables of the pipeline in each phase",
						(current) -> current.tables().stream().filter((table) -> table.phase() == phase).count());
		}
		meters.gauge("cdc.pipeline.tables.trouble", null, "Tables that need attention: failed, flush failing, dropped, "
				+ "paused, catching up, snapshotting or starting",
				(current) -> current.tables().stream().filter((table) -> TableTrouble.of(table) != null).count());
		meters.counter("cdc.pipeline.changes.applied", "Row images and deletes applied to the target by all the "
				+ "pipeline's tables", (current) -> current.tables().stream().mapToLong(TableStatus::changesApplied).sum());
		meters.gauge("cdc.pipeline.buffer.bytes", BaseUnits.BYTES, "Estimated bytes of the changes held by all the "
				+ "pipeline's tables", (current) -> current.tables().stream().mapToLong(TableStatus::bufferedBytes).sum());
	}

	private static void position(StatusMeters<PipelineStatus> meters, Function<PipelineStatus, String> position) {
		meters.gauge("cdc.binlog.file", null, "Sequence number of the binlog file of a position (the suffix of its "
				+ "name)", (current) -> file(position.apply(current)));
		meters.gauge("cdc.binlog.offset", BaseUnits.BYTES, "Offset of a position in its binlog file",
				(current) -> offset(position.apply(current)));
	}

	private static double file(String position) {
		Position parsed = parse(position);
		return (parsed != null && parsed.fileSequence() >= 0) ? parsed.fileSequence() : Double.NaN;
	}

	private static double offset(String position) {
		Position parsed = parse(position);
		return (parsed != null) ? parsed.offset() : Double.NaN;
	}

	private static Position parse(String position) {
		if (position == null) {
			return null;
		}
		try {
			return Position.parse(position);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
