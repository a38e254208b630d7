package io.tributary.autoconfigure;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;

/**
 * The application's pipelines, one per source server, by name: what the endpoint, the health
 * indicator, the metrics and the admin pages read and act on.
 */
public final class TributaryPipelines {

	private final Map<String, Pipeline> pipelines;

	/**
	 * Creates the registry of some pipelines.
	 * @param pipelines the pipelines; their names must differ
	 * @throws IllegalArgumentException when two pipelines have one name
	 */
	public TributaryPipelines(Collection<Pipeline> pipelines) {
		Map<String, Pipeline> byName = new LinkedHashMap<>();
		for (Pipeline pipeline : pipelines) {
			if (byName.putIfAbsent(pipeline.name(), pipeline) != null) {
				throw new IllegalArgumentException("Two pipelines are named '" + pipeline.name()
						+ "'; give each source its own name");
			}
		}
		this.pipelines = Collections.unmodifiableMap(byName);
	}

	/** Returns the pipelines in the order they were configured. */
	public Collection<Pipeline> all() {
		return this.pipelines.values();
	}

	/**
	 * Returns a pipeline by name.
	 * @param name the pipeline's name
	 * @return the pipeline, or {@code null} when there is none of that name
	 */
	public Pipeline get(String name) {
		return this.pipelines.get(name);
	}

	/** Returns every pipeline's status, in the order they were configured. */
	public List<PipelineStatus> status() {
		return this.pipelines.values().stream().map(Pipeline::status).toList();
	}

}
