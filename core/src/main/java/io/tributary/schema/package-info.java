/**
 * Table layouts read from information_schema, and the one canonical in-memory form of column
 * values shared by snapshot reads, binlog decoding and target writes.
 *
 * <p>Invariant: a value read by the snapshot and the same value decoded from the binlog are equal
 * objects, so either binds to the target identically.
 */
package io.tributary.schema;
