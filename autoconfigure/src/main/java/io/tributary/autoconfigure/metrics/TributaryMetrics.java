package io.tributary.autoconfigure.metrics;

import java.util.List;
import java.util.Map;
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
 * published to Kafka also {@code topic}.
 */
public class TributaryMetrics implements MeterBinder {

	private final TributaryPipelines pipelines;

	/**
	 * The readings the meters of every registry read from, kept here: registries hold them weakly.
	 * Keyed by pipeline name, and by pipeline and table name.
	 */
	private final Map<String, RecentStatus> pipelineReadings = new ConcurrentHashMap<>();

	private final Map<List<String>, Supplier<TableStatus>> tableReadings = new ConcurrentHashMap<>();

	/**
	 * Creates the binder of some pipelines' meters.
	 * @param pipelines the pipelines
	 */
	public TributaryMetrics(TributaryPipelines pipelines) {
		this.pipelines = pipelines;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		for (Pipeline pipeline : this.pipelines.all()) {
			String name = pipeline.name();
			RecentStatus status = this.pipelineReadings.computeIfAbsent(name,
					(key) -> new RecentStatus(this.pipelines, key));
			PipelineMeters.register(registry, status, name);
			PipelineStatus current = pipeline.status();
			for (TableStatus table : current.tables()) {
				Supplier<TableStatus> reading = this.tableReadings.computeIfAbsent(List.of(name, table.name()),
						(key) -> status.table(table.name()));
				TableMeters.register(registry, reading, name, table.name(), table.destination());
			}
		}
	}

}
