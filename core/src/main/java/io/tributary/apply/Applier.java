package io.tributary.apply;

import java.util.List;

import io.tributary.source.Position;

/**
 * Writes the final state of changed rows to wherever a table is copied to. Both operations are
 * idempotent: applying the same images or deletes twice leaves the same result, which is what
 * lets a restart replay changes that were already applied.
 */
public interface Applier {

	/**
	 * Inserts or replaces full row images (in source column order).
	 * @param rows the rows
	 * @throws ApplyException when the write fails
	 */
	void upsert(List<Object[]> rows);

	/**
	 * Inserts or replaces the rows of a snapshot chunk (in source column order), as one write: the
	 * same result as {@link #upsert}, which the default calls; an applier may write a chunk's many
	 * rows in a cheaper way of its own.
	 * @param rows the rows
	 * @throws ApplyException when the write fails
	 */
	default void upsertChunk(List<Object[]> rows) {
		upsert(rows);
	}

	/**
	 * Deletes rows by key (in key-column order); absent keys are not an error.
	 * @param keys the keys
	 * @throws ApplyException when the write fails
	 */
	void delete(List<Object[]> keys);

	/**
	 * Applies one drain of a table: row images and deleted keys of distinct keys (no key appears
	 * twice across both lists), so their order does not matter for the result. The default
	 * deletes first, then upserts.
	 * @param upserts full row images (in source column order)
	 * @param deletedKeys keys of deleted rows (in key-column order)
	 * @param coveredUpTo the source position through which changes of the table had been read
	 * when the drain was taken, or {@code null} when unknown (snapshot rows)
	 * @throws ApplyException when the write fails; the caller then keeps all of the changes and
	 * applies them again later
	 */
	default void apply(List<Object[]> upserts, List<Object[]> deletedKeys, Position coveredUpTo) {
		if (!deletedKeys.isEmpty()) {
			delete(deletedKeys);
		}
		if (!upserts.isEmpty()) {
			upsert(upserts);
		}
	}

}
