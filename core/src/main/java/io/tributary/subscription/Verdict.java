package io.tributary.subscription;

/** What a drain does with one buffered change, given where the copier is. */
public enum Verdict {

	/** The copier has landed this key's chunk (or no copy runs): apply the change now. */
	APPLY,

	/** A chunk covering the key is being read or written: keep the change until it lands. */
	DEFER,

	/**
	 * The copier has not dispatched a chunk covering the key, and its later read is guaranteed to
	 * see this change's transaction: the change may be dropped.
	 */
	DROP

}
