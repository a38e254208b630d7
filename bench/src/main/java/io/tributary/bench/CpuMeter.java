package io.tributary.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Tells the CPU time of a benchmark's own processes apart from that of everything else running on
 * the machine, from {@code /proc}: a benchmark on a shared machine can then wait for the others to
 * go quiet before it measures, and report how much they took while it did.
 *
 * <p>The own processes are this JVM and the database servers listening on the given ports. Where
 * {@code /proc} is not readable, samples are empty and every share reads as unknown (-1).
 */
public final class CpuMeter {

	private static final Path PROC = Path.of("/proc");

	private final Set<Long> pids = new LinkedHashSet<>();

	/**
	 * Creates a meter for this JVM and the {@code mariadbd} or {@code mysqld} processes started
	 * with {@code --port=} one of the ports.
	 * @param serverPorts ports of the database servers the benchmark runs
	 */
	public CpuMeter(int... serverPorts) {
		this.pids.add(ProcessHandle.current().pid());
		this.pids.addAll(serverPids(serverPorts));
	}

	/** Returns the ids of the processes counted as the benchmark's own. */
	public Set<Long> pids() {
		return Set.copyOf(this.pids);
	}

	/** Returns the machine's and the own processes' CPU ticks now. */
	public Sample sample() {
		try {
			long[] machine = machineTicks();
			long own = 0;
			for (long pid : this.pids) {
				own += processTicks(pid);
			}
			return new Sample(machine[0], machine[1], own, System.nanoTime());
		}
		catch (IOException | RuntimeException ex) {
			return new Sample(-1, -1, -1, System.nanoTime());
		}
	}

	/**
	 * Waits until other processes used less than {@code limit} of the machine during one second,
	 * twice in a row, or until {@code maxWait} is up.
	 * @param limit share of all cores, for example {@code 0.1}
	 * @param maxWait longest wait
	 * @return the seconds waited
	 */
	public double awaitQuiet(double limit, Duration maxWait) throws InterruptedException {
		long started = System.nanoTime();
		long deadline = started + maxWait.toNanos();
		int quietSeconds = 0;
		while (quietSeconds < 2 && System.nanoTime() < deadline) {
			Sample before = sample();
			Thread.sleep(1000);
			Share share = before.until(sample());
			quietSeconds = (share.others() >= 0 && share.others() < limit) ? quietSeconds + 1 : 0;
		}
		return (System.nanoTime() - started) / 1e9;
	}

	/**
	 * Waits until the database server listening on a port used less than {@code limit} of the
	 * machine's cores during two quarter-seconds in a row, or until {@code maxWait} is up: how long
	 * a server keeps working in the background (InnoDB purging old row versions) after a statement
	 * returned. Other processes do not count.
	 * @param serverPort the server's port
	 * @param limit share of all cores, for example {@code 0.05}
	 * @param maxWait longest wait
	 * @return seconds from the call until the first of the two quiet quarter-seconds began, or -1
	 * when the server was not quiet within {@code maxWait} or its use cannot be read
	 */
	public static double awaitServerIdle(int serverPort, double limit, Duration maxWait) throws InterruptedException {
		List<Long> pids = serverPids(serverPort);
		if (pids.size() != 1) {
			return -1;
		}
		long pid = pids.get(0);
		long started = System.nanoTime();
		long deadline = started + maxWait.toNanos();
		long quietSince = -1;
		long beforeNanos = started;
		long[] before = ticks(pid);
		while (System.nanoTime() < deadline) {
			Thread.sleep(250);
			long nowNanos = System.nanoTime();
			long[] now = ticks(pid);
			if (before == null || now == null || now[0] <= before[0]) {
				return -1;
			}
			double share = (double) (now[1] - before[1]) / (now[0] - before[0]);
			if (share >= limit) {
				quietSince = -1;
			}
			else if (quietSince < 0) {
				quietSince = beforeNanos;
			}
			else {
				return (quietSince - started) / 1e9;
			}
			before = now;
			beforeNanos = nowNanos;
		}
		return -1;
	}

	/** The machine's ticks on all cores and one process's, or {@code null} when unreadable. */
	private static long[] ticks(long pid) {
		try {
			return new long[] { machineTicks()[1], processTicks(pid) };
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/** The ticks all cores were busy and all ticks since boot, from the first line of {@code /proc/stat}. */
	private static long[] machineTicks() throws IOException {
		String[] fields = Files.readAllLines(PROC.resolve("stat")).get(0).trim().split("\\s+");
		long total = 0;
		for (int i = 1; i < Math.min(fields.length, 9); i++) {
			total += Long.parseLong(fields[i]);
		}
		long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
		return new long[] { total - idle, total };
	}

	private static long processTicks(long pid) {
		try {
			String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"));
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			// utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
			return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		}
		catch (IOException | RuntimeException ex) {
			return 0;
		}
	}

	private static List<Long> serverPids(int... ports) {
		List<Long> found = new ArrayList<>();
		for (ServerProcess server : servers()) {
			if (Arrays.stream(ports).anyMatch((port) -> port == server.port())) {
				found.add(server.pid());
			}
		}
		return found;
	}

	/**
	 * The {@code mariadbd} and {@code mysqld} processes running on the machine with a
	 * {@code --port=} argument; none when {@code /proc} cannot be read.
	 */
	static List<ServerProcess> servers() {
		List<ServerProcess> found = new ArrayList<>();
		try (Stream<Path> entries = Files.list(PROC)) {
			for (Path entry : entries.toList()) {
				String name = entry.getFileName().toString();
				if (!name.chars().allMatch(Character::isDigit)) {
					continue;
				}
				List<String> args = commandLine(entry);
				if (args.isEmpty()) {
					continue;
				}
				String command = args.get(0).substring(args.get(0).lastIndexOf('/') + 1);
				if (!command.equals("mariadbd") && !command.equals("mysqld")) {
					continue;
				}
				for (String arg : args) {
					if (arg.startsWith("--port=")) {
						found.add(new ServerProcess(Long.parseLong(name), command,
								Integer.parseInt(arg.substring("--port=".length()))));
					}
				}
			}
		}
		catch (IOException | NumberFormatException ex) {
			// No /proc: only this JVM is counted.
		}
		return found;
	}

	/** A database server process: its id, command ({@code mariadbd} or {@code mysqld}) and port. */
	record ServerProcess(long pid, String command, int port) {

	}

	private static List<String> commandLine(Path process) {
		try {
			String line = new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8);
			return line.isEmpty() ? List.of() : Arrays.asList(line.split("\0"));
		}
		catch (IOException ex) {
			return List.of();
		}
	}

	/**
	 * CPU ticks at one moment.
	 *
	 * @param busy ticks all cores were not idle since boot, or -1 when unknown
	 * @param total all ticks of all cores since boot
	 * @param own ticks of the own processes since they started
	 * @param nanos {@link System#nanoTime()} of the sample
	 */
	public record Sample(long busy, long total, long own, long nanos) {

		/** Returns how the machine was used between this sample and a later one. */
		public Share until(Sample later) {
			if (this.total < 0 || later.total <= this.total) {
				return new Share(-1, -1, -1);
			}
			double span = later.total - this.total;
			double busy = (later.busy - this.busy) / span;
			double own = Math.min(busy, (later.own - this.own) / span);
			return new Share(busy, own, Math.max(0, busy - own));
		}

		/** Returns how the machine was used from this sample until now. */
		public Share untilNow(CpuMeter meter) {
			return until(meter.sample());
		}

	}

	/**
	 * Shares of the machine's CPU capacity (all cores) over an interval; -1 when unknown.
	 *
	 * @param busy used by anything
	 * @param own used by the own processes
	 * @param others used by every other process
	 */
	public record Share(double busy, double own, double others) {

		@Override
		public String toString() {
			if (this.busy < 0) {
				return "CPU use unknown";
			}
			return String.format("CPU %.0f%% busy, %.0f%% ours, %.0f%% other processes", this.busy * 100, this.own * 100,
					this.others * 100);
		}

	}

}
