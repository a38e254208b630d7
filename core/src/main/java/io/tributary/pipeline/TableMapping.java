package io.tributary.pipeline;

import java.util.List;
import java.util.Objects;

import io.tributary.source.TableId;

/**
 * One table to replicate and where to.
 *
 * @param source the source table
 * @param target the target table
 * @param key columns of a NOT NULL unique key to merge changes by instead of the primary key;
 * empty for the primary key
 * @param snapshot when the table's existing rows are copied
 */
public record TableMapping(TableId source, TableId target, List<String> key, SnapshotMode snapshot) {

	public TableMapping {
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(target, "target");
		key = (key != null) ? List.copyOf(key) : List.of();
		snapshot = (snapshot != null) ? snapshot : SnapshotMode.AUTO;
	}

	/** Maps a table keyed by its primary key, snapshotted when it has no checkpoint. */
	public TableMapping(TableId source, TableId target) {
		this(source, target, List.of(), SnapshotMode.AUTO);
	}

	/** Maps a table keyed by the given columns, snapshotted when it has no checkpoint. */
	public TableMapping(TableId source, TableId target, List<String> key) {
		this(source, target, key, SnapshotMode.AUTO);
	}

	/**
	 * Returns this mapping for listener mode: its target becomes {@code (listener).<table>}, a
	 * label no target table has, which the checkpoint and the status show in place of a target.
	 * A checkpoint written while the table went to a target table is therefore not taken for one
	 * of the listener, and the other way round.
	 */
	TableMapping toListener() {
		return new TableMapping(this.source, new TableId(LISTENER_SCHEMA, this.source.table()), this.key,
				this.snapshot);
	}

	/** Schema part of the target label of tables in listener mode. */
	static final String LISTENER_SCHEMA = "(listener)";

}
