package io.tributary.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Linux {@code perf} for the scenarios: samples every process of the machine, the servers
 * included, while a stretch of a scenario runs ({@code perf record -a -g}, the kernel's CPU clock
 * at {@value #FREQUENCY} Hz, which needs no hardware counters), and tells from the recording who
 * used the CPU: each process's share of all samples (idle included), this JVM's by thread, and for
 * each server process its busiest functions and the share of its samples spent purging old row
 * versions, running client statements, applying replicated events and flushing pages.
 *
 * <p>Flight Recorder sees only this JVM; the servers share the same two cores, and on this machine
 * they take most of them, so the question what bounds a figure needs this view too.
 */
final class SystemProfiles {

	private static final int FREQUENCY = 499;

	private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

	private SystemProfiles() {
	}

	/**
	 * Returns why {@code perf} cannot record the whole machine here, or {@code null} when it can:
	 * it must be on the {@code PATH} and allowed to sample every process (root, or
	 * {@code kernel.perf_event_paranoid} at most 0).
	 */
	static String unavailable() {
		try {
			Process probe = new ProcessBuilder("perf", "record", "-a", "-F", Integer.toString(FREQUENCY), "-o",
					"/dev/null", "--", "true").redirectErrorStream(true).start();
			String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!probe.waitFor(60, TimeUnit.SECONDS)) {
				probe.destroyForcibly();
				return "'perf record -a' did not end within 60 s";
			}
			return (probe.exitValue() == 0) ? null
					: "'perf record -a' failed (exit " + probe.exitValue() + "): " + output.strip();
		}
		catch (IOException ex) {
			return "there is no 'perf' on the PATH (Debian: apt-get install linux-perf)";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted while trying 'perf record'";
		}
	}

	/**
	 * Runs a task while {@code perf} samples the machine into a file, and returns the task's result
	 * with the summary of the recording.
	 * @param file where the recording goes
	 * @param ownPid this JVM's process id, whose threads the summary lists one by one
	 * @param task what to record
	 */
	static <T> Recorded<T> record(Path file, long ownPid, Callable<T> task) throws Exception {
		Files.deleteIfExists(file);
		Path log = file.resolveSibling(file.getFileName() + ".log");
		Process perf = new ProcessBuilder("perf", "record", "-a", "-g", "-F", Integer.toString(FREQUENCY), "-o",
				file.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		// Named before the task: a server stopped during it is still told apart by its port.
		Map<Long, String> names = serverNames();
		T result;
		try {
			awaitStarted(perf, file, log);
			result = task.call();
		}
		finally {
			// SIGTERM: perf writes what it holds and ends.
			perf.destroy();
			if (!perf.waitFor(60, TimeUnit.SECONDS)) {
				perf.destroyForcibly();
				throw new IllegalStateException("perf did not end within 60 s of being told to; see " + log);
			}
		}
		return new Recorded<>(result, summarize(file, ownPid, names));
	}

	/** The running MariaDB and MySQL servers, by process id: {@code mariadbd on port 3306}. */
	private static Map<Long, String> serverNames() {
		Map<Long, String> names = new HashMap<>();
		for (CpuMeter.ServerProcess server : CpuMeter.servers()) {
			names.put(server.pid(), server.command() + " on port " + server.port());
		}
		return names;
	}

	private static void awaitStarted(Process perf, Path file, Path log) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
		// perf writes the file's header once its sampling is set up on every CPU.
		while (!Files.exists(file) || Files.size(file) == 0) {
			if (!perf.isAlive()) {
				throw new IllegalStateException("perf record ended at once (exit " + perf.exitValue() + "): "
						+ Files.readString(log).strip());
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("perf record wrote nothing within 30 s; see " + log);
			}
			perf.waitFor(20, TimeUnit.MILLISECONDS);
		}
	}

	/**
	 * Reads a recording's samples with {@code perf script} and sums them up, one line per finding.
	 * @param names process names already known, by process id; the others keep the name of the
	 * thread first sampled in them
	 */
	static List<String> summarize(Path file, long ownPid, Map<Long, String> names)
			throws IOException, InterruptedException {
		Process script = new ProcessBuilder("perf", "script", "-i", file.toString(), "-F", "comm,pid,tid,ip,sym")
			.redirectError(ProcessBuilder.Redirect.DISCARD)
			.start();
		Samples samples = new Samples();
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8))) {
			samples.read(reader);
		}
		if (!script.waitFor(10, TimeUnit.MINUTES)) {
			script.destroyForcibly();
			throw new IllegalStateException("perf script did not end within 10 minutes");
		}
		return samples.describe(ownPid, names);
	}

	/** What a recorded task returned, and the summary of its recording. */
	record Recorded<T>(T result, List<String> summary) {

	}

	/** The samples of one recording, counted by process, thread and function. */
	static final class Samples {

		private static final int TOP_FUNCTIONS = 8;

		private final Map<Long, Sampled> processes = new LinkedHashMap<>();

		/**
		 * Reads {@code perf script -F comm,pid,tid,ip,sym} output: a line {@code comm pid/tid}
		 * opens each sample, the frames of its stack follow, innermost first, one per line
		 * ({@code address function}), and a blank line ends it.
		 */
		void read(BufferedReader reader) throws IOException {
			Sampled current = null;
			String thread = null;
			List<String> frames = new ArrayList<>();
			String line;
			while ((line = reader.readLine()) != null) {
				if (line.isBlank()) {
					if (current != null) {
						current.add(thread, frames);
					}
					current = null;
					frames.clear();
				}
				else if (!Character.isWhitespace(line.charAt(0))) {
					int slash = line.lastIndexOf('/');
					int space = line.lastIndexOf(' ', slash);
					if (slash < 0 || space < 0) {
						continue;
					}
					long pid = Long.parseLong(line.substring(space + 1, slash).trim());
					thread = line.substring(0, space).strip();
					String command = thread;
					current = this.processes.computeIfAbsent(pid, (id) -> new Sampled(id, command));
				}
				else if (current != null) {
					String[] parts = line.strip().split("\\s+", 2);
					frames.add((parts.length == 2) ? parts[1] : "[unknown]");
				}
			}
			if (current != null) {
				current.add(thread, frames);
			}
		}

		List<String> describe(long ownPid, Map<Long, String> names) {
			List<String> lines = new ArrayList<>();
			long total = this.processes.values().stream().mapToLong((process) -> process.samples).sum();
			if (total == 0) {
				lines.add("no samples");
				return lines;
			}
			lines.add(String.format("%,d samples at %d Hz on every CPU; share of all samples by process:", total,
					FREQUENCY));
			this.processes.values()
				.stream()
				.sorted((a, b) -> Long.compare(b.samples, a.samples))
				.filter((process) -> process.samples * 200 >= total)
				.forEach((process) -> lines.add(String.format("  %5.1f%%  %s", share(process.samples, total),
						name(process, ownPid, names))));
			Sampled own = this.processes.get(ownPid);
			if (own != null) {
				lines.add("this JVM by thread (threads of one pool together), share of all samples:");
				own.threads.entrySet()
					.stream()
					.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
					.filter((entry) -> entry.getValue() * 200 >= total)
					.forEach((entry) -> lines.add(String.format("  %5.1f%%  %s", share(entry.getValue(), total),
							entry.getKey())));
			}
			this.processes.values()
				.stream()
				// MySQL names its threads ("connection", "ib_srv_purge"), so its process is known by its id.
				.filter((process) -> names.containsKey(process.pid) || process.isServer())
				.filter((process) -> process.samples * 50 >= total)
				.sorted((a, b) -> Long.compare(b.samples, a.samples))
				.forEach((process) -> {
					lines.add(String.format("%s: %.1f%% purging old row versions, %.1f%% running client statements, "
							+ "%.1f%% applying replicated events, %.1f%% flushing pages; busiest functions (own samples, "
							+ "share of the process):", name(process, ownPid, names), share(process.purge, process.samples),
							share(process.statements, process.samples), share(process.replicated, process.samples),
							share(process.flushing, process.samples)));
					process.leaves.entrySet()
						.stream()
						.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
						.limit(TOP_FUNCTIONS)
						.forEach((entry) -> lines.add(String.format("  %5.1f%%  %s",
								share(entry.getValue(), process.samples), entry.getKey())));
				});
			return lines;
		}

		private static String name(Sampled process, long ownPid, Map<Long, String> names) {
			if (process.pid == ownPid) {
				return "this JVM (pid " + process.pid + ")";
			}
			if (process.pid == 0) {
				return "idle";
			}
			String known = names.get(process.pid);
			return ((known != null) ? known : process.command) + " (pid " + process.pid + ")";
		}

		private static double share(long part, long whole) {
			return (whole == 0) ? 0 : 100.0 * part / whole;
		}

	}

	/** The samples of one process. */
	private static final class Sampled {

		private final long pid;

		private final String command;

		private long samples;

		private long purge;

		private long statements;

		private long replicated;

		private long flushing;

		private final Map<String, Long> threads = new HashMap<>();

		private final Map<String, Long> leaves = new HashMap<>();

		Sampled(long pid, String command) {
			this.pid = pid;
			this.command = command;
		}

		boolean isServer() {
			return this.command.equals("mariadbd") || this.command.equals("mysqld");
		}

		void add(String thread, List<String> frames) {
			this.samples++;
			// "GC Thread#1" and "tributary-apply-default-3" count with their pools.
			this.threads.merge(thread.replaceAll("[#-]?\\d+$", ""), 1L, Long::sum);
			if (!frames.isEmpty()) {
				this.leaves.merge(frames.get(0), 1L, Long::sum);
			}
			boolean purging = false;
			boolean statement = false;
			boolean replica = false;
			boolean flush = false;
			for (String frame : frames) {
				purging |= frame.contains("purge");
				statement |= frame.equals("do_command") || frame.equals("dispatch_command");
				// MariaDB's parallel and single SQL threads, MySQL's coordinator and workers.
				replica |= frame.contains("rpl_parallel") || frame.contains("handle_slave_sql")
						|| frame.contains("handle_slave_worker") || frame.contains("do_apply_event");
				flush |= frame.contains("page_cleaner") || frame.startsWith("buf_flush");
			}
			this.purge += purging ? 1 : 0;
			this.statements += statement ? 1 : 0;
			this.replicated += replica ? 1 : 0;
			this.flushing += flush ? 1 : 0;
		}

	}

}
