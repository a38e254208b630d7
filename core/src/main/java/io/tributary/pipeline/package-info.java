/**
 * One pipeline per source server: table lifecycle (snapshotting, catching up, streaming, failed),
 * the catch-up loop and graceful stop.
 *
 * <p>Invariant (confirm bound): the position confirmed for a table is
 * {@code min(delivered, oldest pending)}, with delivered read before the buffer is drained, so it
 * never passes a change that is still buffered, deferred or being applied.
 */
package io.tributary.pipeline;
