package io.tributary.bench;

import java.util.Map;

/**
 * Ingestion: how fast Tributary's source takes in a backlog (decode, route, buffer add, nothing
 * applied), against the Debezium embedded engine with a consumer that only counts, and against the
 * raw read of the same bytes, each in a JVM of its own, cold and warm, on both backlogs of
 * {@link IngestionBacklogs}. Targets: Tributary at least 3x Debezium warm and 1.5x cold, and at
 * least 0.9x the raw read.
 */
final class IngestionScenario implements Scenario {

	static final double DEBEZIUM_WARM_TARGET = 3.0;

	static final double DEBEZIUM_COLD_TARGET = 1.5;

	static final double RAW_TARGET = 0.9;

	@Override
	public String name() {
		return "ingestion";
	}

	@Override
	public boolean runsOn(String server) {
		return true;
	}

	@Override
	public void run(ScenarioContext context) throws Exception {
		IngestionBacklogs backlogs = context.backlogs();
		int rounds = 1 + context.settings().number("warmRounds");
		for (IngestionBacklogs.Backlog backlog : backlogs.all()) {
			Map<String, String> args = backlogs.readerArgs(context.server(), backlog, rounds);
			BacklogReads tributary = BacklogReads.readAndRecord(context, backlog, "Tributary source", "tributary", args);
			BacklogReads debezium = BacklogReads.readAndRecord(context, backlog, "Debezium embedded", "debezium", args);
			BacklogReads raw = BacklogReads.readAndRecord(context, backlog, "raw read", "raw", args);
			context.rememberRawRead(backlog, raw.rounds());
			String shape = backlog.name();
			context.record(ResultRow.compared(name(), context.flavor(), shape, "Tributary source, warm",
					tributary.warmRate(), "changes/s", "Debezium embedded, warm", debezium.warmRate(),
					DEBEZIUM_WARM_TARGET, ""));
			context.record(ResultRow.compared(name(), context.flavor(), shape, "Tributary source, cold",
					tributary.coldRate(), "changes/s", "Debezium embedded, cold", debezium.coldRate(),
					DEBEZIUM_COLD_TARGET, ""));
			context.record(ResultRow.compared(name(), context.flavor(), shape, "Tributary source, warm",
					tributary.warmRate(), "changes/s", "raw read, warm", raw.warmRate(), RAW_TARGET, ""));
		}
	}

}
