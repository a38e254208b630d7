package io.tributary.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/** Small helpers for local processes: free ports, directory removal, log tails. */
final class Local {

	static final String LOOPBACK = "127.0.0.1";

	private Local() {}

	/** A TCP port on 127.0.0.1 that was free a moment ago. */
	static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
			return socket.getLocalPort();
		} catch (IOException e) {
			throw new UncheckedIOException("cannot find a free port on " + LOOPBACK, e);
		}
	}

	/** Deletes a directory tree, ignoring files that disappear or cannot be deleted. */
	static void deleteQuietly(Path root) {
		if (root == null || !Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
			return;
		}
		try {
			Files.walkFileTree(root, new SimpleFileVisitor<>() {
				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
					tryDelete(file);
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFileFailed(Path file, IOException exc) {
					tryDelete(file);
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult postVisitDirectory(Path dir, IOException exc) {
					tryDelete(dir);
					return FileVisitResult.CONTINUE;
				}
			});
		} catch (IOException ignored) {
			// best effort
		}
	}

	private static void tryDelete(Path path) {
		try {
			Files.deleteIfExists(path);
		} catch (IOException ignored) {
			// best effort
		}
	}

	/** The last {@code lines} lines of a text file, or a note saying why there are none. */
	static String tail(Path file, int lines) {
		if (file == null || !Files.isRegularFile(file)) {
			return "(no file " + file + ")";
		}
		try {
			List<String> all = List.of(new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\\R"));
			List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
			return String.join(System.lineSeparator(), last);
		} catch (IOException e) {
			return "(cannot read " + file + ": " + e + ")";
		}
	}
}
