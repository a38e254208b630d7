package io.tributary.schema;

/**
 * A table cannot be replicated as it is defined: it is missing, has no key, uses an unsupported
 * type, or its target does not match it. The message says which and what to do.
 */
public class SchemaException extends RuntimeException {

	public SchemaException(String message) {
		super(message);
	}

}
