package io.tributary.autoconfigure;

/**
 * A mistake in Tributary's configuration found at startup: which property holds which value, why
 * Tributary cannot use it, and what to change. Startup ends with these in the "APPLICATION FAILED
 * TO START" report instead of a stack trace.
 */
public class TributaryConfigurationException extends RuntimeException {

	private final String property;

	private final Object value;

	private final String reason;

	private final String action;

	/**
	 * Creates the exception.
	 * @param property the property at fault, or {@code null} when the mistake is in the
	 * application's beans rather than in a property
	 * @param value the property's value, or {@code null} when it is not set
	 * @param reason what is wrong, as a sentence without its final full stop
	 * @param action what to change, as one or more sentences
	 */
	public TributaryConfigurationException(String property, Object value, String reason, String action) {
		super(reason + ". " + action);
		this.property = property;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	/** Returns the property at fault, or {@code null} when the mistake is not in a property. */
	public String getProperty() {
		return this.property;
	}

	/** Returns the property's value, or {@code null} when it is not set. */
	public Object getValue() {
		return this.value;
	}

	/** Returns what is wrong. */
	public String getReason() {
		return this.reason;
	}

	/** Returns what to change. */
	public String getAction() {
		return this.action;
	}

}
