package io.tributary.apply;

import java.util.List;

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
	 * Deletes rows by key (in key-column order); absent keys are not an error.
	 * @param keys the keys
	 * @throws ApplyException when the write fails
	 */
	void delete(List<Object[]> keys);

}
