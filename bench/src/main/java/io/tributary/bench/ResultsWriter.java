package io.tributary.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a run's results as a Markdown file and a CSV file of the same name, dated by the run's
 * start: {@code run-2026-12-01T0800.md} and {@code .csv}. The Markdown file starts with the machine
 * and the settings, then the targets (figure, reference of the same run, ratio, target, hit or
 * miss), then every figure, then what the profiles and the scenarios reported.
 */
final class ResultsWriter {

	private static final DateTimeFormatter FILE_STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmm", Locale.ROOT);

	private ResultsWriter() {
	}

	/** Returns the base name of the files of a run started at the given time. */
	static String baseName(LocalDateTime started) {
		return "run-" + started.format(FILE_STAMP);
	}

	/**
	 * Writes both files.
	 * @return the Markdown file
	 */
	static Path write(Path dir, String baseName, BenchSettings settings, LocalDateTime started, String duration,
			Map<String, String> serverFacts, List<ResultRow> rows, List<String> bounds, List<String> details)
			throws IOException {
		Files.createDirectories(dir);
		Path markdown = dir.resolve(baseName + ".md");
		Files.writeString(markdown, markdown(settings, started, duration, serverFacts, rows, bounds, details));
		Files.writeString(dir.resolve(baseName + ".csv"), csv(rows));
		return markdown;
	}

	static String markdown(BenchSettings settings, LocalDateTime started, String duration,
			Map<String, String> serverFacts, List<ResultRow> rows, List<String> bounds, List<String> details) {
		StringBuilder out = new StringBuilder();
		out.append("# Benchmark run of ").append(started.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)).append("\n\n");
		out.append("- Machine: ").append(machine()).append('\n');
		out.append("- JVM: ").append(jvm()).append('\n');
		out.append("- OS: ").append(os()).append('\n');
		serverFacts.forEach((server, facts) -> out.append("- ").append(server).append(": ").append(facts).append('\n'));
		out.append("- Settings: ").append(settings.describe()).append('\n');
		out.append("- Whole run: ").append(duration).append("\n\n");
		List<ResultRow> comparisons = rows.stream().filter(ResultRow::isComparison).toList();
		List<ResultRow> failures = rows.stream().filter(ResultRow::isFailure).toList();
		if (!failures.isEmpty()) {
			out.append("## Failures\n\n| scenario | server | reason |\n| --- | --- | --- |\n");
			for (ResultRow row : failures) {
				out.append("| ").append(row.scenario()).append(" | ").append(row.server()).append(" | ")
					.append(cell(shortened(row.note()))).append(" |\n");
			}
			out.append('\n');
		}
		out.append("## Targets\n\nEach figure against a reference measured in the same run; ratio = figure / reference.\n\n")
			.append("| scenario | server | shape | figure | value | reference | reference value | ratio | target | ")
			.append("verdict |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
		for (ResultRow row : comparisons) {
			out.append(String.format("| %s | %s | %s | %s | %s %s | %s | %s %s | %s | %s | %s |%n", row.scenario(),
					row.server(), cell(row.shape()), cell(row.measure()), number(row.value()), row.unit(),
					cell(row.reference()),
					number(row.referenceValue()), row.referenceUnitText(), ratio(row.ratio()),
					row.targetText(),
					row.verdict().isEmpty() ? "-" : "**" + row.verdict() + "**"));
		}
		if (!bounds.isEmpty()) {
			out.append("\n## What bounds each figure\n\n");
			bounds.forEach((line) -> out.append("- ").append(line).append('\n'));
		}
		out.append("\n## Figures\n\n| scenario | server | shape | measure | value | unit | how |\n")
			.append("| --- | --- | --- | --- | --- | --- | --- |\n");
		for (ResultRow row : rows) {
			if (row.isComparison() || row.isFailure()) {
				continue;
			}
			out.append(String.format("| %s | %s | %s | %s | %s | %s | %s |%n", row.scenario(), row.server(),
					cell(row.shape()), cell(row.measure()), number(row.value()), row.unit(), cell(row.note())));
		}
		for (String detail : details) {
			out.append('\n').append(detail.strip()).append('\n');
		}
		return out.toString();
	}

	static String csv(List<ResultRow> rows) {
		StringBuilder out = new StringBuilder(
				"scenario,server,shape,measure,value,unit,reference,reference_value,ratio,target,bound,verdict,note\n");
		for (ResultRow row : rows) {
			List<String> fields = new ArrayList<>(List.of(row.scenario(), row.server(), row.shape(), row.measure(),
					plain(row.value()), row.unit(), row.reference(), plain(row.referenceValue()), plain(row.ratio()),
					plain(row.target()), Double.isNaN(row.target()) ? "" : (row.atMost() ? "at most" : "at least"),
					row.verdict(), row.note()));
			out.append(String.join(",", fields.stream().map(ResultsWriter::quoted).toList())).append('\n');
		}
		return out.toString();
	}

	/** Cores, memory and load of the machine. */
	static String machine() {
		String memory = "unknown memory";
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					long kib = Long.parseLong(line.replaceAll("\\D", ""));
					memory = String.format("%.1f GiB memory", kib / 1024.0 / 1024.0);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux: memory stays unknown.
		}
		String load;
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
			load = "load average " + fields[0] + " " + fields[1] + " " + fields[2] + " at the end";
		}
		catch (IOException | RuntimeException ex) {
			load = "load average unknown";
		}
		return Runtime.getRuntime().availableProcessors() + " cores, " + memory + ", " + load;
	}

	static String jvm() {
		return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + ", max heap "
				+ (Runtime.getRuntime().maxMemory() >> 20) + " MiB, arguments "
				+ ManagementFactory.getRuntimeMXBean().getInputArguments();
	}

	static String os() {
		String pretty = System.getProperty("os.name");
		try {
			for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
				if (line.startsWith("PRETTY_NAME=")) {
					pretty = line.substring("PRETTY_NAME=".length()).replace("\"", "");
				}
			}
		}
		catch (IOException ex) {
			// No os-release: the JVM's name of the OS.
		}
		return pretty + ", kernel " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
	}

	private static String number(double value) {
		if (Double.isNaN(value)) {
			return "-";
		}
		return (Math.abs(value) >= 100) ? String.format("%,.0f", value) : String.format("%,.2f", value);
	}

	private static String ratio(double value) {
		return Double.isNaN(value) ? "-" : String.format("%.2fx", value);
	}

	private static String plain(double value) {
		return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
	}

	private static String cell(String text) {
		return text.replace("|", "\\|").replace("\n", " ");
	}

	/** A failure's reason up to its first lines: the whole log tail stays in the reader's log file. */
	private static String shortened(String text) {
		return (text.length() <= 800) ? text : text.substring(0, 800) + " ...";
	}

	private static String quoted(String field) {
		if (field.contains(",") || field.contains("\"") || field.contains("\n")) {
			return "\"" + field.replace("\"", "\"\"") + "\"";
		}
		return field;
	}

}
