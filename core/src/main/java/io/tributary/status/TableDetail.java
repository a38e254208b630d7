package io.tributary.status;

import java.time.Instant;
import java.util.List;

/**
 * What a table's own page shows beyond its counters: its layout as replicated, the unique indexes
 * its flushes are partitioned by, the checkpoint last saved for it, and its recent events.
 *
 * @param status the table's counters, as in {@link PipelineStatus#tables()}
 * @param columns the columns replicated, in row-image order; empty before the layout is read
 * @param keyColumns the names of the key columns, in key order
 * @param partitionIndexes the target's unique secondary indexes that flushes are sorted and cut
 * by, such as {@code uk_email(email)}; empty when flushes are split by size only or the changes go
 * to a listener
 * @param checkpoint the checkpoint last saved for the table by this run, or {@code null} before
 * the first
 * @param timeline the table's recent events, oldest first, at most {@link #TIMELINE_LENGTH}
 */
public record TableDetail(TableStatus status, List<ColumnInfo> columns, List<String> keyColumns,
		List<String> partitionIndexes, Checkpoint checkpoint, List<TableEvent> timeline) {

	/** How many recent events a table keeps; older ones are forgotten. */
	public static final int TIMELINE_LENGTH = 200;

	public TableDetail {
		columns = List.copyOf(columns);
		keyColumns = List.copyOf(keyColumns);
		partitionIndexes = List.copyOf(partitionIndexes);
		timeline = List.copyOf(timeline);
	}

	/**
	 * One replicated column.
	 *
	 * @param name column name
	 * @param type the source's full column type, such as {@code int(10) unsigned}
	 * @param nullable whether it accepts NULL
	 * @param key whether it is part of the replication key
	 */
	public record ColumnInfo(String name, String type, boolean nullable, boolean key) {

	}

	/**
	 * A checkpoint as written to the checkpoint store.
	 *
	 * @param position the position the table resumes from after a restart
	 * @param snapshotDone whether the snapshot had finished; if not, a restart continues it
	 * @param savedAt when it was written
	 */
	public record Checkpoint(String position, boolean snapshotDone, Instant savedAt) {

	}

}
