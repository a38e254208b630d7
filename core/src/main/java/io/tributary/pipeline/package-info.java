/**
 * One pipeline per source server: table lifecycle (snapshotting, catching up, streaming, failed),
 * the catch-up loop and graceful stop.
 *
 * <p>Invariant (confirm bound): the position confirmed for a table is
 * {@code min(delivered, oldest pending)}, with delivered read before the buffer is drained, so it
 * never passes a change that is still buffered, deferred or being applied.
 *
 * <p>In listener mode the same holds for a {@code ChangeListener}: a batch it refused is put back
 * into the buffer, so the confirmed position and the checkpoint stay before it until the listener
 * accepts it, and a snapshot chunk it refused is offered again and never lands before it does.
 */
package io.tributary.pipeline;
