/**
 * The runnable sample: an embedded MariaDB source with a shop schema, a light write workload, and
 * Tributary replicating both tables into schema {@code replica}.
 */
package io.tributary.sample;
