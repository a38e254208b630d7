package io.tributary.pipeline;

/**
 * When a table's existing rows are copied.
 */
public enum SnapshotMode {

	/** When the table has no usable checkpoint; otherwise resume from it (or from a half-done copy). */
	AUTO,

	/** At every start, whatever the checkpoint says. */
	ALWAYS,

	/** Never: a table without a checkpoint streams from the source's current position. */
	NEVER

}
