/**
 * Spring Boot auto-configuration of Tributary: {@code cdc.*} properties, Tributary's own source
 * and target connection pools, the pipeline bean and its lifecycle.
 *
 * <p>Invariants: the pipeline starts only after the context is refreshed and stops with a final
 * flush and checkpoint; Tributary never registers a {@code DataSource} bean, so the application's
 * own DataSource configuration is untouched.
 */
package io.tributary.autoconfigure;
