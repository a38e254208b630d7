package io.tributary.autoconfigure.actions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.TableDetail;
import io.tributary.status.TableStatus;

/**
 * A table as a request names it: {@code schema.table} when one pipeline replicates a
 * table of that name, {@code pipeline:schema.table} to pick one pipeline (needed when several
 * replicate a table of that name). A part holding a dot or a backtick is quoted as MySQL quotes it
 * ({@code `odd.schema`.`a``b`}), as the table's status names it. Names compare without regard to
 * case, as {@link TableId} does.
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
		int colon = pipelineColon(text);
		if (colon >= 0) {
			String pipelineName = text.substring(0, colon);
			Pipeline named = pipelines.get(pipelineName);
			if (named != null) {
				return find(pipelines, List.of(named), text.substring(colon + 1), pipelineName);
			}
			TableId whole = parsedOrNull(text);
			if (whole == null || pipelines.all().stream().noneMatch((pipeline) -> status(pipeline, whole) != null)) {
				throw new RequestRefused(RequestRefused.NOT_FOUND, "No pipeline is named '" + pipelineName
						+ "'; the pipelines are " + pipelines.all().stream().map(Pipeline::name).toList());
			}
			// No pipeline of that name, but a table: a plain name may hold a colon, as in shop.a:b.
		}
		return find(pipelines, pipelines.all(), text, null);
	}

	private static TableAddress find(TributaryPipelines pipelines, Collection<Pipeline> candidates, String name,
			String pipelineName) {
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
			throw new RequestRefused(RequestRefused.NOT_FOUND, "Table " + name + " is not replicated"
					+ ((pipelineName != null) ? " by pipeline " + pipelineName : "") + "; the tables are "
					+ names(pipelines));
		}
		if (holders.size() > 1) {
			throw new RequestRefused(RequestRefused.BAD_REQUEST,
					"Table " + id + " is replicated by pipelines " + holders.stream().map(Pipeline::name).toList()
							+ "; name one, as in " + holders.get(0).name() + ":" + id);
		}
		return new TableAddress(holders.get(0), id);
	}

	/**
	 * Returns the index of the colon that ends a pipeline's name, or -1: the first colon, unless a
	 * backtick comes before it, since a quoted part of a table's name may hold colons.
	 */
	static int pipelineColon(String text) {
		int colon = text.indexOf(':');
		int quote = text.indexOf('`');
		return (quote >= 0 && quote < colon) ? -1 : colon;
	}

	private static TableId parsedOrNull(String text) {
		try {
			return TableId.parse(text, null);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
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
