package io.tributary.admin;

import java.util.List;

import io.tributary.autoconfigure.actions.CdcActions;
import io.tributary.autoconfigure.actions.RequestRefused;

/**
 * The actions the admin pages offer (pause, resume, flush, resnapshot, restart, checksum), run for
 * the current user. The auto-configuration backs it with the {@link CdcActions} service that
 * {@code /actuator/cdc} uses, so both check the same user, switch and table, and refuse alike.
 */
public interface ConsoleActions {

	/** The actions, in the order the pages show them. */
	List<String> NAMES = CdcActions.NAMES;

	/** Returns whether the current user may run actions now; the pages show their buttons only then. */
	boolean available();

	/**
	 * Checks that the current user may run the action now, before a page asks to confirm it.
	 * @param action the action's name
	 * @throws RequestRefused when the user may not, actions are disabled, or the action is unknown
	 */
	void requireAllowed(String action);

	/**
	 * Runs an action on one table.
	 * @param action the action's name
	 * @param pipeline the name of the table's pipeline
	 * @param table the source table, {@code schema.table}
	 * @return what was done, in a sentence
	 * @throws RequestRefused when a check fails or the pipeline refuses, with the reason
	 */
	Outcome run(String action, String pipeline, String table);

	/**
	 * Runs an action on every table of every pipeline, where it applies.
	 * @param action the action's name
	 * @return what was done and where it was refused, in a few sentences; not done when every table
	 * refused it
	 * @throws RequestRefused when a check fails before any table is asked
	 */
	Outcome runOnAllTables(String action);

	/**
	 * Adds a table to a running pipeline.
	 * @param source the source table, {@code schema.table} or {@code pipeline:schema.table}
	 * @param target its target table, or {@code null} or blank when a ChangeListener takes the changes
	 * @return what was done, in a sentence
	 * @throws RequestRefused when a check fails or the pipeline refuses, with the reason
	 */
	Outcome addTable(String source, String target);

	/**
	 * What an action did.
	 *
	 * @param done whether it was done on the table, or on at least one table
	 * @param message what it did and, for several tables, where it was refused and why
	 */
	record Outcome(boolean done, String message) {

	}

}
