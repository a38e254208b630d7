package io.tributary.autoconfigure;

import java.util.Locale;

import io.tributary.status.TableStatus;

/**
 * Why a table needs an operator's eye, most pressing first; a table that streams and whose last
 * flush succeeded has none. The admin pages list such tables first, and {@code cdc.metrics.tables=trouble}
 * keeps the meters of these tables only.
 */
public enum TableTrouble {

	/** Stopped with an error. */
	FAILED,
	/** Streaming, but its latest flush failed: its changes were put back and are tried again. */
	FLUSH_FAILING,
	/** The source table was dropped or renamed away: nothing more comes. */
	DROPPED,
	/** Paused on request: its changes wait. */
	PAUSED,
	/** Applying the backlog up to the source head. */
	CATCHING_UP,
	/** Copying its existing rows. */
	SNAPSHOTTING,
	/** Not started yet. */
	STARTING;

	/**
	 * Returns why a table needs attention now.
	 * @param table the table's status
	 * @return the most pressing reason, or {@code null} when the table streams and its last flush,
	 * if any, succeeded
	 */
	public static TableTrouble of(TableStatus table) {
		return switch (table.phase()) {
			case FAILED -> FAILED;
			case DROPPED -> DROPPED;
			case PAUSED -> PAUSED;
			case CATCHING_UP -> CATCHING_UP;
			case SNAPSHOTTING -> SNAPSHOTTING;
			case STARTING -> STARTING;
			case STREAMING -> flushFailing(table) ? FLUSH_FAILING : null;
			// Copied once as configured: done, not in trouble.
			case COPIED -> null;
		};
	}

	/** Returns the reason in lower-case words: {@code flush failing}. */
	public String words() {
		return name().replace('_', ' ').toLowerCase(Locale.ROOT);
	}

	private static boolean flushFailing(TableStatus table) {
		TableStatus.Flush last = table.lastFlush();
		return last != null && !"ok".equals(last.outcome());
	}

}
