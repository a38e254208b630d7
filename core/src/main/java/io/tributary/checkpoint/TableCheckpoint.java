package io.tributary.checkpoint;

import java.time.Instant;

import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.source.Position;

/**
 * What is durably known about one replicated table.
 *
 * @param source the source table
 * @param target where the table's changes went when this checkpoint was written
 * @param snapshotDone whether its snapshot finished; if not, a restart snapshots it again
 * @param position the binlog position from which every change of this table not yet in the
 * target can be read again
 * @param copiedUpTo while the snapshot runs, the highest key whose chunk has landed (every key at
 * or below it is in the target), so a restart continues after it; {@code null} otherwise
 * @param updatedAt when this checkpoint was written
 * @param ended whether the table was copied once and stopped (snapshot mode {@code only}): its
 * target equals the source table at {@code position}, and it is not read further
 */
public record TableCheckpoint(TableId source, Destination target, boolean snapshotDone, Position position,
		Object[] copiedUpTo, Instant updatedAt, boolean ended) {

	/** A checkpoint of a table that goes on streaming. */
	public TableCheckpoint(TableId source, Destination target, boolean snapshotDone, Position position,
			Object[] copiedUpTo, Instant updatedAt) {
		this(source, target, snapshotDone, position, copiedUpTo, updatedAt, false);
	}

}
