package io.tributary.checksum;

/**
 * When and how source and target tables are compared.
 *
 * @param enabled whether a table is compared with its target when its snapshot finishes
 * @param fixDifferences whether a chunk that still differs after its re-check is recopied from
 * the source
 * @param chunkRows rows per compared chunk
 */
public record ChecksumSettings(boolean enabled, boolean fixDifferences, int chunkRows) {

	/** Rows per compared chunk unless configured otherwise. */
	public static final int DEFAULT_CHUNK_ROWS = 2_000;

	/** Compare after every snapshot, repair what differs, {@value #DEFAULT_CHUNK_ROWS} rows per chunk. */
	public static final ChecksumSettings DEFAULTS = new ChecksumSettings(true, true, DEFAULT_CHUNK_ROWS);

	public ChecksumSettings {
		if (chunkRows < 1) {
			throw new IllegalArgumentException("Checksum chunk rows must be positive, was " + chunkRows);
		}
	}

	public ChecksumSettings withEnabled(boolean value) {
		return new ChecksumSettings(value, this.fixDifferences, this.chunkRows);
	}

	public ChecksumSettings withFixDifferences(boolean value) {
		return new ChecksumSettings(this.enabled, value, this.chunkRows);
	}

	public ChecksumSettings withChunkRows(int rows) {
		return new ChecksumSettings(this.enabled, this.fixDifferences, rows);
	}

}
