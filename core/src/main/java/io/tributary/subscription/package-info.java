/**
 * Per-table buffers of pending changes, merged by key: only the final image (or deletion) per key
 * is kept. For a table whose key is not memory-comparable (a case- or accent-insensitive
 * collation), changes read after its copy are queued in binlog order instead, and applied in that
 * order.
 *
 * <p>Invariants: applying a buffer's content is idempotent; the copier position used to judge a
 * change is read after the change was added; the oldest resume position over buffered entries,
 * queued ones included, is known at all times, so the confirm bound never passes a change still
 * held; merged changes taken before a switch to binlog order are applied before any queued one.
 */
package io.tributary.subscription;
