package io.tributary.schema;

/**
 * How Tributary represents the values of one column in memory. Snapshot reads and binlog
 * decoding both produce exactly this representation, so a row image from either path binds to
 * the target identically.
 */
public enum ValueKind {

	/** Signed integers and unsigned integers up to 32 bits, and YEAR: {@link Long}. */
	INTEGER,

	/** BIGINT UNSIGNED: {@link java.math.BigInteger}, so the full range survives. */
	UNSIGNED_BIGINT,

	/** DECIMAL/NUMERIC: {@link java.math.BigDecimal} at the column's scale. */
	DECIMAL,

	/** FLOAT: {@link Float}. */
	FLOAT,

	/** DOUBLE/REAL: {@link Double}. */
	DOUBLE,

	/** BIT(n): {@code byte[]}, big-endian, one byte per started 8 bits, as the server returns it. */
	BIT,

	/** Character data, ENUM and SET labels, MariaDB JSON: {@link String}. */
	TEXT,

	/** BINARY, VARBINARY, BLOB, GEOMETRY: {@code byte[]}. */
	BYTES,

	/**
	 * DATE, TIME, DATETIME, TIMESTAMP: the server's own text rendering as a {@link String}
	 * (TIMESTAMP in UTC), which round-trips exactly, zero dates and negative times included.
	 */
	TEMPORAL,

	/**
	 * MySQL's binary JSON type: as a {@link String}, exactly the text a SELECT of the column returns
	 * (see {@code MySqlJsonText}), whether the value was copied or decoded from the binlog.
	 */
	JSON

}
