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
		ReaderJvm readers = context.readers();
		for (IngestionBacklogs.Backlog backlog : backlogs.all()) {
			Map<String, String> args = backlogs.readerArgs(context.server(), backlog, rounds);
			String tag = backlog.transactions() == backlog.changes() ? "1-per-tx" : "batched";
			BacklogReads unsubscribed = new BacklogReads("Tributary source, unsubscribed", backlog,
					readers.run("tributary-unsubscribed-" + tag, "tributary-unsubscribed", args));
			unsubscribed.record(context, "changes/s");
			BacklogReads raw = new BacklogReads("raw read", backlog, readers.run("raw-" + tag, "raw", args));
			raw.record(context, "changes/s");
			context.record(ResultRow.compared(name(), context.flavor(), backlog.name(),
					"Tributary source, unsubscribed, warm", unsubscribed.warmRate(), "changes/s", "raw read, warm",
					raw.warmRate(), RAW_TARGET, ""));
		}
	}

}
