/**
 * The snapshot copier: reads existing rows in key-ordered chunks with locking reads and writes them
 * with REPLACE, publishing dispatched and landed watermarks. A table keyed by one integer column
 * is chunked by stepping through its key space, other tables (and sparse key spaces) by probing
 * for each chunk's last key; the copy's recent speed and time left are measured for status.
 *
 * <p>{@link Copier} dispatches chunks from one thread: {@code ChunkPlan} places each chunk's
 * bound, {@code ChunkLedger} records it as dispatched and, once it is written, as landed, and
 * turns that into {@code CopyWatermarks}; {@code CopyWorkers} read up to the configured number of
 * chunks in parallel and write as many, the write of one overlapping the read of the next, each
 * through {@link RangeCopy} and {@code ChunkWriter}, which retries a failed write when asked to.
 *
 * <p>Invariants: a chunk is published as dispatched before it is read and as landed only after it
 * is written; a change is dropped only above the dispatched bound, where the later locking read is
 * guaranteed to see it; nothing is dropped before the first chunk is dispatched; the last chunk is
 * open-ended, so rows inserted above the highest key seen earlier are read; a stepped chunk covers
 * no more key values, and so reads no more rows, than the most rows a chunk may hold. A chunk whose
 * write is retried (listener mode) does not land until the write succeeds.
 *
 * <p>{@link ChunkBounds} and {@link RangeCopy} are shared with the checksum, which walks the same
 * chunks and recopies one that differs with the same locking read, REPLACE and delete of rows the
 * source no longer has.
 */
package io.tributary.copy;
