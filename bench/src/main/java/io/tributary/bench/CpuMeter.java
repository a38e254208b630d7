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
			String[] fields = Files.readAllLines(PROC.resolve("stat")).get(0).trim().split("\\s+");
			long total = 0;
			for (int i = 1; i < Math.min(fields.length, 9); i++) {
				total += Long.parseLong(fields[i]);
			}
			long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
			long own = 0;
			for (long pid : this.pids) {
				own += processTicks(pid);
			}
			return new Sample(total - idle, total, own, System.nanoTime());
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
		if (ports.length == 0) {
			return found;
		}
		try (Stream<Path> entries = Files.list(PROC)) {
			for (Path entry : entries.toList()) {
				String name = entry.getFileName().toString();
				if (!name.chars().allMatch(Character::isDigit)) {
					continue;
				}
				List<String> args = commandLine(entry);
				if (args.isEmpty() || !(args.get(0).endsWith("mariadbd") || args.get(0).endsWith("mysqld"))) {
					continue;
				}
				boolean ours = Arrays.stream(ports).anyMatch((port) -> args.contains("--port=" + port));
				if (ours) {
					found.add(Long.parseLong(name));
				}
			}
		}
		catch (IOException ex) {
			// No /proc: only this JVM is counted.
		}
		return found;
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
