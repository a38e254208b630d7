package io.tributary.status;

import java.time.Instant;

/**
 * Something that happened to one table, for its timeline: a phase change, an operator action, a
 * stretch of waiting for buffer room, a failed flush, a schema change or a checksum result.
 *
 * @param at when it happened
 * @param kind what sort of event it is
 * @param message what happened, in a sentence
 * @param by who asked for it, for an action whose user is known; otherwise {@code null}
 */
public record TableEvent(Instant at, Kind kind, String message, String by) {

	/** Sorts of table events. */
	public enum Kind {

		/** The table entered another phase; the message names both and, for FAILED, the reason. */
		PHASE,
		/** An operator asked for pause, resume, flush, resnapshot, restart or checksum. */
		ACTION,
		/** The binlog reader began or stopped waiting for room in the table's buffer. */
		PARK,
		/** A flush of the table failed; its changes were put back. */
		FLUSH_FAILED,
		/** The table was altered or truncated on the source. */
		SCHEMA,
		/** A checksum pass of the table ended. */
		CHECKSUM

	}

}
