package io.tributary.apply;

/**
 * A {@link TableSink} cannot be reached now (its servers are down or unreachable), as opposed to
 * refusing the table for good. Thrown while a table is set up, it is retried like an unreachable
 * database instead of failing the table.
 */
public class SinkUnavailableException extends ApplyException {

	public SinkUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
