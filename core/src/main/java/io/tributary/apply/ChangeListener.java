package io.tributary.apply;

import io.tributary.name.TableId;

/**
 * Receives a table's changes as batches, for applications that process changes themselves
 * instead of having Tributary write them to a target table (listener mode, see
 * {@code PipelineSettings.withListener}). Adapted to the pipeline by {@link ListenerApplier}.
 *
 * <p><strong>At least once.</strong> The position up to which a table's changes have been handled
 * is checkpointed now and then, not after every batch; after a restart everything since the last
 * checkpoint is delivered again, and so are snapshot rows of a table whose snapshot had not
 * finished. A batch may also repeat changes an earlier one already carried.
 *
 * <p><strong>Final state, idempotent.</strong> A batch holds the latest state of each key it
 * covers, not every intermediate change: a key updated many times arrives once, with its last
 * image, and a primary key that changed arrives as a delete of the old key and an upsert of the
 * new one. The listener must therefore apply the final image by key: an upsert replaces whatever
 * is stored for the row's key, a deleted key is removed whether or not it is stored. Applied that
 * way, receiving a batch twice changes nothing.
 *
 * <p><strong>Order.</strong> Batches of one table arrive one at a time, never overlapping, and
 * each key's changes arrive in the order the source made them. Snapshot rows come in chunks that
 * do not overlap by key; a change to a row of a chunk is delivered only after the chunk. Batches
 * of different tables are independent of each other and carry no order between them.
 *
 * <p><strong>Threads.</strong> Streamed changes are delivered on the pipeline's control thread,
 * snapshot chunks on the snapshot's worker threads, and truncations on the binlog reader thread.
 * Calls for one table never overlap, but calls for different tables may come from different
 * threads at once, so a listener shared by several tables must be thread-safe. A slow listener
 * slows replication down; it does not lose changes.
 *
 * <p><strong>Failure.</strong> When {@link #onChanges} throws, the batch counts as not delivered:
 * Tributary keeps its changes and delivers them again (merged with newer changes of the same keys)
 * after a growing pause (100 ms, doubling up to 30 s), for as long as it keeps failing, and never
 * advances the table's checkpoint past them. A snapshot chunk is delivered again the same way;
 * the snapshot does not move past it.
 */
@FunctionalInterface
public interface ChangeListener {

	/**
	 * Handles one batch of one table's changes; return only once they are safely handled.
	 * @param batch the changes
	 * @throws Exception to have the batch delivered again later
	 */
	void onChanges(ChangeBatch batch) throws Exception;

	/**
	 * Handles a {@code TRUNCATE TABLE} of a replicated table on the source: every row the
	 * listener holds for it is gone. Changes of the table buffered before the truncation are
	 * discarded, not delivered; batches delivered after this call describe rows written after
	 * it. Called on the binlog reader thread, never at the same time as {@link #onChanges} for the
	 * same table.
	 *
	 * <p>The default throws {@link UnsupportedOperationException}: a listener that does not say
	 * how to forget a table's rows would otherwise keep rows the source no longer has. The table
	 * then stops (phase {@code FAILED}) with an error saying what to do; the other tables go on.
	 * An override that throws stops the table the same way, since the truncation cannot be read
	 * again without a new snapshot.
	 * @param table the source table that was truncated
	 * @throws Exception when the truncation could not be handled
	 */
	default void onTruncate(TableId table) throws Exception {
		throw new UnsupportedOperationException("The ChangeListener does not handle TRUNCATE (override "
				+ "ChangeListener.onTruncate)");
	}

}
