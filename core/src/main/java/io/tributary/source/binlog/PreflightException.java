package io.tributary.source.binlog;

import java.util.List;

/**
 * The source server cannot be replicated from as it is configured. The message lists every
 * problem {@link Preflight} found, one per line, each naming the statement that fixes it.
 */
public class PreflightException extends RuntimeException {

	private final List<String> problems;

	public PreflightException(List<String> problems) {
		super(message(problems));
		this.problems = List.copyOf(problems);
	}

	/** Returns the problems, in the order they were found. */
	public List<String> problems() {
		return this.problems;
	}

	private static String message(List<String> problems) {
		StringBuilder message = new StringBuilder(
				"The source server is not ready for replication; fix the following and start again:");
		for (String problem : problems) {
			message.append('\n').append(problem);
		}
		return message.toString();
	}

}
