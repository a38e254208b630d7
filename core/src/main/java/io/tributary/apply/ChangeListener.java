package io.tributary.apply;

/**
 * Receives a table's changes as batches, for applications that process changes themselves
 * instead of having Tributary write them to a target table. Adapted to the pipeline by
 * {@link ListenerApplier}.
 *
 * <p>Delivery is <em>at least once</em>. The position up to which a table's changes have been
 * handled is checkpointed now and then, not after every batch; after a restart everything since
 * the last checkpoint is delivered again, and so are snapshot rows of a table whose snapshot had
 * not finished.
 *
 * <p>Batches of one table arrive one at a time and in order, but a batch may repeat changes an
 * earlier one already carried. A batch holds the latest state of each key it covers, not every
 * intermediate change: a key updated many times arrives once, with its last image. The listener
 * must therefore be idempotent and apply the final image by key: an upsert replaces whatever is
 * stored for the row's key, a deleted key is removed whether or not it is stored.
 *
 * <p>When {@link #onChanges} throws, the batch counts as not delivered: Tributary keeps its
 * changes and delivers them again (merged with newer changes of the same keys) after a growing
 * pause, for as long as it keeps failing, and never advances the table's checkpoint past them.
 */
@FunctionalInterface
public interface ChangeListener {

	/**
	 * Handles one batch of one table's changes; return only once they are safely handled. Calls
	 * for one table never overlap, but calls for different tables may come from different threads
	 * (a snapshot runs beside streaming), so a listener shared by several tables must be
	 * thread-safe.
	 * @param batch the changes
	 * @throws Exception to have the batch delivered again later
	 */
	void onChanges(ChangeBatch batch) throws Exception;

}
