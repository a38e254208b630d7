/**
 * The admin console for Tributary: a Thymeleaf overview of every pipeline and table, a fragment of
 * it the page polls every 2 seconds with htmx, and a history the page charts with uPlot.
 * <p>
 * It reads only the pipelines' immutable status and changes nothing. {@link io.tributary.admin.StatusHistory}
 * samples that status on one daemon thread, started and stopped with the application context, into
 * fixed-size rings: its memory is bounded by samples kept times pipelines and tables, whatever runs,
 * and its rates come from the difference of two consecutive samples, none where a counter went back.
 */
package io.tributary.admin;
