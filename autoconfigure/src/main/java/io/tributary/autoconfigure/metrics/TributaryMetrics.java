package io.tributary.autoconfigure.metrics;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * Binds the meters of every pipeline and every table it replicates, read from their status (see
 * docs/metrics.md for the list). Meters are tagged {@code pipeline} with the pipeline's name, and
 * a table's meters also {@code table} with its source name, {@code schema.table}; those of a table
 * published to Kafka also {@code topic}. A table that joins a pipeline later (one a pattern takes
 * when the pipeline starts) gets its meters at the first reading of its pipeline's status that
 * shows it, which the pipeline's own meters make at every scrape.
 */
public class TributaryMetrics implements MeterBinder {

	private final TributaryPipelines pipelines;

	/**
	 * The readings the meters of every registry read from, kept here: registries hold them weakly.
	 * Keyed by pipeline name, and by pipeline and table name.
	 */
	private final Map<String, RecentStatus> pipelineReadings = new ConcurrentHashMap<>();

	private final Map<List<String>, Supplier<TableStatus>> tableReadings = new ConcurrentHashMap<>();

	/** The registries bound, each with the tables whose meters it has, by pipeline and table name. */
	private final Map<MeterRegistry, Set<List<String>>> bound = new ConcurrentHashMap<>();

	/**
	 * Creates the binder of some pipelines' meters.
	 * @param pipelines the pipelines
	 */
	public TributaryMetrics(TributaryPipelines pipelines) {
		this.pipelines = pipelines;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.bound.putIfAbsent(registry, ConcurrentHashMap.newKeySet());
		for (Pipeline pipeline : this.pipelines.all()) {
			String name = pipeline.name();
			RecentStatus status = this.pipelineReadings.computeIfAbsent(name,
					(key) -> new RecentStatus(this.pipelines, key, this::tablesSeen));
			PipelineMeters.register(registry, status, name);
			tablesSeen(pipeline.status());
		}
	}

	/** Registers the meters of the tables of a fresh status that a bound registry does not have yet. */
	private void tablesSeen(PipelineStatus status) {
		RecentStatus readings = this.pipelineReadings.get(status.name());
		if (readings == null) {
			return;
		}
		for (Map.Entry<MeterRegistry, Set<List<String>>> registry : this.bound.entrySet()) {
			for (TableStatus table : status.tables()) {
				List<String> key = List.of(status.name(), table.name());
				if (registry.getValue().add(key)) {
					Supplier<TableStatus> reading = this.tableReadings.computeIfAbsent(key,
							(k) -> readings.table(table.name()));
					TableMeters.register(registry.getKey(), reading, status.name(), table.name(), table.destination());
				}
			}
		}
	}

}
