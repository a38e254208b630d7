/**
 * The operator actions on the pipelines' tables (pause, resume, flush, resnapshot, restart,
 * checksum), as one service, {@link io.tributary.autoconfigure.actions.CdcActions}, that the
 * {@code /actuator/cdc} endpoint and the admin pages both call. Every action passes three checks
 * before it reaches a pipeline, in this order: the user
 * ({@link io.tributary.autoconfigure.security.CdcAccess}), the {@code cdc.admin.actions-enabled}
 * switch, and a known action and table. What a pipeline refuses comes back as a
 * {@link io.tributary.autoconfigure.actions.RequestRefused} with its message and a status saying
 * why (409 state, 404 table, 503 database), never a stack trace. Nothing here needs the actuator.
 */
package io.tributary.autoconfigure.actions;
