package io.tributary.copy;

import java.time.Duration;

/**
 * How many chunks a copy reads at once and how large they are.
 *
 * @param threads chunks read in parallel, and chunks written in parallel (see {@code CopyWorkers})
 * @param initialChunkRows rows of the first chunk
 * @param minChunkRows floor of the chunk size
 * @param maxChunkRows ceiling of the chunk size
 * @param targetChunkTime time one chunk should take to read and write; the size follows it
 */
public record CopySizing(int threads, int initialChunkRows, int minChunkRows, int maxChunkRows,
		Duration targetChunkTime) {

	public CopySizing {
		if (threads < 1 || minChunkRows < 1 || maxChunkRows < minChunkRows || initialChunkRows < 1) {
			throw new IllegalArgumentException("Copy threads and chunk sizes must be positive, with min <= max");
		}
	}

	/** One thread, chunks of a fixed size. */
	public static CopySizing fixed(int chunkRows) {
		return new CopySizing(1, chunkRows, chunkRows, chunkRows, Duration.ofMillis(500));
	}

}
