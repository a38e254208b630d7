package io.tributary.autoconfigure.endpoint;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * A request to the {@code cdc} endpoint that cannot be served, with the HTTP status and the
 * message to answer it with.
 */
final class RequestRefused extends RuntimeException {

	/** Nobody is signed in, and the request needs a user. */
	static final int UNAUTHORIZED = 401;

	/** The user may not do this, or actions are disabled. */
	static final int FORBIDDEN = 403;

	/** The action makes no sense in the table's or pipeline's state. */
	static final int CONFLICT = 409;

	private final int status;

	RequestRefused(int status, String message) {
		super(message, null, false, false);
		this.status = status;
	}

	int status() {
		return this.status;
	}

	WebEndpointResponse<CdcEndpoint.Refusal> response() {
		return new WebEndpointResponse<>(new CdcEndpoint.Refusal(this.status, getMessage()), this.status);
	}

}
