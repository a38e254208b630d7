/**
 * Micrometer metrics of every pipeline, under {@code cdc.*}, tagged {@code pipeline} and, for a
 * table's meters, {@code table}.
 *
 * <p>Every meter is a gauge, function counter or function timer that reads the pipelines' immutable
 * status through {@link io.tributary.autoconfigure.TributaryPipelines}: nothing here is called on
 * the reader or the catch-up loop, and nothing changes a pipeline. A pipeline is looked up by name
 * at each read, and its status is read at most once a second, so one scrape reads it once however
 * many meters it has. Which tables have meters ({@code cdc.metrics.tables}) is decided again at
 * each such reading; a table that leaves the chosen ones has its meters removed from the registry,
 * so the series a scrape carries are bounded by the tables chosen, not by the tables replicated.
 */
package io.tributary.autoconfigure.metrics;
