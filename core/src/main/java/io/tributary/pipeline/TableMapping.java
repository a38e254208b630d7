package io.tributary.pipeline;

import java.util.List;
import java.util.Objects;

import io.tributary.apply.TableSink;
import io.tributary.apply.TargetSlice;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.source.StartPoint;

/**
 * One table to replicate and where to: a target table, or a {@link TableSink}.
 *
 * @param source the source table
 * @param destination where its changes go: a {@link Destination.Table} without a sink, the sink's
 * destination (see {@link TableSink#destination}) with one
 * @param key columns of a NOT NULL unique key to merge changes by instead of the primary key;
 * empty for the primary key
 * @param snapshot when the table's existing rows are copied
 * @param sink where the table's changes go instead of a target table, or {@code null} to copy it
 * into the target table its destination names
 * @param rule the name of the {@link TableRule} that took the table, or {@code null} for a table
 * listed on its own
 * @param start where the table starts streaming when it is not copied and has no checkpoint, or
 * {@code null} for the source's head; a start point means the table is never copied, so it goes
 * with the snapshot modes {@code AUTO} (made {@code NEVER}) and {@code NEVER} only
 * @param slice the part of the target table the table owns when several are merged into it
 * (shards), or {@code null} when the target is its alone
 */
public record TableMapping(TableId source, Destination destination, List<String> key, SnapshotMode snapshot,
		TableSink sink, String rule, StartPoint start, TargetSlice slice) {

	public TableMapping {
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(destination, "destination");
		key = (key != null) ? List.copyOf(key) : List.of();
		snapshot = (snapshot != null) ? snapshot : SnapshotMode.AUTO;
		if (start != null && snapshot == SnapshotMode.AUTO) {
			snapshot = SnapshotMode.NEVER;
		}
		if (slice != null && sink != null) {
			throw new IllegalArgumentException("Table " + source + " goes to " + destination + ", which cannot be "
					+ "shared with other tables; only a target table can");
		}
		if (start != null && snapshot != SnapshotMode.NEVER) {
			throw new IllegalArgumentException("Table " + source + " has a start point (" + start + ") and snapshot "
					+ "mode " + snapshot + ": a start point is where a table streams from without a copy, so it goes "
					+ "with snapshot mode never (or auto) only");
		}
		if ((sink == null) != (destination instanceof Destination.Table)) {
			throw new IllegalArgumentException("Table " + source + " goes to " + destination + ((sink != null)
					? ", which is no sink's destination" : ", which needs a sink"));
		}
	}

	/** Maps a table to a destination of its own, streaming from the head when it is not copied. */
	public TableMapping(TableId source, Destination destination, List<String> key, SnapshotMode snapshot,
			TableSink sink, String rule) {
		this(source, destination, key, snapshot, sink, rule, null, null);
	}

	/** Maps a table listed on its own to a destination. */
	public TableMapping(TableId source, Destination destination, List<String> key, SnapshotMode snapshot,
			TableSink sink) {
		this(source, destination, key, snapshot, sink, null);
	}

	/** Maps a table to a target table. */
	public TableMapping(TableId source, TableId target, List<String> key, SnapshotMode snapshot) {
		this(source, new Destination.Table(target), key, snapshot, null);
	}

	/**
	 * Maps a table whose changes go to a sink instead of a target table.
	 * @param source the source table
	 * @param key columns of a NOT NULL unique key to merge changes by; empty for the primary key
	 * @param snapshot when the table's existing rows are copied
	 * @param sink where its changes go
	 * @return the mapping
	 */
	public static TableMapping toSink(TableId source, List<String> key, SnapshotMode snapshot, TableSink sink) {
		Objects.requireNonNull(sink, "sink");
		return new TableMapping(source, sink.destination(source), key, snapshot, sink);
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
	 * Returns this mapping going to {@code other} instead, with the sink's destination, so that a
	 * checkpoint written while the table went elsewhere is not taken for one of the sink's, and the
	 * other way round.
	 */
	TableMapping withSink(TableSink other) {
		return new TableMapping(this.source, other.destination(this.source), this.key, this.snapshot, other, this.rule,
				this.start, null);
	}

	/** Returns this mapping as taken by the named rule. */
	TableMapping takenBy(String name) {
		return new TableMapping(this.source, this.destination, this.key, this.snapshot, this.sink, name, this.start,
				this.slice);
	}

	/**
	 * Returns this mapping starting at {@code point} when it is not copied and has no checkpoint.
	 * @throws IllegalArgumentException when its snapshot mode copies it
	 */
	public TableMapping startingAt(StartPoint point) {
		return new TableMapping(this.source, this.destination, this.key, this.snapshot, this.sink, this.rule, point,
				this.slice);
	}

	/**
	 * Returns this mapping writing to its slice of a target table that other tables are merged
	 * into too; {@code null} for a target of its own.
	 */
	public TableMapping slicedBy(TargetSlice other) {
		return new TableMapping(this.source, this.destination, this.key, this.snapshot, this.sink, this.rule, this.start,
				other);
	}

	/** Returns whether the table's changes go to a sink rather than a target table. */
	public boolean hasSink() {
		return this.sink != null;
	}

	/**
	 * Returns the target table the changes are written to.
	 * @throws IllegalStateException when they go to a sink instead
	 */
	public TableId target() {
		if (this.destination instanceof Destination.Table table) {
			return table.id();
		}
		throw new IllegalStateException("Table " + this.source + " goes to " + this.destination + ", not to a table");
	}

}
