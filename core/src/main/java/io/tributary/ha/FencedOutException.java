package io.tributary.ha;

import java.sql.SQLException;

/**
 * A target transaction was refused because the instance that wrote it no longer leads its
 * pipeline: another instance has taken over (the epoch moved) or this one gave its leadership up.
 * The transaction was rolled back; nothing of it was written.
 */
public final class FencedOutException extends SQLException {

	private static final long serialVersionUID = 1L;

	/** SQLState of this refusal, in the class of transaction rollbacks. */
	public static final String SQL_STATE = "40TRB";

	public FencedOutException(String message) {
		super(message, SQL_STATE);
	}

	/** Returns whether an error, or one of its causes, is a fencing refusal. */
	public static boolean isCauseOf(Throwable error) {
		for (Throwable current = error; current != null; current = current.getCause()) {
			if (current instanceof FencedOutException) {
				return true;
			}
			if (current.getCause() == current) {
				return false;
			}
		}
		return false;
	}

}
