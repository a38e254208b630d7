/**
 * The runnable sample: an embedded MariaDB source with a shop schema, a light write workload, and
 * Tributary replicating both tables into schema {@code replica}.
 *
 * <p>The embedded source never outlives the JVM that started it: the application stops it after
 * its context has closed, and if the JVM dies first (even by SIGKILL) a {@link
 * io.tributary.sample.ServerWatchdog} stops it and deletes its directory.
 */
package io.tributary.sample;
