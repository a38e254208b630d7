package io.tributary.source;

import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;

/**
 * Receives what a change source reads, on the source's reader thread, in binlog order.
 */
public interface ChangeHandler {

	/**
	 * A row changed.
	 * @param change the change
	 * @param resumeFrom the last transaction boundary delivered before this change; a reader
	 * restarted there reads this change again, so it is the position that stays unconfirmed while
	 * the change is pending
	 */
	void onChange(RowChange change, Position resumeFrom);

	/**
	 * A subscribed table was altered on the source. Called at the statement's place in the stream,
	 * before any row event that follows it.
	 * @param table the table
	 * @param current the layout its row events were decoded with until now
	 * @param statement the ALTER statement
	 * @return the layout to decode its later row events with
	 * @throws RuntimeException when the change cannot be followed; the table then fails
	 */
	TableLayout onAlter(TableId table, TableLayout current, String statement);

	/**
	 * A subscribed table was truncated on the source. Called at the statement's place in the
	 * stream: every change read before it is superseded.
	 * @param table the table
	 * @throws RuntimeException when the truncation cannot be applied; the table then fails
	 */
	void onTruncate(TableId table);

	/**
	 * A table that is not subscribed appeared on the source: created ({@code CREATE TABLE}, also
	 * {@code ... LIKE} and {@code ... SELECT}) or renamed to its name. Called at the statement's
	 * place in the stream, on the reader thread; must return at once.
	 * @param table the table's name
	 */
	default void onTableAppeared(TableId table) {
	}

	/**
	 * A subscribed table was renamed on the source; the handler may follow it under its new name.
	 * Called at the statement's place in the stream, on the reader thread, before any change of the
	 * new name.
	 * @param from the table's name until now
	 * @param to its new name
	 * @param layout its layout until now
	 * @param statement the statement, for messages
	 * @return the layout to follow the table by under its new name, or {@code null} when it is not
	 * followed: it is then gone ({@link #onTableDropped})
	 */
	default TableLayout onTableRenamed(TableId from, TableId to, TableLayout layout, String statement) {
		return null;
	}

	/**
	 * A subscribed table is gone from the source: dropped, or renamed (to a name that is told of
	 * with {@link #onTableAppeared} when it is not subscribed). Its changes stop; other tables
	 * continue. Called at the statement's place in the stream, on the reader thread.
	 * @param table the table
	 * @param what what happened, naming the statement
	 */
	default void onTableDropped(TableId table, String what) {
		onTableFailed(table, new IllegalStateException(what));
	}

	/**
	 * A table can no longer be followed (its layout changed incompatibly, its rows could not be
	 * decoded). Its changes stop; other tables continue.
	 * @param table the table
	 * @param error what went wrong, with the fix in its message
	 */
	void onTableFailed(TableId table, RuntimeException error);

	/**
	 * The reader went back to an earlier position on request and replays from there, on its own
	 * thread, before the first replayed event. Tables subscribed before the rewind skip the replayed
	 * changes before {@code replayUntil}, which they were handed already.
	 * @param replayUntil where the reader was when it rewound
	 */
	default void onRewind(Position replayUntil) {
	}

	/**
	 * A transaction ended and the reader has nothing more to read: every transaction the source has
	 * sent so far has been handed over. A good moment to apply what is buffered, since waiting longer
	 * gathers nothing more. Called on the reader thread; must return at once.
	 */
	default void onCaughtUp() {
	}

}
