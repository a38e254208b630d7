package io.tributary.admin;

import io.tributary.status.TableDetail;

/** Finds what one table's page shows. */
@FunctionalInterface
public interface TableDetails {

	/**
	 * Returns a table's counters, layout, checkpoint and recent events.
	 * @param pipeline the pipeline's name
	 * @param table the source table, {@code schema.table}
	 * @return the detail, or {@code null} when no pipeline of that name replicates the table
	 */
	TableDetail find(String pipeline, String table);

}
