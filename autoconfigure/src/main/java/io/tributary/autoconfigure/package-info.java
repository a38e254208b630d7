/**
 * Spring Boot auto-configuration of Tributary: {@code cdc.*} properties, their checks, one
 * pipeline per source server ({@code cdc.source} with {@code cdc.tables}, or each of
 * {@code cdc.sources.<name>}) with its own connection pools and lifecycle, and the
 * {@code TributaryPipelines} registry of them all.
 *
 * <p>Invariants: a configuration mistake ends startup before any pipeline starts, through a
 * {@code TributaryConfigurationException} and its failure analysis naming the property, its value
 * and the fix; every pipeline starts only after the context is refreshed and stops with a final
 * flush and checkpoint; with one source, each part (pipeline, source settings, connections,
 * checkpoint store) backs off to the application's own bean; Tributary never registers a
 * {@code DataSource} bean, so the application's own DataSource configuration is untouched; nothing
 * here needs the actuator or Micrometer.
 */
package io.tributary.autoconfigure;
