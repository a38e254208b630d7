/**
 * The {@code /actuator/cdc} endpoint: reads every pipeline's immutable status, and runs the
 * per-table actions of {@link io.tributary.pipeline.Pipeline} (pause, resume, flush, resnapshot,
 * restart, checksum). Every write passes three checks before it reaches a pipeline, in this order:
 * the user ({@link io.tributary.autoconfigure.security.CdcAccess}), the
 * {@code cdc.admin.actions-enabled} switch, and a known action and table. What a pipeline refuses
 * is answered with its message and a status saying why (409 state, 404 table, 503 database), never
 * with a stack trace; no response holds a password, since none is part of any status.
 */
package io.tributary.autoconfigure.endpoint;
