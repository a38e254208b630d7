package io.tributary.autoconfigure.health;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.status.PipelineStatus;

/**
 * The {@code cdc} health of every pipeline and its tables.
 *
 * <ul>
 * <li>UP while every table streams with a lag under {@code cdc.health.max-lag}, or is paused (an
 * operator's choice, shown in the details).</li>
 * <li>{@code cdc.health.snapshotting-status} (UP unless set) while a table is not streaming yet:
 * starting, snapshotting or catching up after its snapshot, and while a pipeline is starting.</li>
 * <li>OUT_OF_SERVICE while a streaming table lags more than {@code cdc.health.max-lag}, or while a
 * pipeline stops with the application.</li>
 * <li>UP while a pipeline is a standby (HA): another instance of it leads; the details say
 * {@code role: standby} and name the leader.</li>
 * <li>DOWN when a table or a pipeline failed, or when the source has been out of reach (or a
 * starting pipeline has failed to prepare) for longer than {@code cdc.health.source-down-after}.</li>
 * </ul>
 * The pipelines' statuses combine with the health endpoint's status order. The details hold, per
 * pipeline name, its state, source, lag and last error, and per table its status, phase and last
 * error; never a password.
 */
public final class CdcHealthIndicator implements HealthIndicator {

	private final Supplier<List<PipelineStatus>> pipelines;

	private final PipelineHealthRules rules;

	private final Supplier<StatusAggregator> aggregator;

	private final Clock clock;

	/**
	 * Creates the indicator of some pipelines.
	 * @param pipelines the pipelines
	 * @param settings the thresholds, {@code cdc.health.*}
	 * @param aggregator how statuses combine, usually the health endpoint's; called at each check
	 */
	public CdcHealthIndicator(TributaryPipelines pipelines, TributaryProperties.Health settings,
			Supplier<StatusAggregator> aggregator) {
		this(pipelines::status, settings, aggregator, Clock.systemUTC());
	}

	CdcHealthIndicator(Supplier<List<PipelineStatus>> pipelines, TributaryProperties.Health settings,
			Supplier<StatusAggregator> aggregator, Clock clock) {
		this.pipelines = pipelines;
		this.rules = new PipelineHealthRules(settings.getMaxLag(),
				PipelineHealthRules.status(settings.getSnapshottingStatus()), settings.getSourceDownAfter());
		this.aggregator = aggregator;
		this.clock = clock;
	}

	@Override
	public Health health() {
		StatusAggregator statusOrder = this.aggregator.get();
		Map<String, Object> details = new LinkedHashMap<>();
		Set<Status> statuses = new LinkedHashSet<>();
		for (PipelineStatus pipeline : this.pipelines.get()) {
			PipelineHealthRules.Verdict verdict = this.rules.judge(pipeline, this.clock.instant(), statusOrder);
			statuses.add(verdict.status());
			details.put(pipeline.name(), verdict.details());
		}
		Status status = statuses.isEmpty() ? Status.UP : statusOrder.getAggregateStatus(statuses);
		return Health.status(status).withDetails(details).build();
	}

}
