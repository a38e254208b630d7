package io.tributary.source.binlog;

import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;
import io.tributary.source.ChangeHandler;
import io.tributary.source.Position;
import io.tributary.source.RowChange;

/**
 * A change handler for tests that only care whether a binlog reader connects: it subscribes to
 * nothing, and throws away whatever reaches it.
 */
public class IgnoringHandler implements ChangeHandler {

	@Override
	public void onChange(RowChange change, Position resumeFrom) {
	}

	@Override
	public TableLayout onAlter(TableId table, TableLayout current, String statement) {
		return current;
	}

	@Override
	public void onTruncate(TableId table) {
	}

	@Override
	public void onTableFailed(TableId table, RuntimeException error) {
	}

}
