/**
 * The {@code /actuator/cdc} endpoint. It only reads the pipeline's immutable status.
 */
package io.tributary.autoconfigure.endpoint;
