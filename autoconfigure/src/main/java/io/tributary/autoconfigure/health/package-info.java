/**
 * The {@code cdc} health indicator: one status over every pipeline of
 * {@link io.tributary.autoconfigure.TributaryPipelines}, judged from their immutable status only.
 *
 * <p>Invariants: it never changes a pipeline and never opens a connection, so a health check costs
 * no database work and cannot hang on an unreachable server; the time a source has been out of
 * reach comes from the pipeline's status ({@code source.disconnectedSince}), not from the check;
 * error texts in the details are redacted of anything that looks like a password.
 */
package io.tributary.autoconfigure.health;
