package io.tributary.source;

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
	 * A table can no longer be followed (its layout changed incompatibly, its rows could not be
	 * decoded). Its changes stop; other tables continue.
	 * @param table the table
	 * @param error what went wrong, with the fix in its message
	 */
	void onTableFailed(TableId table, RuntimeException error);

}
