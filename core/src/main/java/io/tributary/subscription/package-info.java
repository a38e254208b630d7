/**
 * Per-table buffers of pending changes, merged by key: only the final image (or deletion) per key
 * is kept. For a table whose key is not memory-comparable (a case- or accent-insensitive
 * collation), changes read after its copy are queued in binlog order instead, and applied in that
 * order. Each buffer keeps the resume positions of what it holds ({@code PendingPositions}) and
 * the heap its changes take against its soft limit ({@code BufferMemory}): those buffered plus those
 * drained whose apply has not ended, so the reader never refills a second limit's worth while a
 * drain is written. The same bytes count in the pipeline's {@code BufferBudget}, which the buffers
 * of all its tables share (one atomic count, no lock under the budget). An add that would grow a
 * full buffer, or any buffer while the budget is spent, parks the reader and asks for a flush; the
 * end of a drain's apply ({@code settle}), of this table for its soft limit or of any table for the
 * budget, wakes it, as does a buffer cleared, retired or closed. The wait for the budget holds no
 * buffer's lock. A drain is full (at the flush interval or on request) or early (the reader is
 * idle); an early drain leaves keys it wrote recently for the next full one ({@code HotKeys}), so a
 * hot row costs a few writes per interval. What one drain took is
 * a {@code Drain}.
 *
 * <p>Invariants: applying a buffer's content is idempotent; the copier position used to judge a
 * change is read after the change was added; the oldest resume position over buffered entries,
 * queued ones included, is known at all times, so the confirm bound never passes a change still
 * held; merged changes taken before a switch to binlog order are applied before any queued one;
 * buffered plus in-flight bytes stay under the soft limit but for one change admitted below it,
 * and their sum over a pipeline's buffers under the budget but for one change per adding thread;
 * the budget holds exactly that sum, a retired buffer's bytes given back;
 * every drain is settled exactly once (changes put back after a failure count as buffered again),
 * and every park is counted; a change held back by an early drain stays pending, with its resume position.
 */
package io.tributary.subscription;
