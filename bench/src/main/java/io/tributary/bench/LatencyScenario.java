package io.tributary.bench;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.TableStatus;
import io.tributary.test.TestDatabaseServer;

/**
 * Latency: from source commit to visibility in the target, per transaction, under a steady
 * {@code latencyRate} single-row transactions per second for {@code latencySeconds}, for Tributary
 * and, in the same run and on the same target server, for the native replica applying the same
 * transactions (see {@link LatencyProbe} for how each row is timed). Three runs: Tributary with its
 * defaults ({@code cdc.flush.when-idle} on), with {@code cdc.flush.when-idle=false} (changes wait
 * for the 250 ms flush interval, the behaviour before), and with its defaults under a hot-row mix
 * in which {@code latencyHotPercent} percent of the transactions update one of
 * {@code latencyHotKeys} rows of a table holding only those rows. Targets: p99 at most 50 ms with
 * the defaults, and, in the hot mix, at least 100 hot-row events per target write of a hot row
 * (Tributary's table status: updates read against rows written).
 */
final class LatencyScenario implements Scenario {

	/** The budget for Tributary's p99 with default settings, in milliseconds. */
	static final double P99_BUDGET_MILLIS = 50;

	/** The target: at least this many hot-row events per target write while streaming. */
	static final double HOT_TARGET = 100;

	private static final String SCHEMA = "bench_latency";

	private static final String TARGET_SCHEMA = "tributary_latency";

	private static final TableId CHECKPOINTS = new TableId("tributary_latency_meta", "checkpoints");

	private static final Duration WAIT = Duration.ofMinutes(2);

	/** Server ids of the pipelines' replication connections, one per run. */
	private int nextServerId = 2001;

	@Override
	public String name() {
		return "latency";
	}

	@Override
	public boolean runsOn(String server) {
		return true;
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		TestDatabaseServer server = context.server();
		BenchSettings settings = context.settings();
		NativeReplica replica = context.replica();
		replica.stopReplica();
		replica.replicateFrom(server.host(), server.port(), server.username(), server.password(),
				SourceQueries.headFileOffset(server.dataSource(null)));
		replica.startReplica();
		// The source's own fsyncs are not what is measured: both systems read the same binlog.
		try (SourceTuning tuning = SourceTuning.apply(server)) {
			server.createSchema(SCHEMA);
			int hotPercent = settings.number("latencyHotPercent");
			List<Variant> variants = List.of(new Variant("defaults", "Tributary, defaults", true, 0),
					new Variant("interval", "Tributary, cdc.flush.when-idle=false", false, 0),
					new Variant("hot", "Tributary, defaults, hot mix", true, hotPercent));
			for (Variant variant : variants) {
				context.profiled(variant.tag(), () -> {
					measure(context, replica, variant);
					return null;
				});
			}
		}
		finally {
			replica.stopReplica();
		}
	}

	private void measure(ScenarioContext context, NativeReplica replica, Variant variant) throws Exception {
		TestDatabaseServer server = context.server();
		BenchSettings settings = context.settings();
		// The defaults carry the target; the other variants only show what the defaults change.
		int seconds = settings.number((variant.whenIdle() && variant.hotPercent() == 0) ? "latencySeconds"
				: "latencyVariantSeconds");
		int rate = settings.number("latencyRate");
		int hotKeys = settings.number("latencyHotKeys");
		TableId inserts = new TableId(SCHEMA, "ins_" + variant.tag());
		TableId hotRows = (variant.hotPercent() > 0) ? new TableId(SCHEMA, "hot_" + variant.tag()) : null;
		server.execute(null, "CREATE TABLE " + inserts.quoted() + " (id BIGINT NOT NULL PRIMARY KEY, t0 BIGINT NOT NULL, "
				+ "pad CHAR(60) NOT NULL)");
		List<TableMapping> mappings = new ArrayList<>(List.of(new TableMapping(inserts, target(inserts))));
		if (hotRows != null) {
			server.execute(null, "CREATE TABLE " + hotRows.quoted() + " (id INT NOT NULL PRIMARY KEY, n BIGINT NOT NULL, "
					+ "t0 BIGINT NOT NULL)");
			StringBuilder rows = new StringBuilder("INSERT INTO " + hotRows.quoted() + " VALUES ");
			for (int id = 1; id <= hotKeys; id++) {
				rows.append((id > 1) ? "," : "").append('(').append(id).append(", 0, 0)");
			}
			server.execute(null, rows.toString());
			mappings.add(new TableMapping(hotRows, target(hotRows)));
		}
		replica.awaitExecuted(SourceQueries.headFileOffset(server.dataSource(null)), WAIT);

		LatencyProbe.Plan plan = LatencyProbe.Plan.of(rate, seconds, variant.hotPercent() / 100.0, hotKeys,
				settings.number("latencyWarmupSeconds"));
		Duration pause = Duration.ofNanos(settings.number("latencyPollMicros") * 1000L);
		PipelineSettings pipelineSettings = settings(server, mappings, variant.whenIdle(), this.nextServerId++);
		try (HikariDataSource targetPool = pool(replica, 8)) {
			Pipeline pipeline = new Pipeline(pipelineSettings, server.dataSource(null), targetPool);
			pipeline.start();
			try {
				pipeline.awaitCaughtUp(WAIT);
				TableStatus hotBefore = (hotRows != null) ? table(pipeline, hotRows) : null;
				LatencyProbe.Written written;
				LatencyProbe.Percentiles tributaryFigures;
				LatencyProbe.Percentiles replicaFigures;
				try (LatencyProbe.Poller ours = new LatencyProbe.Poller("tributary", replica.jdbcUrl(), replica.user(),
						replica.password(), target(inserts), plan, pause).start();
						LatencyProbe.Poller theirs = new LatencyProbe.Poller("replica", replica.jdbcUrl(),
								replica.user(), replica.password(), inserts, plan, pause).start()) {
					written = LatencyProbe.write(server.jdbcUrl(null), server.username(), server.password(), inserts,
							hotRows, plan, settings.number("latencyClients"));
					ours.awaitAll(WAIT);
					theirs.awaitAll(WAIT);
					ours.close();
					theirs.close();
					tributaryFigures = ours.percentiles();
					replicaFigures = theirs.percentiles();
				}
				pipeline.awaitCaughtUp(WAIT);
				context.say(String.format("%s: %,d transactions at %.0f/s (writers at most %.1f ms behind); Tributary %s; "
						+ "%s %s", variant.label(), written.transactions(), written.rate(), written.maxBehindMillis(),
						tributaryFigures.describe(), replica.name(), replicaFigures.describe()));
				record(context, replica, variant, plan, written, tributaryFigures, replicaFigures);
				if (hotRows != null) {
					recordHot(context, plan, hotKeys, hotBefore, table(pipeline, hotRows), pipelineSettings);
				}
			}
			finally {
				pipeline.close();
			}
		}
	}

	private void record(ScenarioContext context, NativeReplica replica, Variant variant, LatencyProbe.Plan plan,
			LatencyProbe.Written written, LatencyProbe.Percentiles tributary, LatencyProbe.Percentiles replicaFigures) {
		String flavor = context.flavor();
		String shape = String.format("%,d transactions/s for %d s%s", plan.rate(), plan.transactions() / plan.rate(),
				(variant.hotPercent() > 0) ? String.format(", %d%% hot-row updates", variant.hotPercent()) : "");
		String how = String.format("commit to first read that returned the row, rows after the first %d s; writers at "
				+ "%.0f/s, at most %.1f ms behind schedule", plan.warmup() / plan.rate(), written.rate(),
				written.maxBehindMillis());
		recordPercentiles(context, shape, variant.label(), tributary, how);
		recordPercentiles(context, shape, replica.name(), replicaFigures, how);
		context.record(ResultRow.compared(name(), flavor, shape, variant.label() + ", p99", tributary.p99Millis(), "ms",
				replica.name() + ", p99", replicaFigures.p99Millis(), Double.NaN, "for comparison, no target"));
		if (variant.whenIdle()) {
			context.record(ResultRow.bounded(name(), flavor, shape, variant.label() + ", p99", tributary.p99Millis(),
					"ms", "the issue's budget", P99_BUDGET_MILLIS, 1, how));
		}
		context.bound(String.format("%s: p99 %.1f ms. %s. %s p99 %.1f ms on the same target server, committing "
				+ "each source transaction on its own at innodb_flush_log_at_trx_commit=1; its lag grew by %.0f ms over "
				+ "the run (Tributary's: %.0f ms)%s. The pollers read each target every %d us plus a round trip, which "
				+ "a figure may add.", variant.label(), tributary.p99Millis(), variant.whenIdle()
						? "Changes are applied as soon as the reader has read all the source sent"
						: "Changes wait for the 250 ms flush interval, which sets this figure",
				replica.name(), replicaFigures.p99Millis(), replicaFigures.growthMillis(), tributary.growthMillis(),
				(replicaFigures.growthMillis() > 100) ? ", so it applies fewer transactions per second than the source "
						+ "commits, and its commits load the disk Tributary's target commits on too" : "",
				context.settings().number("latencyPollMicros")));
	}

	private void recordPercentiles(ScenarioContext context, String shape, String system,
			LatencyProbe.Percentiles figures, String how) {
		context.record(ResultRow.measured(name(), context.flavor(), shape, system + ", p50", figures.p50Millis(), "ms",
				figures.describe()));
		context.record(ResultRow.measured(name(), context.flavor(), shape, system + ", p99", figures.p99Millis(), "ms",
				how));
		context.record(ResultRow.measured(name(), context.flavor(), shape, system + ", max", figures.maxMillis(), "ms",
				""));
	}

	/** The hot-row table's events against its target writes while streaming. */
	private void recordHot(ScenarioContext context, LatencyProbe.Plan plan, int hotKeys, TableStatus before,
			TableStatus after, PipelineSettings pipelineSettings) {
		long events = after.events().updates() - before.events().updates();
		long writes = after.changesApplied() - before.changesApplied();
		double perInterval = (double) plan.hotUpdates() / hotKeys / (plan.transactions() / (double) plan.rate())
				* pipelineSettings.flushInterval().toMillis() / 1000.0;
		String shape = String.format("%,d hot-row updates over %d rows while streaming", plan.hotUpdates(), hotKeys);
		context.record(ResultRow.compared(name(), context.flavor(), shape, "Tributary, defaults, hot-row events",
				events, "events", "hot-row target writes", writes, HOT_TARGET, String.format("Tributary's status of the "
						+ "hot table: updates read vs changes applied; %.0f updates per hot row per flush interval",
						perInterval)));
		context.bound(String.format("hot rows: %,d events, %,d target writes (%.0fx). A hot row is written about once "
				+ "per %d ms flush interval, so the ratio is bound by the updates per hot row per interval, here %.0f",
				events, writes, (double) events / Math.max(1, writes), pipelineSettings.flushInterval().toMillis(),
				perInterval));
	}

	private static TableStatus table(Pipeline pipeline, TableId source) {
		return pipeline.status().tables().stream().filter((table) -> table.name().equals(source.toString())).findFirst()
			.orElseThrow(() -> new IllegalStateException("No status of " + source));
	}

	private static TableId target(TableId source) {
		return new TableId(TARGET_SCHEMA, source.table());
	}

	private static PipelineSettings settings(TestDatabaseServer server, List<TableMapping> mappings, boolean whenIdle,
			int serverId) {
		SourceSettings source = new SourceSettings(server.host(), server.port(), server.username(), server.password(),
				serverId, Duration.ofSeconds(10), Duration.ofSeconds(5), SslMode.DISABLED, null);
		return PipelineSettings.of(source, mappings, CHECKPOINTS)
			.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false))
			.withFlushWhenIdle(whenIdle);
	}

	private static HikariDataSource pool(NativeReplica replica, int size) throws SQLException {
		return ApplyBacklogRun.targetPool(replica.jdbcUrl(), replica.user(), replica.password(), size,
				"latency-target");
	}

	/**
	 * One latency run.
	 *
	 * @param tag names its tables
	 * @param label names Tributary's figures
	 * @param whenIdle {@code cdc.flush.when-idle}
	 * @param hotPercent percent of the transactions that update a hot row
	 */
	private record Variant(String tag, String label, boolean whenIdle, int hotPercent) {

	}

}
