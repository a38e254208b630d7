package io.tributary.pipeline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.tributary.apply.ApplierCounters;
import io.tributary.apply.ParallelApplier;
import io.tributary.checksum.ChecksumProgress;
import io.tributary.copy.Copier;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;
import io.tributary.source.Position;
import io.tributary.status.TableDetail;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.subscription.BufferedSubscription;
import io.tributary.subscription.SubscriptionCounters;

/**
 * Reads one table's state into the immutable status and detail the endpoint, health, metrics and
 * pages show. Reads only: every value is read once, without locking, from the table's owners.
 */
final class TableReport {

	private TableReport() {
	}

	static TableStatus status(TableRuntime table, Position delivered, TableStatus.Events events) {
		BufferedSubscription buffer = table.wiring.subscription();
		SubscriptionCounters counters = (buffer != null) ? buffer.counters()
				: new SubscriptionCounters(0, 0, 0, 0, 0, 0, 0, -1, 0, 0);
		Copier copy = table.wiring.copier();
		boolean snapshotting = copy != null && table.phase() == Phase.SNAPSHOTTING;
		Position position = table.confirmed();
		boolean flushed = counters.bufferedKeys() == 0 && position != null && position.equals(table.intake.delivered(delivered));
		return TableStatus.builder(table.mapping.source().toString(), table.mapping.destination(), table.phase())
			.rule(table.mapping.rule())
			.copy(new TableStatus.Copy((copy != null) ? copy.rowsCopied() : 0, (copy != null) ? copy.rowsEstimated() : 0,
					(copy != null) ? copy.chunksCopied() : 0, snapshotting ? copy.rowsPerSecond() : 0,
					snapshotting ? copy.etaSeconds() : null, table.snapshotDone()))
			.buffer(new TableStatus.Buffer(counters.bufferedKeys(), counters.bufferedBytes() + counters.inFlightBytes(),
					counters.softLimitBytes(), counters.keysAdded(), counters.droppedAboveHighWatermark(),
					counters.deferredInFlight(), counters.parks(), counters.parkedMillis(), counters.budgetParks()))
			.flushing(new TableStatus.Flushing(table.changesApplied(), flushed, (position != null) ? position.toString() : null,
					table.lastFlush(), table.flushTotals()))
			.apply(apply(table))
			.checksum(checksum(table))
			.lastAction(table.lastAction())
			.events(events)
			.lastError(table.lastError())
			.sink((table.wiring.sink() != null) ? table.wiring.sink().status() : null)
			.build();
	}

	/** See {@link Pipeline#detail(io.tributary.name.TableId)}. */
	static TableDetail detail(TableRuntime table, Position delivered, TableStatus.Events events) {
		TableLayout current = table.wiring.layout();
		List<TableDetail.ColumnInfo> columns = new ArrayList<>();
		List<String> key = new ArrayList<>();
		if (current != null) {
			for (Column column : current.columns()) {
				boolean inKey = Arrays.stream(current.keyColumns()).anyMatch((ordinal) -> ordinal == column.ordinal());
				columns.add(new TableDetail.ColumnInfo(column.name(), column.columnType(), column.nullable(), inKey));
			}
			current.keys().forEach((column) -> key.add(column.name()));
		}
		ParallelApplier writing = table.wiring.writer();
		return new TableDetail(status(table, delivered, events), columns, key,
				(writing != null) ? writing.partitionIndexes() : List.of(), table.lastCheckpoint(),
				table.timeline.snapshot());
	}

	private static TableStatus.Checksum checksum(TableRuntime table) {
		ChecksumProgress current = table.checksums.latest();
		return (current != null) ? current.snapshot() : TableStatus.Checksum.IDLE;
	}

	private static TableStatus.Apply apply(TableRuntime table) {
		ParallelApplier current = table.wiring.writer();
		ApplierCounters counters;
		if (current != null) {
			counters = current.counters();
		}
		else if (table.wiring.sink() != null) {
			counters = table.wiring.sink().counters();
		}
		else {
			return null;
		}
		return new TableStatus.Apply(counters.batchesApplied(), counters.batchesFailed(), counters.rowsUpserted(),
				counters.keysDeleted(), counters.contentionEvents(), counters.retries(), counters.concurrency(),
				counters.maxConcurrency());
	}

}
