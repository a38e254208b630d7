package io.tributary.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

/**
 * Times {@code GET}s of one application over one HTTP/1.1 connection, the way a browser or a
 * scraper asks: each request's time runs from sending it until the whole body has arrived.
 */
final class TimedGets {

	private static final Duration TIMEOUT = Duration.ofMinutes(2);

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final String baseUrl;

	TimedGets(String baseUrl) {
		this.baseUrl = baseUrl;
	}

	/**
	 * Returns the body of a {@code GET}, or fails naming the status.
	 * @param path the path from the application's root, for example {@code /actuator/cdc}
	 */
	byte[] get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.baseUrl + path)).timeout(TIMEOUT).GET().build();
		HttpResponse<byte[]> response = this.client.send(request, HttpResponse.BodyHandlers.ofByteArray());
		if (response.statusCode() != 200) {
			throw new IOException("GET " + path + " answered " + response.statusCode() + ": "
					+ new String(response.body(), StandardCharsets.UTF_8));
		}
		return response.body();
	}

	/**
	 * Sends {@code warmup} requests, then times {@code requests} more.
	 * @return the size of the last body and the times
	 */
	Timing time(String path, int warmup, int requests) throws IOException, InterruptedException {
		for (int i = 0; i < warmup; i++) {
			get(path);
		}
		long[] nanos = new long[requests];
		int bytes = 0;
		for (int i = 0; i < requests; i++) {
			long started = System.nanoTime();
			bytes = get(path).length;
			nanos[i] = System.nanoTime() - started;
		}
		return new Timing(path, bytes, nanos);
	}

	/**
	 * What the timed requests of one path took.
	 *
	 * @param path the path asked for
	 * @param bytes the size of the last body
	 * @param nanos each request's time, in the order sent
	 */
	record Timing(String path, int bytes, long[] nanos) {

		double medianMillis() {
			long[] sorted = this.nanos.clone();
			Arrays.sort(sorted);
			int n = sorted.length;
			return ((n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0) / 1e6;
		}

		double maxMillis() {
			return Arrays.stream(this.nanos).max().orElse(0) / 1e6;
		}

		double minMillis() {
			return Arrays.stream(this.nanos).min().orElse(0) / 1e6;
		}

	}

}
