package io.tributary.autoconfigure.actions;

/**
 * A request to read or act on the pipelines that cannot be served, with the HTTP status to answer
 * it with and a message saying what is wrong and what to do. The {@code cdc} endpoint and the admin
 * pages both answer with it.
 */
public final class RequestRefused extends RuntimeException {

	/** The request names something malformed: an unknown action, a table without its schema. */
	public static final int BAD_REQUEST = 400;

	/** Nobody is signed in, and the request needs a user. */
	public static final int UNAUTHORIZED = 401;

	/** The user may not do this, or actions are disabled. */
	public static final int FORBIDDEN = 403;

	/** No pipeline replicates the table, or no pipeline has the name. */
	public static final int NOT_FOUND = 404;

	/** The action makes no sense in the table's or pipeline's state. */
	public static final int CONFLICT = 409;

	/** The action failed in a way nobody foresaw; the log has the details. */
	public static final int INTERNAL_SERVER_ERROR = 500;

	/** A database could not be asked, or a flush did not finish in time. */
	public static final int SERVICE_UNAVAILABLE = 503;

	private final int status;

	/**
	 * Creates a refusal.
	 * @param status the HTTP status to answer with
	 * @param message what is wrong and what to do
	 */
	public RequestRefused(int status, String message) {
		super(message, null, false, false);
		this.status = status;
	}

	/** Returns the HTTP status to answer with. */
	public int status() {
		return this.status;
	}

}
