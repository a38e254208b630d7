/**
 * The snapshot copier: reads existing rows in key-ordered chunks with locking reads and writes them
 * with REPLACE, publishing dispatched and landed watermarks.
 *
 * <p>Invariants: a chunk is published as dispatched before it is read and as landed only after it
 * is written; a change is dropped only above the dispatched bound, where the later locking read is
 * guaranteed to see it; nothing is dropped before the first chunk is dispatched. A chunk whose
 * write is retried (listener mode) does not land until the write succeeds.
 */
package io.tributary.copy;
