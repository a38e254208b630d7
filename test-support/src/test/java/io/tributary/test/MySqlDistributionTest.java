package io.tributary.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MySqlDistributionTest {

	private Path dir;

	@BeforeEach
	void createDir() throws IOException {
		dir = Files.createTempDirectory("tar-test-");
	}

	@AfterEach
	void deleteDir() {
		Local.deleteQuietly(dir);
	}

	@Test
	void extractsFilesDirectoriesAndSafeLinks() throws IOException {
		ByteArrayOutputStream tar = new ByteArrayOutputStream();
		entry(tar, "bin/", '5', 0755, new byte[0], "");
		entry(tar, "bin/mysqld", '0', 0755, "#!binary".getBytes(StandardCharsets.UTF_8), "");
		entry(tar, "lib/private/libx.so.1", '0', 0644, new byte[700], "");
		entry(tar, "lib/private/libx.so", '2', 0777, new byte[0], "libx.so.1");
		entry(tar, "bin/dangling.so", '2', 0777, new byte[0], "/elsewhere/libx.so");
		entry(tar, "../escape.txt", '0', 0644, "x".getBytes(StandardCharsets.UTF_8), "");
		String longName = "share/" + "d".repeat(120) + "/file.txt";
		entry(tar, "././@LongLink", 'L', 0644, (longName + "\0").getBytes(StandardCharsets.UTF_8), "");
		entry(tar, longName.substring(0, 99), '0', 0644, "long".getBytes(StandardCharsets.UTF_8), "");
		tar.write(new byte[1024]);

		MySqlDistribution.extractTarGz(new ByteArrayInputStream(gzip(tar.toByteArray())), dir);

		assertThat(dir.resolve("bin/mysqld")).hasContent("#!binary");
		assertThat(Files.getPosixFilePermissions(dir.resolve("bin/mysqld"))).contains(PosixFilePermission.OWNER_EXECUTE);
		assertThat(Files.size(dir.resolve("lib/private/libx.so.1"))).isEqualTo(700);
		assertThat(Files.isSymbolicLink(dir.resolve("lib/private/libx.so"))).isTrue();
		assertThat(Files.readSymbolicLink(dir.resolve("lib/private/libx.so"))).hasToString("libx.so.1");
		assertThat(dir.resolve("bin/dangling.so")).doesNotExist();
		assertThat(dir.getParent().resolve("escape.txt")).doesNotExist();
		assertThat(dir.resolve(longName)).hasContent("long");
	}

	@Test
	void concurrentResolversShareOneCompleteExtraction() throws Exception {
		ByteArrayOutputStream tar = new ByteArrayOutputStream();
		entry(tar, "bin/mysqld", '0', 0755, new byte[200_000], "");
		entry(tar, "share/english/errmsg.sys", '0', 0644, new byte[50_000], "");
		tar.write(new byte[1024]);
		Path tarball = dir.resolve("dist.tar.gz");
		Files.write(tarball, gzip(tar.toByteArray()));
		Path cacheRoot = dir.resolve("cache");

		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			List<Future<Path>> results = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				results.add(pool.submit(() -> MySqlDistribution.resolve(tarball.toUri().toURL(), cacheRoot)));
			}
			Set<Path> resolved = new HashSet<>();
			for (Future<Path> result : results) {
				resolved.add(result.get(1, TimeUnit.MINUTES));
			}
			assertThat(resolved).hasSize(1);
			Path distribution = resolved.iterator().next();
			assertThat(distribution.getFileName()).hasToString("dist-" + Files.size(tarball));
			assertThat(Files.size(distribution.resolve("bin/mysqld"))).isEqualTo(200_000);
		} finally {
			pool.shutdownNow();
		}
		try (var entries = Files.list(cacheRoot)) {
			assertThat(entries.map(p -> p.getFileName().toString())).containsExactly("dist-" + Files.size(tarball));
		}
		// A second resolve reuses the extraction.
		assertThat(MySqlDistribution.resolve(tarball.toUri().toURL(), cacheRoot))
				.isEqualTo(cacheRoot.resolve("dist-" + Files.size(tarball)));
	}

	private static void entry(ByteArrayOutputStream out, String name, char type, int mode, byte[] data, String link)
			throws IOException {
		byte[] header = new byte[512];
		put(header, 0, name, 100);
		put(header, 100, String.format("%07o", mode), 8);
		put(header, 108, "0000000", 8);
		put(header, 116, "0000000", 8);
		put(header, 124, String.format("%011o", data.length), 12);
		put(header, 136, "00000000000", 12);
		header[156] = (byte) type;
		put(header, 157, link, 100);
		put(header, 257, "ustar", 6);
		put(header, 263, "00", 2);
		for (int i = 148; i < 156; i++) {
			header[i] = ' ';
		}
		int sum = 0;
		for (byte b : header) {
			sum += b & 0xff;
		}
		put(header, 148, String.format("%06o", sum), 7);
		out.write(header);
		out.write(data);
		int pad = (512 - data.length % 512) % 512;
		out.write(new byte[pad]);
	}

	private static void put(byte[] header, int offset, String value, int length) {
		byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
		System.arraycopy(bytes, 0, header, offset, Math.min(bytes.length, length));
	}

	private static byte[] gzip(byte[] data) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
			gz.write(data);
		}
		return out.toByteArray();
	}
}
