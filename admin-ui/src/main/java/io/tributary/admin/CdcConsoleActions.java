package io.tributary.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tributary.autoconfigure.actions.CdcActions;

/**
 * The pages' actions through the {@link CdcActions} service, with what each did told in a
 * sentence for the page's notice.
 */
final class CdcConsoleActions implements ConsoleActions {

	private final CdcActions actions;

	CdcConsoleActions(CdcActions actions) {
		this.actions = actions;
	}

	@Override
	public boolean available() {
		return this.actions.available();
	}

	@Override
	public void requireAllowed(String action) {
		this.actions.requireAllowed(action);
	}

	@Override
	public Outcome run(String action, String pipeline, String table) {
		CdcActions.Outcome outcome = this.actions.run(action, pipeline + ":" + table);
		return new Outcome(true, done(action, outcome.pipeline(), outcome.table().name()));
	}

	@Override
	public Outcome addTable(String source, String target) {
		CdcActions.Outcome outcome = this.actions.addTable(source, target);
		return new Outcome(true, "Added " + outcome.table().name() + " to pipeline " + outcome.pipeline()
				+ ": it is copied while the other tables stream, then streams.");
	}

	@Override
	public Outcome runOnAllTables(String action) {
		List<CdcActions.Outcome> outcomes = this.actions.runOnAllTables(action);
		if (outcomes.isEmpty()) {
			return new Outcome(false, "There is no table to " + action + ".");
		}
		boolean severalPipelines = outcomes.stream().map(CdcActions.Outcome::pipeline).distinct().count() > 1;
		long done = outcomes.stream().filter(CdcActions.Outcome::done).count();
		// Tables refused for one reason (a flush refused by their pipeline, say) are named together.
		Map<String, List<String>> refusals = new LinkedHashMap<>();
		for (CdcActions.Outcome outcome : outcomes) {
			if (!outcome.done()) {
				String name = (severalPipelines ? outcome.pipeline() + ":" : "") + outcome.table().name();
				refusals.computeIfAbsent(outcome.message(), (message) -> new ArrayList<>()).add(name);
			}
		}
		StringBuilder message = new StringBuilder();
		if (done == outcomes.size()) {
			message.append(capitalized(action)).append(" done on all ").append(done).append(tables(done)).append('.');
		}
		else if (done > 0) {
			message.append(capitalized(action)).append(" done on ").append(done).append(" of ").append(outcomes.size())
				.append(tables(outcomes.size())).append(". Refused on the others: ");
		}
		else {
			message.append(capitalized(action)).append(" was refused on every table: ");
		}
		List<String> reasons = new ArrayList<>();
		refusals.forEach((reason, tables) -> reasons.add(String.join(", ", tables) + ": " + reason));
		message.append(String.join("; ", reasons));
		return new Outcome(done > 0, message.toString());
	}

	/** What an action did on one table, and what follows from it. */
	static String done(String action, String pipeline, String table) {
		return switch (action) {
			case "pause" -> "Paused " + table + ": its changes wait until it is resumed; the other tables keep streaming.";
			case "resume" -> "Resumed " + table + ": it catches up from where it was paused, then streams.";
			case "flush" -> "Flushed pipeline " + pipeline + ": what it had buffered is applied.";
			case "resnapshot" -> "Copying " + table + " again; it catches up and streams once the copy is done.";
			case "restart" -> "Restarted " + table
					+ ": its layout and target were read again and it resumes from its checkpoint.";
			case "checksum" -> "Comparing " + table + " with its target; the result shows under Checksum and in the timeline.";
			default -> capitalized(action) + " done on " + table + ".";
		};
	}

	private static String tables(long count) {
		return (count == 1) ? " table" : " tables";
	}

	private static String capitalized(String action) {
		return Character.toUpperCase(action.charAt(0)) + action.substring(1);
	}

}
