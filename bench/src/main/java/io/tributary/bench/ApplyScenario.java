package io.tributary.bench;

/**
 * Apply: Tributary's catch-up of backlogs of single-row update transactions (uniform, and a
 * hot-row mix) against the native replica with parallel appliers reading the same stretch of
 * binlog, and against the physical limits of the same run (the raw read of the backlog, the target's
 * own write of its final rows); and the target writes hot rows cost. See {@link ApplyBacklogRun}.
 * Targets: at least 12x the replica's rate, at most 2x the physical floor. On MariaDB and MySQL,
 * each against a native replica of its own kind ({@link ScenarioContext#replica()}).
 */
final class ApplyScenario implements Scenario {

	@Override
	public String name() {
		return "apply";
	}

	@Override
	public boolean runsOn(String server) {
		return true;
	}

	/**
	 * Whether this scenario runs on the server and its uniform backlog is the ingestion scenario's
	 * backlog of one update per transaction: when the sizes agree, the server writes a million
	 * one-row transactions once.
	 */
	static boolean sharesIngestionBacklog(BenchSettings settings, String flavor) {
		return settings.runs("apply") && settings.measuresOn("apply", flavor)
				&& settings.number("applyBacklog") == settings.number("changes")
				&& settings.number("applyRows") == settings.number("tableRows");
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		// The table fits in the buffer pool of the source either way.
		SnapshotScenario.resizeBufferPool(context.server().dataSource(null));
		BenchSettings settings = context.settings();
		IngestionBacklogs shared = sharesIngestionBacklog(settings, context.flavor()) ? context.backlogs() : null;
		try (SourceTuning tuning = SourceTuning.apply(context.server());
				ApplyBacklogRun run = new ApplyBacklogRun(context, context.replica(), shared)) {
			run.measureAll(System.nanoTime());
		}
	}

}
