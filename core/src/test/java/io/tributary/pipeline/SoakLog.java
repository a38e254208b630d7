package io.tributary.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The figures of a soak run ({@link SoakIT}): a time series of what each child pipeline reported
 * ({@code target/soak-<server>.csv}) and the events the run caused with how long each took to recover,
 * summed up in {@code target/soak-<server>.md}.
 */
final class SoakLog {

	/**
	 * One child's sample.
	 * @param second seconds since the workload started
	 * @param pid the child's process id
	 * @param sample what it reported
	 * @param lagMillis end to end: now minus the newest heartbeat the target holds, -1 before the first
	 * @param applied changes its pipeline applied since it started, all tables together
	 * @param load the machine's one-minute load average
	 */
	record Row(long second, long pid, ChildSample sample, long lagMillis, long applied, double load) {

		double heapMb() {
			return this.sample.heapAfterGc() / 1_048_576.0;
		}

	}

	/**
	 * Something the run did to the pipelines and how long they took to get over it.
	 * @param second seconds since the workload started
	 * @param kind what was done
	 * @param millis named durations, in the order measured
	 * @param note what else there is to know
	 */
	record Event(long second, String kind, List<String> millis, String note) {

	}

	private final String server;

	private final List<Row> rows = new ArrayList<>();

	private final List<Event> events = new ArrayList<>();

	private final List<String> notes = new ArrayList<>();

	SoakLog(String server) {
		this.server = server;
	}

	synchronized void add(Row row) {
		this.rows.add(row);
	}

	synchronized void add(Event event) {
		this.events.add(event);
		System.out.printf("Soak %d s: %s %s %s%n", event.second(), event.kind(), event.millis(), event.note());
	}

	synchronized void note(String line) {
		this.notes.add(line);
	}

	/** The leader's rows: the pipeline that replicates, whose memory and threads the run checks. */
	synchronized List<Row> leaderRows() {
		return this.rows.stream().filter((r) -> r.sample().leader()).toList();
	}

	/**
	 * The leader's rows cut into terms, one per process that led, in order: a leak grows within a
	 * process and starts over with the next, so memory and threads are judged term by term.
	 */
	synchronized List<List<Row>> leaderTerms() {
		List<List<Row>> terms = new ArrayList<>();
		for (Row row : leaderRows()) {
			List<Row> last = terms.isEmpty() ? null : terms.get(terms.size() - 1);
			if (last == null || last.get(0).pid() != row.pid()) {
				last = new ArrayList<>();
				terms.add(last);
			}
			last.add(row);
		}
		return terms;
	}

	/** Seconds from the first row to the last, 0 for none. */
	static long span(List<Row> rows) {
		return rows.isEmpty() ? 0 : rows.get(rows.size() - 1).second() - rows.get(0).second();
	}

	/**
	 * The median of {@code value} over the rows in the first ({@code part} 0) or last ({@code part} 2)
	 * third of the time they cover.
	 */
	static double thirdMedian(List<Row> rows, int part, ToDoubleFunction<Row> value) {
		if (rows.isEmpty()) {
			return Double.NaN;
		}
		long start = rows.get(0).second();
		long from = start + span(rows) * part / 3;
		long to = start + span(rows) * (part + 1) / 3;
		return median(rows.stream().filter((r) -> r.second() >= from && r.second() <= to).mapToDouble(value).toArray());
	}

	static double median(double[] values) {
		if (values.length == 0) {
			return Double.NaN;
		}
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return (sorted.length % 2 == 1) ? sorted[sorted.length / 2]
				: (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
	}

	static long percentile(List<Long> values, double p) {
		if (values.isEmpty()) {
			return -1;
		}
		List<Long> sorted = values.stream().sorted().toList();
		return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1));
	}

	/** Writes the series and the summary, with {@code header} lines first; returns the summary. */
	synchronized String write(List<String> header) throws IOException {
		Path directory = Files.createDirectories(Path.of("target"));
		StringBuilder csv = new StringBuilder(
				"second,pid,leader,epoch,heap_after_gc_mb,threads,pipeline_lag_ms,end_to_end_lag_ms,applied,reconnects,load1\n");
		for (Row r : this.rows) {
			csv.append(String.format(Locale.ROOT, "%d,%d,%b,%d,%.1f,%d,%d,%d,%d,%d,%.2f%n", r.second(), r.pid(),
					r.sample().leader(), r.sample().epoch(), r.heapMb(), r.sample().threads(), r.sample().lagMillis(),
					r.lagMillis(), r.applied(), r.sample().reconnects(), r.load()));
		}
		Files.writeString(directory.resolve("soak-" + this.server + ".csv"), csv, StandardCharsets.UTF_8);

		StringBuilder md = new StringBuilder("# Soak run on " + this.server + "\n\n");
		header.forEach((line) -> md.append(line).append('\n'));
		List<Row> leaders = leaderRows();
		List<Row> standbys = this.rows.stream().filter((r) -> !r.sample().leader()).toList();
		md.append("\n| series | first third (median) | last third (median) | max |\n| --- | ---: | ---: | ---: |\n");
		series(md, "leader heap after GC (MB)", leaders, Row::heapMb);
		series(md, "leader threads", leaders, (r) -> r.sample().threads());
		series(md, "standby heap after GC (MB)", standbys, Row::heapMb);
		series(md, "standby threads", standbys, (r) -> r.sample().threads());
		series(md, "end-to-end lag (ms)", leaders.stream().filter((r) -> r.lagMillis() >= 0).toList(),
				(r) -> r.lagMillis());
		series(md, "load average (1 min)", this.rows, Row::load);
		md.append("\n| s | event | recovery (ms) | note |\n| ---: | --- | --- | --- |\n");
		for (Event e : this.events) {
			md.append("| ").append(e.second()).append(" | ").append(e.kind()).append(" | ")
				.append(String.join(", ", e.millis())).append(" | ").append(e.note()).append(" |\n");
		}
		if (!this.notes.isEmpty()) {
			md.append('\n');
			this.notes.forEach((line) -> md.append("- ").append(line).append('\n'));
		}
		Files.writeString(directory.resolve("soak-" + this.server + ".md"), md, StandardCharsets.UTF_8);
		return md.toString();
	}

	private static void series(StringBuilder md, String name, List<Row> rows, ToDoubleFunction<Row> value) {
		double max = rows.stream().mapToDouble(value).max().orElse(Double.NaN);
		md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f |%n", name, thirdMedian(rows, 0, value),
				thirdMedian(rows, 2, value), max));
	}

	/** The rows of one child, in order. */
	synchronized List<Row> rowsOf(long pid) {
		return this.rows.stream().filter((r) -> r.pid() == pid).sorted(Comparator.comparingLong(Row::second)).toList();
	}

}
