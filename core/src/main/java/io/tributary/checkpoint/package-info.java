/**
 * Durable per-table resume positions, kept in a table of the target beside the data.
 *
 * <p>Invariant: a checkpoint is written only after the data it covers is applied, so a crash
 * replays at most one checkpoint interval and never skips a change.
 */
package io.tributary.checkpoint;
