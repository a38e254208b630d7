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

	/** Chunks read, and written, in parallel unless configured otherwise. */
	public static final int DEFAULT_THREADS = 4;

	/** Rows of a snapshot's first chunk unless configured otherwise. */
	public static final int DEFAULT_INITIAL_CHUNK_ROWS = 5_000;

	/** Fewest rows per chunk unless configured otherwise. */
	public static final int DEFAULT_MIN_CHUNK_ROWS = 1_000;

	/** Most rows per chunk unless configured otherwise. */
	public static final int DEFAULT_MAX_CHUNK_ROWS = 100_000;

	/** Time one chunk should take unless configured otherwise. */
	public static final Duration DEFAULT_TARGET_CHUNK_TIME = Duration.ofMillis(500);

	/** Four threads, chunks of 1,000 to 100,000 rows starting at 5,000, each taking about 500 ms. */
	public static final CopySizing DEFAULTS = new CopySizing(DEFAULT_THREADS, DEFAULT_INITIAL_CHUNK_ROWS,
			DEFAULT_MIN_CHUNK_ROWS, DEFAULT_MAX_CHUNK_ROWS, DEFAULT_TARGET_CHUNK_TIME);

	public CopySizing {
		if (threads < 1 || minChunkRows < 1 || maxChunkRows < minChunkRows || initialChunkRows < 1) {
			throw new IllegalArgumentException("Copy threads and chunk sizes must be positive, with min <= max");
		}
	}

	/** One thread, chunks of a fixed size. */
	public static CopySizing fixed(int chunkRows) {
		return new CopySizing(1, chunkRows, chunkRows, chunkRows, DEFAULT_TARGET_CHUNK_TIME);
	}

}
