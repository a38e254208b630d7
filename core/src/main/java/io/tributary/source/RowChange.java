package io.tributary.source;

import io.tributary.name.TableId;

/**
 * One row-level change read from the source: either the full new image of a row (an insert, or
 * the after-image of an update) or the deletion of a key. An update that changes the primary key
 * arrives as a delete of the old key followed by an image under the new key.
 *
 * <p>Values are in Tributary's canonical form (see {@code io.tributary.schema.ColumnType}); the
 * key is the projection of the row onto the table's key columns.
 *
 * @param table the table the row belongs to
 * @param key the row's key values, in key-column order
 * @param image the full row in column order, or {@code null} for a delete
 * @param sourceMillis when the source logged the change (its binlog event's timestamp, whole
 * seconds, in epoch milliseconds), or 0 when unknown
 */
public record RowChange(TableId table, Object[] key, Object[] image, long sourceMillis) {

	/** Creates a change whose time on the source is unknown. */
	public RowChange(TableId table, Object[] key, Object[] image) {
		this(table, key, image, 0);
	}

	/** Returns whether this change removes the key. */
	public boolean isDelete() {
		return this.image == null;
	}

}
