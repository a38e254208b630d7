/**
 * The admin console for Tributary: a Thymeleaf overview of every pipeline and table, a page per
 * table (every counter, layout, checkpoint, timeline, charts), the fragments of both that the pages
 * poll every 2 seconds with htmx, the histories their uPlot charts draw, and the forms that run the
 * operator actions.
 * <p>
 * The overview's size does not grow with the number of tables: each pipeline shows its tables
 * counted by phase and by rule and one page of {@link io.tributary.admin.PipelineOverview#PAGE_SIZE}
 * rows, those that need attention first, filtered on the server by the {@code q} query parameter,
 * which the polled fragment keeps with the page; the charts' history holds the busiest tables only.
 * <p>
 * Every page and fragment needs a user who may read, as {@code CdcAccess} decides (401 or 403
 * otherwise). The actions run through {@link io.tributary.admin.ConsoleActions}, backed by the
 * {@code CdcActions} service of {@code /actuator/cdc}, so both check the same user, switch and
 * table in the same order; the pages offer buttons only to a user who may act while actions are
 * enabled, a resnapshot runs only once confirmed, and each post answers with 303 back to its page and
 * a one-time notice. {@link io.tributary.admin.StatusHistory} samples the status on one daemon
 * thread, started and stopped with the application context, into fixed-size rings: its memory is
 * bounded by samples kept times pipelines and tables, whatever runs, and its rates come from the
 * difference of two consecutive samples, none where a counter went back.
 */
package io.tributary.admin;
