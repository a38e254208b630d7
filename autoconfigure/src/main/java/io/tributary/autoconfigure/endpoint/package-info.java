/**
 * The {@code /actuator/cdc} endpoint: reads every pipeline's immutable status and one table's
 * detail (layout, partitioning, checkpoint, recent events), and runs the per-table actions through
 * {@link io.tributary.autoconfigure.actions.CdcActions}, which checks, in this order, the user, the
 * {@code cdc.admin.actions-enabled} switch, and a known action and table. What is refused is
 * answered with its message and a status saying why (409 state, 404 table, 503 database), never
 * with a stack trace; no response holds a password, since none is part of any status.
 */
package io.tributary.autoconfigure.endpoint;
