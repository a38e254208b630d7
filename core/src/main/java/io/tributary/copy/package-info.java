/**
 * The snapshot copier: reads existing rows in key-ordered chunks with locking reads and writes them
 * with REPLACE, publishing dispatched and landed watermarks.
 *
 * <p>Invariants: a chunk is published as dispatched before it is read and as landed only after it
 * is written; a change is dropped only above the dispatched bound, where the later locking read is
 * guaranteed to see it; nothing is dropped before the first chunk is dispatched.
 *
 * <p>{@link io.tributary.copy.ChunkBounds} and {@link io.tributary.copy.RangeCopy} are shared with
 * the checksum, which walks the same chunks and recopies one that differs with the same locking
 * read, REPLACE and delete of rows the source no longer has.
 */
package io.tributary.copy;
