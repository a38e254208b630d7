package io.tributary.apply;

/**
 * A {@link TableSink} refused a table's changes for a reason that retrying will not cure (a
 * record too large for the destination, no permission to write to it). The table stops with the
 * message, which says what to change, and keeps its checkpoint; the other tables go on.
 */
public class SinkRefusedException extends ApplyException {

	public SinkRefusedException(String message, Throwable cause) {
		super(message, cause);
	}

}
