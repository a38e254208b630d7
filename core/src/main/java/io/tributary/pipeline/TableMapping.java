package io.tributary.pipeline;

import java.util.List;
import java.util.Objects;

import io.tributary.apply.TableSink;
import io.tributary.name.TableId;

/**
 * One table to replicate and where to: a target table, or a {@link TableSink}.
 *
 * @param source the source table
 * @param target the target table; for a table going to a sink, the sink's label for it (see
 * {@link TableSink#label})
 * @param key columns of a NOT NULL unique key to merge changes by instead of the primary key;
 * empty for the primary key
 * @param snapshot when the table's existing rows are copied
 * @param sink where the table's changes go instead of a target table, or {@code null} to copy it
 * into {@code target}
 */
public record TableMapping(TableId source, TableId target, List<String> key, SnapshotMode snapshot, TableSink sink) {

	public TableMapping {
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(target, "target");
		key = (key != null) ? List.copyOf(key) : List.of();
		snapshot = (snapshot != null) ? snapshot : SnapshotMode.AUTO;
	}

	/** Maps a table to a target table. */
	public TableMapping(TableId source, TableId target, List<String> key, SnapshotMode snapshot) {
		this(source, target, key, snapshot, null);
	}

	/**
	 * Maps a table whose changes go to a sink instead of a target table; its target is the sink's
	 * label for it.
	 * @param source the source table
	 * @param key columns of a NOT NULL unique key to merge changes by; empty for the primary key
	 * @param snapshot when the table's existing rows are copied
	 * @param sink where its changes go
	 * @return the mapping
	 */
	public static TableMapping toSink(TableId source, List<String> key, SnapshotMode snapshot, TableSink sink) {
		Objects.requireNonNull(sink, "sink");
		return new TableMapping(source, sink.label(source), key, snapshot, sink);
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
	 * Returns this mapping going to {@code other} instead: its target becomes the sink's label, which
	 * no target table has, so a checkpoint written while the table went elsewhere is not taken for
	 * one of the sink's, and the other way round.
	 */
	TableMapping withSink(TableSink other) {
		return toSink(this.source, this.key, this.snapshot, other);
	}

	/** Returns whether the table's changes go to a sink rather than a target table. */
	public boolean hasSink() {
		return this.sink != null;
	}

}
