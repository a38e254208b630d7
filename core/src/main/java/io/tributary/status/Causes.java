package io.tributary.status;

import java.net.SocketException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/**
 * Turns an error into the sentence a status or a log line shows: the deepest cause first, since a
 * pool's "connection is not available" or a driver's "communications link failure" hides the
 * server's own reason (access denied, connection refused) a few causes down.
 */
public final class Causes {

	private Causes() {
	}

	/**
	 * Describes an error by its deepest cause, followed by the outer message when that says more.
	 * @param error the error
	 * @return one line of text
	 */
	public static String describe(Throwable error) {
		Throwable root = root(error);
		String outer = text(error);
		String inner = text(root);
		if (root == error || outer.contains(inner)) {
			return outer;
		}
		return inner + " (" + outer + ")";
	}

	/**
	 * Returns whether an error, or one of its causes, means the server could not be reached or
	 * refused the login, rather than refusing a statement.
	 * @param error the error
	 * @return whether it is a connection failure
	 */
	public static boolean isConnectionFailure(Throwable error) {
		for (Throwable current = error; current != null; current = next(current)) {
			if (current instanceof SQLException sql) {
				String state = sql.getSQLState();
				if ((state != null && state.startsWith("08")) || sql.getErrorCode() == 1045) {
					return true;
				}
			}
			if (current instanceof SocketException || current instanceof UnknownHostException) {
				return true;
			}
		}
		return false;
	}

	private static Throwable root(Throwable error) {
		Throwable current = error;
		while (next(current) != null) {
			current = next(current);
		}
		return current;
	}

	private static Throwable next(Throwable error) {
		Throwable cause = error.getCause();
		return (cause != error) ? cause : null;
	}

	private static String text(Throwable error) {
		String message = error.getMessage();
		if (message == null || message.isBlank()) {
			return error.getClass().getSimpleName();
		}
		return message.replaceAll("\\s*\\R\\s*", " ").trim();
	}

}
