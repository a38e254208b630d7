package io.tributary.bench;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The rounds one reader JVM read a backlog in, as figures: round 1 is the cold read (the first of
 * its JVM), the warm figure is the fastest of the later rounds.
 *
 * @param reader who read, for the results
 * @param backlog what was read
 * @param rounds the rounds in order
 */
record BacklogReads(String reader, IngestionBacklogs.Backlog backlog, List<ReaderMain.Round> rounds) {

	/**
	 * Reads {@code backlog} with one reader kind in a JVM of its own and records its cold and warm
	 * figures in changes/s.
	 * @param label who read, for the results
	 * @param kind the reader kind {@link ReaderMain} runs, also the start of the JVM's name
	 * @param args the backlog's reader arguments
	 */
	static BacklogReads readAndRecord(ScenarioContext context, IngestionBacklogs.Backlog backlog, String label,
			String kind, Map<String, String> args) throws Exception {
		String tag = (backlog.transactions() == backlog.changes()) ? "1-per-tx" : "batched";
		BacklogReads reads = new BacklogReads(label, backlog, context.readers().run(kind + "-" + tag, kind, args));
		reads.record(context, "changes/s");
		return reads;
	}

	double coldRate() {
		return this.backlog.changes() / this.rounds.get(0).seconds();
	}

	/** Changes per second of the fastest warm round, or of the cold one when there is no other. */
	double warmRate() {
		return this.backlog.changes() / this.rounds.stream().skip(1).mapToDouble(ReaderMain.Round::seconds).min()
			.orElse(this.rounds.get(0).seconds());
	}

	/** Every round in a few words, for the results. */
	String describe() {
		return this.rounds.stream().map((round) -> String.format("%.2f s (first change at %.2f s, %.1f CPU s, %,d events)",
				round.seconds(), round.firstSeconds(), round.cpuSeconds(), round.events())).collect(Collectors.joining("; "));
	}

	/** Records the cold and the warm figure. */
	void record(ScenarioContext context, String unit) {
		double mbPerSecond = this.backlog.bytes() / 1e6 / this.rounds.get(0).seconds();
		context.record(ResultRow.measured(context.scenario(), context.flavor(), this.backlog.name(), this.reader + ", cold",
				coldRate(), unit, String.format("first read of a fresh JVM, %.0f MB/s of binlog; rounds: %s", mbPerSecond,
						describe())));
		context.record(ResultRow.measured(context.scenario(), context.flavor(), this.backlog.name(), this.reader + ", warm",
				warmRate(), unit, "fastest of rounds 2 to " + this.rounds.size() + " in the same JVM"));
	}

}
