package io.tributary.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the corpus run found, file by file and table by table, as a Markdown table: printed, and
 * written to the module's build folder for a reader of the build.
 */
final class CorpusReport {

	/** One table's outcome on one path; {@code ok} is what passes. */
	record Line(String file, String table, String path, long rows, boolean ok, String outcome) {

	}

	private final String server;

	private final List<Line> lines = new ArrayList<>();

	private final List<String> skipped = new ArrayList<>();

	CorpusReport(String server) {
		this.server = server;
	}

	void add(String file, String table, String path, long rows, boolean ok, String outcome) {
		this.lines.add(new Line(file, table, path, rows, ok, outcome));
	}

	void skipped(String file, String statement, String error) {
		String shown = statement.replaceAll("\\s+", " ");
		this.skipped.add("`" + file + "`: `" + ((shown.length() > 100) ? shown.substring(0, 100) + "..." : shown)
				+ "`: " + error);
	}

	/** Returns the lines that did not pass. */
	List<Line> failures() {
		return this.lines.stream().filter((line) -> !line.ok()).toList();
	}

	List<Line> lines() {
		return List.copyOf(this.lines);
	}

	String render() {
		StringBuilder out = new StringBuilder();
		out.append("# Peer corpus on ").append(this.server).append("\n\n");
		out.append("| file | table | path | rows | result | outcome |\n| --- | --- | --- | ---: | --- | --- |\n");
		for (Line line : this.lines) {
			out.append("| ").append(line.file()).append(" | `").append(line.table().replace("|", "\\|"))
				.append("` | ").append(line.path()).append(" | ").append(line.rows()).append(" | ")
				.append(line.ok() ? "ok" : "**DIFFERS**").append(" | ")
				.append(line.outcome().replace("|", "\\|").replace("\n", " ")).append(" |\n");
		}
		out.append("\n").append(this.skipped.size()).append(" statements the server rejected, skipped:\n\n");
		this.skipped.forEach((line) -> out.append("- ").append(line.replace("\n", " ")).append('\n'));
		return out.toString();
	}

	/** Prints the report and writes it to {@code target/peer-corpus-<server>.md}. */
	void publish() {
		String text = render();
		System.out.println(text);
		try {
			Path file = Path.of("target", "peer-corpus-" + this.server + ".md");
			Files.createDirectories(file.getParent());
			Files.writeString(file, text, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
