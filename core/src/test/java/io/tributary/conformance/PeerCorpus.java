package io.tributary.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The typed-value test SQL of another CDC project, kept beside this project (never inside it) as a
 * conformance corpus: where it is, which files it holds, and each file's statements, split the
 * way that project's own test loader splits them.
 */
final class PeerCorpus {

	/** System property naming the corpus folder, to find it where the default does not. */
	static final String LOCATION_PROPERTY = "tributary.peer-corpus";

	/** Where the corpus is looked for, relative to the project's root and to its parents. */
	private static final Path RELATIVE = Path.of("..", "shared", "peer-fixtures", "debezium");

	private PeerCorpus() {
	}

	/**
	 * Returns the corpus folder: the one the system property names, or the one found beside the
	 * project, walking up from the working folder; empty when there is none.
	 */
	static Optional<Path> locate() {
		String configured = System.getProperty(LOCATION_PROPERTY);
		if (configured != null && !configured.isBlank()) {
			Path path = Path.of(configured);
			return Files.isDirectory(path) ? Optional.of(path) : Optional.empty();
		}
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path candidate = dir.resolve(RELATIVE).normalize();
			if (Files.isRegularFile(candidate.resolve("README.md"))) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	/** Returns the corpus's SQL files, by name. */
	static List<Path> files(Path folder) {
		try (Stream<Path> entries = Files.list(folder)) {
			return entries.filter((path) -> path.getFileName().toString().endsWith(".sql")).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Returns a file's name without {@code .sql}. */
	static String stem(Path file) {
		String name = file.getFileName().toString();
		return name.substring(0, name.length() - ".sql".length()).toLowerCase(Locale.ROOT);
	}

	/** Returns a file's statements, see {@link #statements(String)}. */
	static List<String> statements(Path file) {
		try {
			return statements(Files.readString(file, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Splits a file as its authors' loader does: each line trimmed, comment lines dropped and a
	 * trailing {@code --} comment cut, the text split on {@code ;}, and {@code $$} (which stands
	 * for the {@code ;} inside a routine's body) turned back into {@code ;}.
	 */
	static List<String> statements(String text) {
		StringBuilder joined = new StringBuilder();
		for (String raw : text.split("\n")) {
			String line = raw.trim();
			if (line.startsWith("--")) {
				continue;
			}
			int comment = line.indexOf(" --");
			if (comment >= 0) {
				line = line.substring(0, comment).trim();
			}
			joined.append(line).append('\n');
		}
		List<String> statements = new ArrayList<>();
		for (String part : joined.toString().split(";")) {
			String statement = part.replace("$$", ";").trim();
			if (!statement.isEmpty()) {
				statements.add(statement);
			}
		}
		return statements;
	}

	/**
	 * Returns the default character set a file's schema is created with: the two files about a
	 * schema's default character set need theirs, every other file takes the server's.
	 */
	static String schemaCharset(String stem) {
		return switch (stem) {
			case "db_default_charset" -> "utf8mb4";
			case "db_default_charset_noutf" -> "latin2";
			default -> null;
		};
	}

}
