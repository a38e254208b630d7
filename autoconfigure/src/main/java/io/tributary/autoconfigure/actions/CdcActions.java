package io.tributary.autoconfigure.actions;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccess.Decision;
import io.tributary.autoconfigure.security.CdcAccess.Operation;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.TableStatus;

/**
 * Runs the operator actions (pause, resume, flush, resnapshot, restart, checksum) on one table or
 * on every table, for the {@code cdc} endpoint and the admin pages alike, and checks who may read.
 *
 * <p>Every action passes three checks before it reaches a pipeline, in this order: the current
 * user ({@link CdcAccess}, operation WRITE), the {@code cdc.admin.actions-enabled} switch, and a
 * known action and table. A failed check, and whatever the pipeline refuses, is thrown as a
 * {@link RequestRefused} carrying the HTTP status and the reason. The user's name goes with the
 * action into the table's timeline.
 */
public class CdcActions {

	/** The actions, in the order the documentation lists them. */
	public static final List<String> NAMES = TableActions.NAMES;

	private final TributaryPipelines pipelines;

	private final CdcAccess access;

	private final TributaryProperties.Admin admin;

	/**
	 * Creates the service.
	 * @param pipelines the pipelines it acts on
	 * @param access who may read and act
	 * @param admin whether actions are enabled; read on every request
	 */
	public CdcActions(TributaryPipelines pipelines, CdcAccess access, TributaryProperties.Admin admin) {
		this.pipelines = pipelines;
		this.access = access;
		this.admin = admin;
	}

	/**
	 * Checks that the current user may read the pipelines' status.
	 * @return the decision, naming the user when known
	 * @throws RequestRefused with 401 or 403 when the user may not
	 */
	public Decision requireRead() {
		return allow(Operation.READ);
	}

	/**
	 * Returns whether the current user may run actions now: they are enabled and the user may
	 * write. Pages offer their action buttons only then.
	 */
	public boolean available() {
		return this.admin.isActionsEnabled() && this.access.decide(Operation.WRITE).isAllowed();
	}

	/**
	 * Finds a table, after checking that the current user may read.
	 * @param table {@code schema.table}, or {@code pipeline:schema.table}
	 * @return the table and its pipeline
	 * @throws RequestRefused with 401 or 403 for the user, 404 for a table no pipeline replicates,
	 * 400 for a malformed name or one several pipelines replicate
	 */
	public TableAddress find(String table) {
		allow(Operation.READ);
		return TableAddress.resolve(this.pipelines, table);
	}

	/**
	 * Runs an action on one table and returns once it is under way.
	 * @param action {@code pause}, {@code resume}, {@code flush} (applies what the table's pipeline
	 * buffers, waiting for it), {@code resnapshot}, {@code restart} or {@code checksum}
	 * @param table {@code schema.table}, or {@code pipeline:schema.table}
	 * @return what was done, with the table's status right after the action
	 * @throws RequestRefused 403 while actions are disabled, 401 or 403 for the user, 400 for an
	 * unknown action, 404 for an unknown table, 409 for an action the table's state refuses, 503
	 * when a database could not be asked or a flush did not finish in time
	 */
	public Outcome run(String action, String table) {
		String user = allowAction(action);
		TableAddress address = TableAddress.resolve(this.pipelines, table);
		TableActions.run(action, address.pipeline(), address.table(), user);
		return new Outcome(action, address.pipeline().name(), true, null, address.status());
	}

	/**
	 * Adds a table to a running pipeline and copies it while the others stream; it lasts until the
	 * application stops (list it in {@code cdc.tables} to keep it).
	 * @param source the source table, {@code schema.table}, or {@code pipeline:schema.table} when
	 * there are several pipelines
	 * @param target its target table, {@code schema.table}; {@code null} when the application's
	 * ChangeListener takes every table's changes
	 * @return what was done, with the table's status right after
	 * @throws RequestRefused 403 while actions are disabled, 401 or 403 for the user, 400 for a
	 * missing or malformed name, 404 for an unknown pipeline or a source table that does not exist,
	 * 409 for a table replicated already or a target that is taken, 503 when a database could not
	 * be asked
	 */
	public Outcome addTable(String source, String target) {
		String user = allowAction(null);
		int colon = (source != null) ? TableAddress.pipelineColon(source) : -1;
		Pipeline chosen = pipeline((colon >= 0) ? source.substring(0, colon) : null);
		TableId table = name((colon >= 0) ? source.substring(colon + 1) : source, "source");
		TableId into = (target != null && !target.isBlank()) ? name(target, "target") : null;
		try {
			chosen.addTable(table, into, user);
		}
		catch (IllegalStateException ex) {
			throw new RequestRefused(RequestRefused.CONFLICT, ex.getMessage());
		}
		catch (IllegalArgumentException ex) {
			throw new RequestRefused(ex.getMessage().contains("no such table") ? RequestRefused.NOT_FOUND
					: RequestRefused.BAD_REQUEST, ex.getMessage());
		}
		catch (SQLException ex) {
			throw new RequestRefused(RequestRefused.SERVICE_UNAVAILABLE, "Cannot add " + table
					+ ": a database could not be asked: " + ex.getMessage());
		}
		return new Outcome("add", chosen.name(), true, null, TableAddress.status(chosen, table));
	}

	private Pipeline pipeline(String name) {
		if (name == null || name.isBlank()) {
			if (this.pipelines.all().size() != 1) {
				throw new RequestRefused(RequestRefused.BAD_REQUEST, "There are " + this.pipelines.all().size()
						+ " pipelines; name the one to add the table to, as in pipeline:schema.table");
			}
			return this.pipelines.all().iterator().next();
		}
		Pipeline pipeline = this.pipelines.get(name);
		if (pipeline == null) {
			throw new RequestRefused(RequestRefused.NOT_FOUND, "There is no pipeline " + name);
		}
		return pipeline;
	}

	private static TableId name(String text, String field) {
		if (text == null || text.isBlank()) {
			throw new RequestRefused(RequestRefused.BAD_REQUEST, "Name the " + field + " table as schema.table");
		}
		try {
			return TableId.parse(text, null);
		}
		catch (IllegalArgumentException ex) {
			throw new RequestRefused(RequestRefused.BAD_REQUEST, ex.getMessage());
		}
	}

	/**
	 * Runs an action on every table of every pipeline: each table where it applies gets it, the
	 * others are listed with the reason ({@code flush} flushes each pipeline once).
	 * @param action as for {@link #run}
	 * @return one outcome per table of every pipeline, in the order they were configured
	 * @throws RequestRefused as for {@link #run}, for the checks done before any table is asked
	 */
	public List<Outcome> runOnAllTables(String action) {
		String user = allowAction(action);
		List<Outcome> outcomes = new ArrayList<>();
		for (Pipeline pipeline : this.pipelines.all()) {
			List<TableId> tables = pipeline.status().tables().stream()
				.map((status) -> TableId.parse(status.name(), null))
				.toList();
			// One flush covers every table of the pipeline; asking once per table would only wait longer.
			RequestRefused flushRefused = action.equals("flush") ? attempt(action, pipeline, null, user) : null;
			for (TableId table : tables) {
				RequestRefused refused = action.equals("flush") ? flushRefused : attempt(action, pipeline, table, user);
				outcomes.add(new Outcome(action, pipeline.name(), refused == null,
						(refused != null) ? refused.getMessage() : null, TableAddress.status(pipeline, table)));
			}
		}
		return outcomes;
	}

	/** Runs an action and returns its refusal, or {@code null} when it was done. */
	private static RequestRefused attempt(String action, Pipeline pipeline, TableId table, String user) {
		try {
			TableActions.run(action, pipeline, table, user);
			return null;
		}
		catch (RequestRefused ex) {
			return ex;
		}
	}

	/**
	 * Checks, as {@link #run} does before it acts, that the current user may run the action now:
	 * for a page that asks to confirm an action before running it.
	 * @param action the action's name
	 * @return the user's name, recorded with the action; {@code null} when unknown
	 * @throws RequestRefused 401 or 403 for the user, 403 while actions are disabled, 400 for an
	 * unknown action
	 */
	public String requireAllowed(String action) {
		return allowAction(action);
	}

	/** Checks the user and the switch, and a known action unless {@code action} is {@code null}. */
	private String allowAction(String action) {
		Decision decision = allow(Operation.WRITE);
		if (!this.admin.isActionsEnabled()) {
			throw new RequestRefused(RequestRefused.FORBIDDEN, "Actions are disabled: set "
					+ "cdc.admin.actions-enabled=true to allow " + String.join(", ", NAMES)
					+ " and adding tables through /actuator/cdc and the admin pages");
		}
		if (action != null) {
			TableActions.requireKnown(action);
		}
		return decision.user();
	}

	private Decision allow(Operation operation) {
		Decision decision = this.access.decide(operation);
		return switch (decision.verdict()) {
			case ALLOWED -> decision;
			case UNAUTHENTICATED -> throw new RequestRefused(RequestRefused.UNAUTHORIZED, decision.reason());
			case FORBIDDEN -> throw new RequestRefused(RequestRefused.FORBIDDEN, decision.reason());
		};
	}

	/**
	 * What an action did on one table.
	 *
	 * @param action the action's name
	 * @param pipeline the name of the table's pipeline
	 * @param done whether the action was done (or is under way)
	 * @param message why it was refused, or {@code null} when it was done
	 * @param table the table's status right after the action; its {@code lastAction} describes a
	 * pause, resume, resnapshot or restart, its {@code checksum} a checksum
	 */
	public record Outcome(String action, String pipeline, boolean done, String message, TableStatus table) {

	}

}
