package io.tributary.autoconfigure.actions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.pipeline.Pipeline;
import io.tributary.source.TableId;
import io.tributary.status.TableDetail;
import io.tributary.status.TableStatus;

/**
 * A table as a request names it: {@code schema.table} when one pipeline replicates a
 * table of that name, {@code pipeline:schema.table} to pick one pipeline (needed when several
 * replicate a table of that name). Names compare without regard to case, as {@link TableId} does.
 *
 * @param pipeline the pipeline that replicates the table
 * @param table the source table
 */
public record TableAddress(Pipeline pipeline, TableId table) {

	/**
	 * Finds the table a path segment names.
	 * @param pipelines the application's pipelines
	 * @param text {@code schema.table} or {@code pipeline:schema.table}
	 * @return the table and its pipeline
	 * @throws RequestRefused with 400 for a malformed or ambiguous name, 404 for an unknown one
	 */
	public static TableAddress resolve(TributaryPipelines pipelines, String text) {
		Collection<Pipeline> candidates = pipelines.all();
		String name = text;
		int colon = text.indexOf(':');
		if (colon >= 0) {
			String pipelineName = text.substring(0, colon);
			Pipeline named = pipelines.get(pipelineName);
			if (named == null) {
				throw new RequestRefused(RequestRefused.NOT_FOUND, "No pipeline is named '" + pipelineName
						+ "'; the pipelines are " + candidates.stream().map(Pipeline::name).toList());
			}
			candidates = List.of(named);
			name = text.substring(colon + 1);
		}
		TableId id;
		try {
			id = TableId.parse(name, null);
		}
		catch (IllegalArgumentException ex) {
			throw new RequestRefused(RequestRefused.BAD_REQUEST,
					ex.getMessage() + "; name a table as schema.table, or pipeline:schema.table");
		}
		List<Pipeline> holders = candidates.stream().filter((pipeline) -> status(pipeline, id) != null).toList();
		if (holders.isEmpty()) {
			throw new RequestRefused(RequestRefused.NOT_FOUND, "Table " + name
					+ " is not replicated" + ((colon >= 0) ? " by pipeline " + text.substring(0, colon) : "")
					+ "; the tables are " + names(pipelines));
		}
		if (holders.size() > 1) {
			throw new RequestRefused(RequestRefused.BAD_REQUEST,
					"Table " + id + " is replicated by pipelines " + holders.stream().map(Pipeline::name).toList()
							+ "; name one, as in " + holders.get(0).name() + ":" + id);
		}
		return new TableAddress(holders.get(0), id);
	}

	/** Returns the table's status now. */
	public TableStatus status() {
		TableStatus status = status(this.pipeline, this.table);
		if (status == null) {
			throw new IllegalStateException("Pipeline " + this.pipeline.name() + " no longer replicates " + this.table);
		}
		return status;
	}

	/**
	 * Returns what the table's own page shows: its counters, layout, partitioning, last checkpoint
	 * and recent events.
	 */
	public TableDetail detail() {
		return this.pipeline.detail(this.table);
	}

	/** Returns the status of a pipeline's table, or {@code null} when it does not replicate it. */
	public static TableStatus status(Pipeline pipeline, TableId table) {
		for (TableStatus status : pipeline.status().tables()) {
			if (TableId.parse(status.name(), null).equals(table)) {
				return status;
			}
		}
		return null;
	}

	/** Names every table the way a request addresses it: with its pipeline when there are several. */
	private static List<String> names(TributaryPipelines pipelines) {
		boolean several = pipelines.all().size() > 1;
		List<String> names = new ArrayList<>();
		for (Pipeline pipeline : pipelines.all()) {
			for (TableStatus table : pipeline.status().tables()) {
				names.add(several ? pipeline.name() + ":" + table.name() : table.name());
			}
		}
		return names;
	}

}
