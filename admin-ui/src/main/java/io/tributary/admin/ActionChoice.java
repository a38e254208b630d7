package io.tributary.admin;

import java.util.List;

/**
 * One action button of a page: what it runs, its text, what it does, and whether the page asks to
 * confirm it first.
 *
 * @param name the action's name, as {@link ConsoleActions} runs it
 * @param label the button's text
 * @param description what the action does, shown beside the button
 * @param confirmed whether a confirmation page comes before the action runs
 */
public record ActionChoice(String name, String label, String description, boolean confirmed) {

	/** The buttons of a table's page. */
	public static final List<ActionChoice> ONE_TABLE = List.of(
			new ActionChoice("pause", "Pause", "Stop applying this table's changes; the other tables keep streaming.",
					false),
			new ActionChoice("resume", "Resume", "Apply a paused table's changes again, from where it was paused.", false),
			new ActionChoice("flush", "Flush", "Apply what the table's pipeline has buffered now, and wait for it.", false),
			new ActionChoice("resnapshot", "Resnapshot\u2026", "Copy the table from the source again; asks to confirm.",
					true),
			new ActionChoice("restart", "Restart", "Start a failed table again once its cause is fixed.", false),
			new ActionChoice("checksum", "Checksum", "Compare source and target chunk by chunk, and repair what differs.",
					false));

	/** The buttons that act on every table. */
	public static final List<ActionChoice> ALL_TABLES = List.of(
			new ActionChoice("pause", "Pause all", "Stop applying every table's changes.", false),
			new ActionChoice("resume", "Resume all", "Apply every paused table's changes again.", false),
			new ActionChoice("flush", "Flush all", "Apply what every pipeline has buffered now.", false),
			new ActionChoice("resnapshot", "Resnapshot all\u2026", "Copy every table from its source again; asks to confirm.",
					true),
			new ActionChoice("restart", "Restart failed", "Start every failed table again.", false),
			new ActionChoice("checksum", "Checksum all", "Compare every table with its target.", false));

	/** Returns whether an action asks to confirm before it runs: only a resnapshot, which copies whole tables again. */
	public static boolean needsConfirmation(String action) {
		return action.equals("resnapshot");
	}

}
