package io.tributary.pipeline;

/**
 * When a table's existing rows are copied.
 */
public enum SnapshotMode {

	/** When the table has no usable checkpoint; otherwise resume from it (or from a half-done copy). */
	AUTO,

	/** At every start, whatever the checkpoint says. */
	ALWAYS,

	/**
	 * Never: a table without a checkpoint streams from its start point (by default the source's
	 * current position).
	 */
	NEVER,

	/**
	 * Like {@link #AUTO}, then the table stops once its copy is applied and caught up: a one-shot
	 * copy. It stays {@code COPIED} at the position its target equals, across restarts.
	 */
	ONLY

}
