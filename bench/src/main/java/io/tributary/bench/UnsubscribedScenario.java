package io.tributary.bench;

import java.util.Map;

/**
 * Unsubscribed traffic: Tributary's source reads the ingestion backlogs with a subscription to
 * another table, so every row event is skipped undecoded, against the raw read of the same bytes
 * measured right after it. Target: at least 0.95x the raw read.
 */
final class UnsubscribedScenario implements Scenario {

	static final double RAW_TARGET = 0.95;

	@Override
	public String name() {
		return "unsubscribed";
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
			BacklogReads unsubscribed = BacklogReads.readAndRecord(context, backlog, "Tributary source, unsubscribed",
					"tributary-unsubscribed", args);
			BacklogReads raw = BacklogReads.readAndRecord(context, backlog, "raw read", "raw", args);
			context.record(ResultRow.compared(name(), context.flavor(), backlog.name(),
					"Tributary source, unsubscribed, warm", unsubscribed.warmRate(), "changes/s", "raw read, warm",
					raw.warmRate(), RAW_TARGET, ""));
		}
	}

}
