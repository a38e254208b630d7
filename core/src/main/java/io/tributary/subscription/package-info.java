/**
 * Per-table buffers of pending changes, merged by key: only the final image (or deletion) per key
 * is kept. For a table whose key is not memory-comparable (a case- or accent-insensitive
 * collation), changes read after its copy are queued in binlog order instead, and applied in that
 * order. Each buffer keeps the resume positions of what it holds ({@code PendingPositions}) and
 * the heap it takes against its soft limit ({@code BufferMemory}), where an add that would grow a
 * full buffer parks the reader and asks for a flush. A drain is full (at the flush interval or on
 * request) or early (the reader is idle); an early drain leaves keys it wrote recently for the next
 * full one ({@code HotKeys}), so a hot row costs a few writes per interval. What one drain took is
 * a {@code Drain}.
 *
 * <p>Invariants: applying a buffer's content is idempotent; the copier position used to judge a
 * change is read after the change was added; the oldest resume position over buffered entries,
 * queued ones included, is known at all times, so the confirm bound never passes a change still
 * held; merged changes taken before a switch to binlog order are applied before any queued one;
 * buffered bytes stay under the soft limit but for one change admitted below it, and every park
 * is counted; a change held back by an early drain stays pending, with its resume position.
 */
package io.tributary.subscription;
