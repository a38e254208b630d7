package io.tributary.autoconfigure.metrics;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * Binds the meters of every pipeline, with its tables' totals, and those of the tables it
 * replicates that {@link MeteredTables} chooses, read from their status (see docs/metrics.md for
 * the list). Meters are tagged {@code pipeline} with the pipeline's name, and a table's meters also
 * {@code table} with its source name, {@code schema.table}; those of a table published to Kafka
 * also {@code topic}. Which tables have meters is decided again at each fresh reading of a
 * pipeline's status, which the pipeline's own meters make at every scrape: a table that joins
 * later (one a pattern takes when the pipeline starts), or that comes to need attention with
 * {@link MeteredTables#TROUBLE}, gets its meters then; a table that leaves the chosen tables has
 * its meters removed from the registry.
 */
public class TributaryMetrics implements MeterBinder {

	private final List<String> pipelineNames;

	private final Function<String, PipelineStatus> statuses;

	private final MeteredTables metered;

	private final long maxAgeNanos;

	/**
	 * The readings the meters of every registry read from, kept here: registries hold them weakly.
	 * Keyed by pipeline name, and by pipeline and table name.
	 */
	private final Map<String, RecentStatus> pipelineReadings = new ConcurrentHashMap<>();

	private final Map<List<String>, Supplier<TableStatus>> tableReadings = new ConcurrentHashMap<>();

	/** The registries bound, each with the meters of each table it has, by pipeline and table name. */
	private final Map<MeterRegistry, Map<List<String>, List<Meter>>> bound = new ConcurrentHashMap<>();

	/**
	 * Creates the binder of some pipelines' meters, with those of every table.
	 * @param pipelines the pipelines
	 */
	public TributaryMetrics(TributaryPipelines pipelines) {
		this(pipelines, MeteredTables.DEFAULT);
	}

	/**
	 * Creates the binder of some pipelines' meters.
	 * @param pipelines the pipelines
	 * @param metered which tables have meters of their own
	 */
	public TributaryMetrics(TributaryPipelines pipelines, MeteredTables metered) {
		this(pipelines.all().stream().map(Pipeline::name).toList(), (name) -> {
			Pipeline pipeline = pipelines.get(name);
			return (pipeline != null) ? pipeline.status() : null;
		}, metered, RecentStatus.MAX_AGE_NANOS);
	}

	/**
	 * Creates the binder of pipelines whose statuses are read by name.
	 * @param maxAgeNanos how long a reading of a status serves
	 */
	TributaryMetrics(List<String> pipelineNames, Function<String, PipelineStatus> statuses, MeteredTables metered,
			long maxAgeNanos) {
		this.pipelineNames = List.copyOf(pipelineNames);
		this.statuses = statuses;
		this.metered = metered;
		this.maxAgeNanos = maxAgeNanos;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.bound.putIfAbsent(registry, new HashMap<>());
		for (String name : this.pipelineNames) {
			RecentStatus status = this.pipelineReadings.computeIfAbsent(name,
					(key) -> new RecentStatus(this.statuses, key, this.maxAgeNanos, this::tablesSeen));
			PipelineMeters.register(registry, status, name);
			PipelineStatus now = this.statuses.apply(name);
			if (now != null) {
				tablesSeen(now);
			}
		}
	}

	/**
	 * Registers the meters of the tables of a fresh status that are chosen and that a bound registry
	 * does not have yet, and removes those of the tables no longer chosen. With every table chosen,
	 * the meters of a table that left the pipeline stay, reading NaN, as they always did.
	 */
	private synchronized void tablesSeen(PipelineStatus status) {
		RecentStatus readings = this.pipelineReadings.get(status.name());
		if (readings == null) {
			return;
		}
		Map<String, TableStatus> chosen = new HashMap<>();
		for (TableStatus table : status.tables()) {
			if (this.metered.meters(table)) {
				chosen.put(table.name(), table);
			}
		}
		for (Map.Entry<MeterRegistry, Map<List<String>, List<Meter>>> registry : this.bound.entrySet()) {
			Map<List<String>, List<Meter>> tables = registry.getValue();
			if (this.metered != MeteredTables.ALL) {
				Iterator<Map.Entry<List<String>, List<Meter>>> registered = tables.entrySet().iterator();
				while (registered.hasNext()) {
					Map.Entry<List<String>, List<Meter>> table = registered.next();
					if (table.getKey().get(0).equals(status.name()) && !chosen.containsKey(table.getKey().get(1))) {
						table.getValue().forEach(registry.getKey()::remove);
						registered.remove();
					}
				}
			}
			for (TableStatus table : chosen.values()) {
				List<String> key = List.of(status.name(), table.name());
				if (!tables.containsKey(key)) {
					Supplier<TableStatus> reading = this.tableReadings.computeIfAbsent(key,
							(k) -> readings.table(table.name()));
					tables.put(key, TableMeters.register(registry.getKey(), reading, status.name(), table.name(),
							table.destination()));
				}
			}
		}
	}

	/** Returns the tables a registry has meters of, by pipeline and table name. */
	synchronized Set<List<String>> metered(MeterRegistry registry) {
		return Set.copyOf(this.bound.getOrDefault(registry, Map.of()).keySet());
	}

}
