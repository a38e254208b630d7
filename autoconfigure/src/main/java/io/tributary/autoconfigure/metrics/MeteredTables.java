package io.tributary.autoconfigure.metrics;

import io.tributary.autoconfigure.TableTrouble;
import io.tributary.status.TableStatus;

/**
 * Which tables have meters of their own ({@code cdc.metrics.tables}); every pipeline has its own
 * meters and its tables' totals whichever is chosen. A table's meters are about 45 series in
 * Prometheus, so at hundreds of tables they outnumber everything else a scrape carries.
 */
public enum MeteredTables {

	/** Every table, from the first reading of its pipeline that shows it until the application stops. */
	ALL,
	/**
	 * Only the tables that need attention now, as {@link TableTrouble} judges: failed, flush
	 * failing, dropped, paused, catching up, snapshotting or starting. A table's meters are removed
	 * once it streams again with its last flush succeeded, and come back when it needs attention.
	 */
	TROUBLE,
	/** No table: the pipelines' meters and totals only. */
	NONE;

	/**
	 * The default: every table, as before this choice existed. Dashboards and alerts built on a
	 * table's counters keep their series, and a handful of tables costs a few hundred series; past a
	 * few hundred tables choose {@link #TROUBLE} or {@link #NONE}.
	 */
	public static final MeteredTables DEFAULT = ALL;

	/**
	 * Returns whether a table has meters of its own now.
	 * @param table the table's status
	 * @return whether its meters are registered
	 */
	public boolean meters(TableStatus table) {
		return switch (this) {
			case ALL -> true;
			case TROUBLE -> TableTrouble.of(table) != null;
			case NONE -> false;
		};
	}

}
