package io.tributary.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the apply scenario measured ({@link ApplyBacklogRun}), and its section of the results
 * file: per backlog shape the catch-up runs, the native replica and the physical limits, then the
 * hot rows and the checks.
 */
final class ApplyReport {

	private ApplyReport() {
	}

	/**
	 * One timed apply of a backlog.
	 *
	 * @param system what applied it
	 * @param workers apply workers or replica threads
	 * @param transactions transactions in the backlog
	 * @param seconds wall time until caught up
	 * @param events row changes read from the binlog
	 * @param writes row images written to the target
	 * @param statements statements that wrote them, or -1 when not counted
	 * @param contention Tributary: deadlocks and lock wait timeouts met; replica: transactions
	 * its parallel applier retried, or -1 when not known
	 * @param cpu how the machine's CPU was used during the run
	 * @param threadCpu CPU seconds of the benchmark JVM's threads during the run by thread name, or
	 * {@code null} when not measured
	 */
	record Run(String system, int workers, long transactions, double seconds, long events, long writes, long statements,
			long contention, CpuMeter.Share cpu, String threadCpu) {

		double rate() {
			return this.transactions / this.seconds;
		}

		String describe() {
			StringBuilder out = new StringBuilder(String.format("%s, %d worker(s): %,d transactions in %.2f s = %.0f "
					+ "changes/s; %,d events, %,d writes", this.system, this.workers, this.transactions, this.seconds,
					rate(), this.events, this.writes));
			if (this.statements >= 0) {
				out.append(String.format(", %,d statements, %d contention events", this.statements, this.contention));
			}
			else {
				out.append(String.format(", %d retried transactions", this.contention));
			}
			out.append("; ").append(this.cpu);
			if (this.threadCpu != null) {
				out.append("; JVM CPU seconds ").append(this.threadCpu);
			}
			return out.toString();
		}

	}

	/**
	 * The physical limits of applying one backlog on this machine, measured in the same run.
	 *
	 * @param rawSeconds the fastest raw read of the backlog's stretch of binlog (binlog client,
	 * every event body skipped, in a JVM of its own)
	 * @param rawRounds every raw read round, for the results
	 * @param rawWhere which reader JVM read those rounds, for the results
	 * @param writeSeconds the target server's own {@code REPLACE INTO t SELECT * FROM staging} of
	 * the backlog's final rows into the table as it was before the backlog
	 * @param finalRows rows in staging: the distinct ids the backlog updated
	 * @param busyAfterSeconds how long the target server stayed busy after that statement returned,
	 * purging the old row versions it left (no part of the floor, which is the
	 * statement's own time); -1 when it did not go quiet within the wait
	 */
	record Limits(double rawSeconds, String rawRounds, String rawWhere, double writeSeconds, long finalRows,
			double busyAfterSeconds) {

		/** The larger of the two: no catch-up can be faster. */
		double floor() {
			return Math.max(this.rawSeconds, this.writeSeconds);
		}

		/** Which of the two sets the floor. */
		String floorName() {
			return (this.rawSeconds >= this.writeSeconds) ? "the raw read" : "the target's own write";
		}

		String describe() {
			return String.format("raw read %.2f s (rounds: %s); target's own write of %,d final rows %.2f s, then the "
					+ "target server busy %s more, purging old row versions and writing pages; floor %.2f s (%s)",
					this.rawSeconds, this.rawRounds, this.finalRows, this.writeSeconds, busyAfter(), floor(), floorName());
		}

		/** How long the target stayed busy after its own write, as the results say it. */
		String busyAfter() {
			return (this.busyAfterSeconds < 0) ? "unknown (not quiet within 2 minutes)"
					: String.format("%.2f s", this.busyAfterSeconds);
		}

	}

	/**
	 * One backlog shape and everything applied from it.
	 *
	 * @param name for example {@code 1,000,000 single-row transactions on 1,000,000 rows}
	 * @param backlog what was written
	 * @param generateSeconds how long writing it took
	 * @param gtids transactions the source logged for it
	 * @param bytes its binlog bytes
	 * @param runs Tributary's catch-up runs, awaited with {@code awaitCaughtUp}
	 * @param replica the native replica's run
	 * @param limits the physical limits
	 * @param checks what the checksums said
	 */
	record Shape(String name, ApplyWorkload.Backlog backlog, long gtids, long bytes, List<Run> runs, Run replica,
			Limits limits, String checks) {

		Run best() {
			return this.runs.stream().max(Comparator.comparingDouble(Run::rate)).orElseThrow();
		}

	}

	/** CPU time of this JVM's threads, to tell where a run's time went. */
	record ThreadCpu(Map<Long, Long> nanos) {

		static ThreadCpu now() {
			ThreadMXBean bean = ManagementFactory.getThreadMXBean();
			Map<Long, Long> nanos = new HashMap<>();
			for (long id : bean.getAllThreadIds()) {
				nanos.put(id, bean.getThreadCpuTime(id));
			}
			return new ThreadCpu(nanos);
		}

		/**
		 * Returns the CPU seconds used since this sample by threads still alive: the total, then by
		 * thread name without trailing numbers, largest first.
		 */
		String since() {
			ThreadMXBean bean = ManagementFactory.getThreadMXBean();
			Map<String, Long> byName = new HashMap<>();
			long total = 0;
			for (ThreadInfo info : bean.getThreadInfo(bean.getAllThreadIds())) {
				if (info == null) {
					continue;
				}
				long now = bean.getThreadCpuTime(info.getThreadId());
				long used = now - this.nanos.getOrDefault(info.getThreadId(), 0L);
				if (now < 0 || used <= 0) {
					continue;
				}
				String name = info.getThreadName().replaceAll("-127\\.0\\.0\\.1$", "").replaceAll("[-#]?\\d+$", "");
				byName.merge(name, used, Long::sum);
				total += used;
			}
			String top = byName.entrySet()
				.stream()
				.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
				.filter((entry) -> entry.getValue() >= 50_000_000L)
				.map((entry) -> String.format("%s %.1f", entry.getKey(), entry.getValue() / 1e9))
				.collect(Collectors.joining(", "));
			return String.format("%.1f", total / 1e9) + (top.isEmpty() ? "" : " (" + top + ")");
		}

	}

	/**
	 * Renders the scenario's section of the results file.
	 * @param title server and version
	 * @param setup what was run, in a sentence
	 * @param shapes the backlog shapes
	 * @param hot the hot-row runs: backlog, while streaming, replica
	 * @param checks what the final checksums said
	 * @param log the scenario's log lines
	 */
	static String render(String title, String setup, List<Shape> shapes, List<Run> hot, String checks,
			CharSequence log) {
		StringBuilder out = new StringBuilder("### Apply backlog (" + title + ")\n\n" + setup + "\n\n");
		for (Shape shape : shapes) {
			out.append("#### ").append(shape.name()).append(String.format("%n%nWritten in %.1f s (%,d transactions "
					+ "logged, %,d binlog bytes, %,d distinct ids).%n%n", shape.backlog().seconds(), shape.gtids(),
					shape.bytes(), shape.backlog().distinctKeys()));
			out.append("| system | workers | seconds | changes/s | ratio vs replica | seconds / floor | target writes | "
					+ "statements | CPU busy | CPU of other processes |\n")
				.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
			for (Run run : shape.runs()) {
				row(out, shape, run);
			}
			row(out, shape, shape.replica());
			out.append("\nPhysical limits: ").append(shape.limits().describe()).append(". Checks: ")
				.append(shape.checks()).append(".\n\n");
		}
		out.append("changes/s = backlog transactions / seconds from start until caught up with the source head ")
			.append("(Tributary: `Pipeline.start()` until `awaitCaughtUp` returns; replica: `START SLAVE`/")
			.append("`START REPLICA` until its executed source position is at the head). ")
			.append("The floor is max(raw read, target's own write). Target writes are the pipeline's ")
			.append("`rowsUpserted`; the replica writes one row per event. CPU columns are shares of both cores ")
			.append("during the run; \"other processes\" is what processes other than this JVM and the two servers ")
			.append("used.\n\n#### Hot rows\n\n| run | events | target writes | events / writes | seconds |\n")
			.append("| --- | --- | --- | --- | --- |\n");
		for (Run run : hot) {
			out.append(String.format("| %s, %d workers | %,d | %,d | %.0fx | %.2f |%n", run.system(), run.workers(),
					run.events(), run.writes(), (double) run.events() / Math.max(1, run.writes()), run.seconds()));
		}
		out.append("\nTributary runs with its defaults (apply concurrency 4, flush every 250 ms, when the reader is ")
			.append("idle, or at 10,000 buffered keys); caught up is detected by polling the status. While streaming, ")
			.append("seconds run from the first update until caught up, so they include generating the updates.\n\n")
			.append("#### Checks\n\n")
			.append(checks)
			.append("\n\n#### Log\n\n")
			.append(log);
		return out.toString();
	}

	private static void row(StringBuilder out, Shape shape, Run run) {
		out.append(String.format("| %s | %d | %.1f | %,.0f | %.2fx | %.2fx | %,d | %s | %s | %s |%n", run.system(),
				run.workers(), run.seconds(), run.rate(), run.rate() / shape.replica().rate(),
				run.seconds() / shape.limits().floor(), run.writes(),
				(run.statements() >= 0) ? String.format("%,d", run.statements()) : "-", percent(run.cpu().busy()),
				percent(run.cpu().others())));
	}

	private static String percent(double share) {
		return (share >= 0) ? String.format("%.0f%%", share * 100) : "-";
	}

}
