/**
 * Table layouts read from information_schema, and the one canonical in-memory form of column
 * values shared by snapshot reads, binlog decoding and target writes.
 *
 * <p>Invariant: a value read by the snapshot and the same value decoded from the binlog are equal
 * objects, so either binds to the target identically. For MySQL's binary JSON that object is the
 * text the server's SELECT returns, which {@code MySqlJsonText} reproduces byte for byte from the
 * binlog's binary form.
 */
package io.tributary.schema;
