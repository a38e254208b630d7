package io.tributary.apply;

/** Writing changes to a target failed; nothing of the failed batch is assumed applied. */
public class ApplyException extends RuntimeException {

	public ApplyException(String message, Throwable cause) {
		super(message, cause);
	}

}
