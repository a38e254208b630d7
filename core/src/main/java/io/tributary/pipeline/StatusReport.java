package io.tributary.pipeline;

import java.time.Instant;
import java.util.List;

import io.tributary.source.Position;
import io.tributary.source.binlog.BinlogChangeSource;
import io.tributary.source.binlog.ServerInfo;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * Builds a pipeline's status from its runtime without locking: every field read is volatile or
 * a counter, so a status may mix values a few microseconds apart but never blocks the pipeline.
 */
final class StatusReport {

	private StatusReport() {
	}

	/** See {@link Pipeline#status()}. */
	static PipelineStatus of(PipelineRuntime run) {
		BinlogChangeSource reader = run.reader;
		Position delivered = reader.delivered();
		List<TableStatus> tableStatus = run.tables().stream()
			.map((table) -> table.status(delivered, reader.rowEvents(table.mapping.source())))
			.toList();
		Position confirmed = run.confirmed();
		Position head = run.sourceHead;
		// Behind only while the reader has not reached the head last seen; an idle source sends
		// heartbeats, not events, so the newest event's age alone would read as growing lag.
		long lastEvent = reader.lastEventTimestamp();
		boolean behind = head != null && delivered != null && reader.isPositioned() && delivered.compareTo(head) < 0;
		long lag = (behind && lastEvent > 0) ? Math.max(0, System.currentTimeMillis() - lastEvent) : 0;
		ServerInfo info = run.server;
		PipelineSettings settings = run.settings;
		// Until it is prepared the pipeline has no reader; its failed attempts to prepare stand for one.
		Instant disconnectedSince = (run.state == PipelineStatus.State.STARTING) ? run.preparingFailedSince
				: reader.disconnectedSince();
		return new PipelineStatus(settings.name(), run.state,
				new PipelineStatus.Source(settings.source().host(), settings.source().port(),
						settings.source().serverId(), (info != null) ? info.flavor().name() : null,
						(info != null) ? info.version() : null, (info != null) ? info.gtidMode() : null,
						reader.isConnected(), disconnectedSince, reader.reconnects(), reader.eventsRead(),
						reader.lastError()),
				new PipelineStatus.Positions((delivered != null) ? delivered.toString() : null,
						(confirmed != null) ? confirmed.toString() : null, (head != null) ? head.toString() : null),
				lag, lagBytes(confirmed, head), tableStatus, run.startedAt, run.lastError, reader.positionsByGtid(),
				new PipelineStatus.Counters(reader.transactions(), reader.decodeErrors(), reader.schemaMismatches(),
						run.checkpointWrites, run.checkpointFailures));
	}

	/**
	 * Returns the binlog bytes between a position and the head when both are in the same file,
	 * 0 when the position is at or past the head, and {@code null} when they are in different files.
	 */
	static Long lagBytes(Position position, Position head) {
		if (position == null || head == null) {
			return null;
		}
		if (position.compareTo(head) >= 0) {
			return 0L;
		}
		return position.file().equals(head.file()) ? head.offset() - position.offset() : null;
	}

}
