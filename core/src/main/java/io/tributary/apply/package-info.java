/**
 * Writing to the target: idempotent multi-row REPLACE for row images and DELETE by key, and the
 * creation or verification of target tables.
 *
 * <p>Invariants: applying the same batch twice changes nothing; a target whose columns or key
 * differ from the source is refused, never written into.
 */
package io.tributary.apply;
