package io.tributary.bench;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.tributary.source.Position;

/**
 * The main class of a reader JVM ({@link ReaderJvm}): reads one stretch of binlog several times with
 * one reader and writes, per round, the seconds from the start of reading (connecting included)
 * until the last change of the stretch was seen. Round 1 is the cold one: the first read of this
 * JVM.
 *
 * <p>Arguments are {@code key=value}: {@code reader} (tributary, tributary-unsubscribed, raw,
 * debezium, debezium-schema), {@code result} (file the rounds are written to), {@code flavor},
 * {@code host}, {@code port}, {@code user}, {@code password}, {@code schema}, {@code table},
 * {@code other} (the table an unsubscribed reader subscribes to), {@code from} and {@code to}
 * (positions {@code file:offset}), {@code changes} (row changes of {@code table} in the stretch),
 * {@code rounds}, {@code serverId} (of the first round; each round adds one) and {@code history}
 * (Debezium's schema history file).
 */
public final class ReaderMain {

	private ReaderMain() {
	}

	public static void main(String[] argv) {
		int exit = 0;
		try {
			Map<String, String> args = new LinkedHashMap<>();
			for (String arg : argv) {
				int equals = arg.indexOf('=');
				args.put(arg.substring(0, equals), arg.substring(equals + 1));
			}
			run(new Args(args));
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			exit = 1;
		}
		// The Debezium engine and the drivers leave non-daemon threads behind.
		System.exit(exit);
	}

	private static void run(Args args) throws Exception {
		String className = switch (args.text("reader")) {
			case "tributary", "tributary-unsubscribed" -> "io.tributary.bench.TributaryBacklogReader";
			case "raw" -> "io.tributary.bench.RawBacklogReader";
			case "debezium", "debezium-schema" -> "io.tributary.bench.DebeziumBacklogReader";
			default -> throw new IllegalArgumentException("Unknown reader " + args.text("reader"));
		};
		// Loaded by name: a Tributary reader JVM has no Debezium classes, and the reverse.
		var constructor = Class.forName(className).getDeclaredConstructor(Args.class);
		constructor.setAccessible(true);
		BacklogReader reader = (BacklogReader) constructor.newInstance(args);
		Properties result = new Properties();
		int rounds = args.number("rounds");
		for (int round = 1; round <= rounds; round++) {
			long cpu = processCpuNanos();
			Round measured = reader.read(round);
			measured = measured.withCpu((processCpuNanos() - cpu) / 1e9);
			System.out.printf("round %d: %s%n", round, measured);
			measured.store(result, round);
			System.gc();
		}
		try (OutputStream out = Files.newOutputStream(Path.of(args.text("result")))) {
			result.store(out, args.text("reader"));
		}
	}

	private static long processCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	/** Reads the stretch of binlog once per call. */
	interface BacklogReader {

		/**
		 * Reads the whole stretch once.
		 * @param round 1 for the first read of this JVM
		 */
		Round read(int round) throws Exception;

	}

	/** A reader JVM's arguments. */
	record Args(Map<String, String> values) {

		String text(String key) {
			String value = this.values.get(key);
			if (value == null) {
				throw new IllegalArgumentException("Reader argument " + key + " missing");
			}
			return value;
		}

		int number(String key) {
			return Integer.parseInt(text(key));
		}

		Position position(String key) {
			return Position.parse(text(key));
		}

	}

	/**
	 * One read of the stretch.
	 *
	 * @param seconds from the start of reading until the last change was seen
	 * @param firstSeconds from the start of reading until the first change was seen, or NaN
	 * @param changes row changes of the measured table seen
	 * @param events binlog events (Debezium: records) seen
	 * @param cpuSeconds CPU time of the reader JVM during the round
	 */
	record Round(double seconds, double firstSeconds, long changes, long events, double cpuSeconds) {

		Round withCpu(double cpu) {
			return new Round(this.seconds, this.firstSeconds, this.changes, this.events, cpu);
		}

		void store(Properties out, int round) {
			out.setProperty(round + ".seconds", Double.toString(this.seconds));
			out.setProperty(round + ".firstSeconds", Double.toString(this.firstSeconds));
			out.setProperty(round + ".changes", Long.toString(this.changes));
			out.setProperty(round + ".events", Long.toString(this.events));
			out.setProperty(round + ".cpuSeconds", Double.toString(this.cpuSeconds));
		}

		static List<Round> all(Properties in) {
			List<Round> rounds = new ArrayList<>();
			for (int round = 1; in.containsKey(round + ".seconds"); round++) {
				rounds.add(new Round(Double.parseDouble(in.getProperty(round + ".seconds")),
						Double.parseDouble(in.getProperty(round + ".firstSeconds")),
						Long.parseLong(in.getProperty(round + ".changes")),
						Long.parseLong(in.getProperty(round + ".events")),
						Double.parseDouble(in.getProperty(round + ".cpuSeconds"))));
			}
			return rounds;
		}

		@Override
		public String toString() {
			return String.format("%,d changes, %,d events in %.3f s (first change after %.3f s), %.2f CPU s",
					this.changes, this.events, this.seconds, this.firstSeconds, this.cpuSeconds);
		}

	}

}
