package io.tributary.subscription;

import io.tributary.schema.RowKey;

/**
 * A copier's position as the drain sees it: how far chunks have been dispatched and landed. The
 * drain reads it after the last add it is about to judge, never before (see
 * {@link BufferedSubscription#drain}).
 */
@FunctionalInterface
public interface Watermarks {

	/** No copy in progress: every change applies. */
	Watermarks NONE = (key) -> Verdict.APPLY;

	/**
	 * Classifies a buffered key.
	 * @param key the key
	 * @return what to do with its change
	 */
	Verdict classify(RowKey key);

	/** Whether every key applies, so a drain may take everything without asking key by key. */
	default boolean appliesAll() {
		return this == NONE;
	}

}
