/**
 * Per-table buffers of pending changes, merged by key: only the final image (or deletion) per key
 * is kept.
 *
 * <p>Invariants: applying a buffer's content is idempotent; the copier position used to judge a
 * change is read after the change was added; the oldest resume position over buffered entries is
 * known at all times, so the confirm bound never passes a change still held.
 */
package io.tributary.subscription;
