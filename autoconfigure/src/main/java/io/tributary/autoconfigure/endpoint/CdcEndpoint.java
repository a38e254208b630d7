package io.tributary.autoconfigure.endpoint;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.autoconfigure.security.CdcAccess.Decision;
import io.tributary.autoconfigure.security.CdcAccess.Operation;
import io.tributary.pipeline.Pipeline;
import io.tributary.source.TableId;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * The {@code cdc} actuator endpoint: every pipeline's state, positions and per-table progress
 * ({@code GET /actuator/cdc}), one table ({@code GET /actuator/cdc/shop.orders}), and actions on
 * one table ({@code POST /actuator/cdc/pause/shop.orders}) or on all of them
 * ({@code POST /actuator/cdc/pause}).
 *
 * <p>A table is named {@code schema.table}, or {@code pipeline:schema.table} when several pipelines
 * replicate a table of that name. Actions need {@code cdc.admin.actions-enabled=true}, and who may
 * read and act is decided by the {@link CdcAccess} bean. A refused request answers with its HTTP
 * status and a {@link Refusal} body naming the reason.
 */
@Endpoint(id = "cdc")
public class CdcEndpoint {

	private final TributaryPipelines pipelines;

	private final CdcAccess access;

	private final TributaryProperties.Admin admin;

	/**
	 * Creates the endpoint.
	 * @param pipelines the pipelines it reports on and acts on
	 * @param access who may read and act
	 * @param admin whether actions are enabled; read on every request
	 */
	public CdcEndpoint(TributaryPipelines pipelines, CdcAccess access, TributaryProperties.Admin admin) {
		this.pipelines = pipelines;
		this.access = access;
		this.admin = admin;
	}

	/**
	 * Returns every pipeline's status, in the order they were configured.
	 * @return an {@link Overview}, or a {@link Refusal} with 401 or 403
	 */
	@ReadOperation
	public WebEndpointResponse<OperationResponseBody> overview() {
		try {
			allow(Operation.READ);
			return new WebEndpointResponse<>(new Overview(this.pipelines.status()));
		}
		catch (RequestRefused ex) {
			return refusal(ex);
		}
	}

	/**
	 * Returns one table's status.
	 * @param table {@code schema.table}, or {@code pipeline:schema.table}
	 * @return a {@link TableDetail}, or a {@link Refusal}: 404 for a table no pipeline replicates,
	 * 400 for a malformed name or one several pipelines replicate, 401 or 403
	 */
	@ReadOperation
	public WebEndpointResponse<OperationResponseBody> table(@Selector String table) {
		try {
			allow(Operation.READ);
			TableAddress address = TableAddress.resolve(this.pipelines, table);
			return new WebEndpointResponse<>(new TableDetail(address.pipeline().name(), address.status()));
		}
		catch (RequestRefused ex) {
			return refusal(ex);
		}
	}

	// The actions take selectors only: any other parameter would make the POST need a JSON body.

	/**
	 * Runs an action on one table and returns once it is under way.
	 * @param action {@code pause}, {@code resume}, {@code flush} (applies what the table's pipeline
	 * buffers, waiting for it), {@code resnapshot}, {@code restart} or {@code checksum}
	 * @param table {@code schema.table}, or {@code pipeline:schema.table}
	 * @return an {@link ActionOutcome} with the table's status right after the action, or a
	 * {@link Refusal}: 403 while actions are disabled, 401 or 403 for the user, 400 for an unknown
	 * action, 404 for an unknown table, 409 for an action the table's state refuses, 503 when a
	 * database could not be asked or a flush did not finish in time
	 */
	@WriteOperation
	public WebEndpointResponse<OperationResponseBody> tableAction(@Selector String action, @Selector String table) {
		try {
			String user = allowAction(action);
			TableAddress address = TableAddress.resolve(this.pipelines, table);
			TableActions.run(action, address.pipeline(), address.table(), user);
			return new WebEndpointResponse<>(
					new ActionOutcome(action, address.pipeline().name(), true, null, address.status()));
		}
		catch (RequestRefused ex) {
			return refusal(ex);
		}
	}

	/**
	 * Runs an action on every table of every pipeline: each table where it applies gets it, the
	 * others are listed with the reason ({@code flush} flushes each pipeline once).
	 * @param action {@code pause}, {@code resume}, {@code flush}, {@code resnapshot},
	 * {@code restart} or {@code checksum}
	 * @return an {@link AllTablesOutcome}: 200 when the action was done on at least one table, 409
	 * when every table refused it; or a {@link Refusal} as for one table
	 */
	@WriteOperation
	public WebEndpointResponse<OperationResponseBody> allTablesAction(@Selector String action) {
		try {
			String user = allowAction(action);
			List<ActionOutcome> outcomes = new ArrayList<>();
			for (Pipeline pipeline : this.pipelines.all()) {
				List<TableId> tables = pipeline.status().tables().stream()
					.map((status) -> TableId.parse(status.name(), null))
					.toList();
				// One flush covers every table of the pipeline; asking once per table would only wait longer.
				RequestRefused flushRefused = action.equals("flush") ? attempt(action, pipeline, null, user) : null;
				for (TableId table : tables) {
					RequestRefused refused = action.equals("flush") ? flushRefused
							: attempt(action, pipeline, table, user);
					outcomes.add(new ActionOutcome(action, pipeline.name(), refused == null,
							(refused != null) ? refused.getMessage() : null, TableAddress.status(pipeline, table)));
				}
			}
			boolean anyDone = outcomes.stream().anyMatch(ActionOutcome::done);
			return new WebEndpointResponse<>(new AllTablesOutcome(action, outcomes),
					anyDone ? WebEndpointResponse.STATUS_OK : RequestRefused.CONFLICT);
		}
		catch (RequestRefused ex) {
			return refusal(ex);
		}
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
	 * Checks that the user may run the action and that actions are enabled.
	 * @return the user's name, recorded in the table's last action; {@code null} when unknown
	 */
	private String allowAction(String action) {
		Decision decision = allow(Operation.WRITE);
		if (!this.admin.isActionsEnabled()) {
			throw new RequestRefused(RequestRefused.FORBIDDEN, "Actions are disabled: set "
					+ "cdc.admin.actions-enabled=true to allow " + String.join(", ", TableActions.NAMES)
					+ " through /actuator/cdc");
		}
		TableActions.requireKnown(action);
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

	private static WebEndpointResponse<OperationResponseBody> refusal(RequestRefused refused) {
		return new WebEndpointResponse<>(new Refusal(refused.status(), refused.getMessage()), refused.status());
	}

	/**
	 * Every pipeline's status: {@code {"pipelines": [...]}}.
	 *
	 * @param pipelines one entry per pipeline, in the order they were configured
	 */
	public record Overview(List<PipelineStatus> pipelines) implements OperationResponseBody {

	}

	/**
	 * One table's status.
	 *
	 * @param pipeline the name of the pipeline that replicates it
	 * @param table the table's status
	 */
	public record TableDetail(String pipeline, TableStatus table) implements OperationResponseBody {

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
	public record ActionOutcome(String action, String pipeline, boolean done, String message, TableStatus table)
			implements OperationResponseBody {

	}

	/**
	 * What an action did on every table.
	 *
	 * @param action the action's name
	 * @param results one entry per table of every pipeline
	 */
	public record AllTablesOutcome(String action, List<ActionOutcome> results) implements OperationResponseBody {

	}

	/**
	 * Why a request was refused.
	 *
	 * @param status the HTTP status it was answered with
	 * @param message what was wrong and what to do
	 */
	public record Refusal(int status, String message) implements OperationResponseBody {

	}

}
