package io.tributary.autoconfigure.metrics;

import java.util.function.Supplier;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/** The status of one table of a pipeline, found by its source name at each read. */
final class TableReading implements Supplier<TableStatus> {

	private final RecentStatus pipeline;

	private final String table;

	TableReading(RecentStatus pipeline, String table) {
		this.pipeline = pipeline;
		this.table = table;
	}

	/** Returns the table's status, or {@code null} when the pipeline or the table is gone. */
	@Override
	public TableStatus get() {
		PipelineStatus status = this.pipeline.get();
		if (status == null) {
			return null;
		}
		for (TableStatus candidate : status.tables()) {
			if (candidate.name().equals(this.table)) {
				return candidate;
			}
		}
		return null;
	}

}
