package io.tributary.pipeline;

/**
 * What to do when a table's checkpoint cannot be resumed without loss: the source no longer has
 * the binlog file it points into (purged, or the server was rebuilt), or the offset lies beyond
 * the end of that file.
 */
public enum InvalidCheckpointBehavior {

	/** Stop the table with an error that names both ways out. */
	ERROR,

	/** Drop the position and snapshot the table again. */
	RESTART

}
