package io.tributary.apply;

import java.util.List;

import io.tributary.schema.Values;

/**
 * How row images and keys are cut into statements: at most a number of rows (never more
 * placeholders than the server takes) or about a number of bytes of values, whichever comes
 * first; and which statements are of the one size that is prepared as the pool's driver prepares
 * statements (on a MariaDB target of Tributary's own pool: on the server, kept per connection).
 *
 * <p>Only a statement of the full size, of at most {@value #SERVER_SIDE_PLACEHOLDERS}
 * placeholders, is prepared so: its text repeats from batch to batch, so the server parses it once
 * per connection, while the sizes of remainders vary, and each would hold its parameters in the
 * connection's statement cache. Any other size is prepared on the client ({@link ClientStatements}).
 */
final class BatchLimits {

	/** The server refuses statements with more placeholders than this. */
	static final int MAX_PLACEHOLDERS = 65_535;

	/**
	 * Most placeholders of a statement that may be prepared on the server. The driver keeps a
	 * cached server-side statement's parameters on its connection, about 430 bytes each, so this
	 * bounds one cached statement to about 1.8 MB of heap.
	 */
	static final int SERVER_SIDE_PLACEHOLDERS = 4_096;

	private final int upsertRows;

	private final int deleteKeys;

	private final long batchBytes;

	/** Rows of a REPLACE that may be prepared on the server, or -1 when none may. */
	private final int serverSideRows;

	/** Keys of a DELETE that may be prepared on the server, or -1 when none may. */
	private final int serverSideKeys;

	/**
	 * Creates the limits.
	 * @param batchRows most rows per statement asked for
	 * @param batchBytes about the most bytes of values per statement
	 * @param writtenColumns placeholders per row image
	 * @param keyColumns placeholders per key
	 */
	BatchLimits(int batchRows, long batchBytes, int writtenColumns, int keyColumns) {
		this.upsertRows = Math.max(1, Math.min(batchRows, MAX_PLACEHOLDERS / Math.max(1, writtenColumns)));
		this.deleteKeys = Math.max(1, Math.min(this.upsertRows, MAX_PLACEHOLDERS / keyColumns));
		this.batchBytes = batchBytes;
		this.serverSideRows = serverSideSize(this.upsertRows, writtenColumns);
		this.serverSideKeys = serverSideSize(this.deleteKeys, keyColumns);
	}

	private static int serverSideSize(int rows, int placeholdersPerRow) {
		return ((long) rows * placeholdersPerRow <= SERVER_SIDE_PLACEHOLDERS) ? rows : -1;
	}

	/** Returns the most row images one REPLACE statement takes. */
	int maxUpsertRows() {
		return this.upsertRows;
	}

	/** Returns the most keys one DELETE statement takes. */
	int maxDeleteKeys() {
		return this.deleteKeys;
	}

	/** Returns the approximate most bytes of values one statement carries. */
	long maxBatchBytes() {
		return this.batchBytes;
	}

	/**
	 * Returns where the REPLACE that starts at row {@code from} ends (exclusive): after
	 * {@link #maxUpsertRows()} rows, or after the row that reaches {@link #maxBatchBytes()}.
	 */
	int cut(List<Object[]> rows, int from) {
		long bytes = 0;
		int to = from;
		while (to < rows.size() && to - from < this.upsertRows) {
			bytes += Values.sizeOf(rows.get(to));
			to++;
			if (bytes >= this.batchBytes) {
				break;
			}
		}
		return to;
	}

	/** Returns whether the rows make one REPLACE, or none. */
	boolean fitsOneStatement(List<Object[]> rows) {
		return cut(rows, 0) >= rows.size();
	}

	/** Returns whether a REPLACE of {@code rows} row images is prepared on the server. */
	boolean serverSideReplace(int rows) {
		return rows == this.serverSideRows;
	}

	/** Returns whether a DELETE of {@code keys} keys is prepared on the server. */
	boolean serverSideDelete(int keys) {
		return keys == this.serverSideKeys;
	}

}
