package io.tributary.autoconfigure.security;

/**
 * Decides whether the current user may read Tributary's status or run its actions (pause, resume,
 * flush, resnapshot, restart, checksum). The {@code cdc} endpoint asks it on every request; declare
 * a bean of this type to replace the default, which depends on whether Spring Security is present
 * ({@link SpringSecurityCdcAccess}) or not ({@link OpenCdcAccess}).
 *
 * <p>Whether actions are enabled at all ({@code cdc.admin.actions-enabled}) is not decided here:
 * that switch holds for every user and every implementation.
 */
@FunctionalInterface
public interface CdcAccess {

	/**
	 * Decides on one request of the current thread's user.
	 * @param operation what the user asks to do
	 * @return the decision, never {@code null}
	 */
	Decision decide(Operation operation);

	/** What a request asks to do. */
	enum Operation {

		/** Read the status of the pipelines and their tables. */
		READ,
		/** Run an action on one table or on all of them. */
		WRITE

	}

	/** How a request is answered. */
	enum Verdict {

		/** Go ahead. */
		ALLOWED,
		/** No user is signed in, and the operation needs one (HTTP 401). */
		UNAUTHENTICATED,
		/** The signed-in user lacks what the operation needs (HTTP 403). */
		FORBIDDEN

	}

	/**
	 * A decision on one request.
	 *
	 * @param verdict whether the request may go ahead
	 * @param user name of the signed-in user, recorded with the actions they run; {@code null}
	 * when unknown
	 * @param reason why the request is refused, for the response; {@code null} when allowed
	 */
	record Decision(Verdict verdict, String user, String reason) {

		/** Allows a request of a user, named or not. */
		public static Decision allowed(String user) {
			return new Decision(Verdict.ALLOWED, user, null);
		}

		/** Refuses a request because nobody is signed in. */
		public static Decision unauthenticated(String reason) {
			return new Decision(Verdict.UNAUTHENTICATED, null, reason);
		}

		/** Refuses a request of a signed-in user. */
		public static Decision forbidden(String user, String reason) {
			return new Decision(Verdict.FORBIDDEN, user, reason);
		}

		/** Returns whether the request may go ahead. */
		public boolean isAllowed() {
			return this.verdict == Verdict.ALLOWED;
		}

	}

}
