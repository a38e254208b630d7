/**
 * Compares a source table with its target chunk by chunk and repairs chunks that really differ.
 *
 * <p>A pass walks the key space in the same key-ordered chunks a snapshot uses. For each chunk
 * both servers compute the same aggregate (row count, XOR and sum of a CRC32 per row), where a
 * row's CRC covers every column the target has, with NULL kept apart from empty and every value
 * rendered the same way on both sides; a MySQL JSON value bound for a MySQL JSON column is rendered
 * on the source as the target holds it once it has parsed the value's text, so the type changes of
 * that parse are not differences while any other change of text is. The source read is a plain,
 * non-locking read.
 *
 * <p>Invariants: a chunk whose first comparison differs is judged again only after the table's
 * confirmed position has passed the source head read right after that chunk's source read, so a
 * difference made of changes still on their way to the target goes away instead of being
 * reported or repaired. A repair recopies the chunk's range with the snapshot's locking read,
 * REPLACE and delete of rows the source lacks, while the table's changes are held back, so it can
 * never write an older row over a newer one the stream has already applied.
 */
package io.tributary.checksum;
