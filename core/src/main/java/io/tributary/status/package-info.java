/**
 * Immutable snapshots of pipeline and table state, read by the actuator endpoint, metrics and the
 * admin UI. Nothing here changes the pipeline.
 */
package io.tributary.status;
