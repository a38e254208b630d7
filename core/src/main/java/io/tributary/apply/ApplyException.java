package io.tributary.apply;

import io.tributary.jdbc.SqlErrors;

/** Writing changes to a target failed; nothing of the failed batch is assumed applied. */
public class ApplyException extends RuntimeException {

	public ApplyException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * Whether the write failed on a deadlock or a lock wait timeout: the server rolled it back, and
	 * it may simply be run again.
	 */
	public boolean isLockContention() {
		return SqlErrors.isContention(getCause());
	}

}
