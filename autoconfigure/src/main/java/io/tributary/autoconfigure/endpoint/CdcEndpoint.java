package io.tributary.autoconfigure.endpoint;

import java.util.List;

import tools.jackson.databind.annotation.JsonSerialize;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import io.tributary.autoconfigure.TributaryPipelines;
import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.autoconfigure.actions.CdcActions;
import io.tributary.autoconfigure.actions.RequestRefused;
import io.tributary.autoconfigure.actions.TableAddress;
import io.tributary.autoconfigure.security.CdcAccess;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableDetail.Checkpoint;
import io.tributary.status.TableDetail.ColumnInfo;
import io.tributary.status.TableEvent;
import io.tributary.status.TableStatus;

/**
 * The {@code cdc} actuator endpoint: every pipeline's state, positions and per-table progress
 * ({@code GET /actuator/cdc}), one table with its layout, checkpoint and recent events
 * ({@code GET /actuator/cdc/shop.orders}), and actions on one table
 * ({@code POST /actuator/cdc/pause/shop.orders}) or on all of them ({@code POST /actuator/cdc/pause}).
 *
 * <p>A table is named {@code schema.table}, or {@code pipeline:schema.table} when several pipelines
 * replicate a table of that name. Reads and actions go through {@link CdcActions}, the service the
 * admin pages use too: actions need {@code cdc.admin.actions-enabled=true}, and who may read and act
 * is decided by the {@link CdcAccess} bean. A refused request answers with its HTTP status and a
 * {@link Refusal} body naming the reason.
 */
@Endpoint(id = "cdc")
public class CdcEndpoint {

	/** The first part of the path that adds a table. */
	private static final String ADD = "tables";

	private final TributaryPipelines pipelines;

	private final CdcActions actions;

	/**
	 * Creates the endpoint with an action service of its own.
	 * @param pipelines the pipelines it reports on and acts on
	 * @param access who may read and act
	 * @param admin whether actions are enabled; read on every request
	 */
	public CdcEndpoint(TributaryPipelines pipelines, CdcAccess access, TributaryProperties.Admin admin) {
		this(pipelines, new CdcActions(pipelines, access, admin));
	}

	/**
	 * Creates the endpoint.
	 * @param pipelines the pipelines it reports on
	 * @param actions checks who may read, finds tables and runs the actions
	 */
	public CdcEndpoint(TributaryPipelines pipelines, CdcActions actions) {
		this.pipelines = pipelines;
		this.actions = actions;
	}

	/**
	 * Returns every pipeline's status, in the order they were configured.
	 * @return an {@link Overview}, or a {@link Refusal} with 401 or 403
	 */
	@ReadOperation
	public WebEndpointResponse<OperationResponseBody> overview() {
		try {
			this.actions.requireRead();
			return new WebEndpointResponse<>(new Overview(this.pipelines.status()));
		}
		catch (RequestRefused ex) {
			return refusal(ex);
		}
	}

	/**
	 * Returns one table's status, layout, partitioning, last checkpoint and recent events.
	 * @param table {@code schema.table}, or {@code pipeline:schema.table}
	 * @return a {@link TableDetail}, or a {@link Refusal}: 404 for a table no pipeline replicates,
	 * 400 for a malformed name or one several pipelines replicate, 401 or 403
	 */
	@ReadOperation
	public WebEndpointResponse<OperationResponseBody> table(@Selector String table) {
		try {
			TableAddress address = this.actions.find(table);
			return new WebEndpointResponse<>(TableDetail.of(address.pipeline().name(), address.detail()));
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
	 * database could not be asked or a flush did not finish in time. As
	 * {@code POST /actuator/cdc/tables/<source>} it adds a table whose changes go to the application's
	 * ChangeListener (see {@link #addTable}).
	 */
	@WriteOperation
	public WebEndpointResponse<OperationResponseBody> tableAction(@Selector String action, @Selector String table) {
		try {
			if (action.equals(ADD)) {
				return new WebEndpointResponse<>(ActionOutcome.of(this.actions.addTable(table, null)));
			}
			return new WebEndpointResponse<>(ActionOutcome.of(this.actions.run(action, table)));
		}
		catch (RequestRefused ex) {
			return refusal(ex);
		}
	}

	/**
	 * Adds a table to a running pipeline and copies it while the others stream:
	 * {@code POST /actuator/cdc/tables/<source>/<target>} (see {@link CdcActions#addTable}).
	 * @param tables {@code tables}
	 * @param source {@code schema.table}, or {@code pipeline:schema.table} when there are several
	 * pipelines
	 * @param target the target table, {@code schema.table}
	 * @return an {@link ActionOutcome} with the table's status right after, or a {@link Refusal}
	 */
	@WriteOperation
	public WebEndpointResponse<OperationResponseBody> addTable(@Selector String tables, @Selector String source,
			@Selector String target) {
		try {
			if (!tables.equals(ADD)) {
				throw new RequestRefused(RequestRefused.NOT_FOUND, "Unknown path; add a table with POST "
						+ "/actuator/cdc/tables/<source>/<target>");
			}
			return new WebEndpointResponse<>(ActionOutcome.of(this.actions.addTable(source, target)));
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
			List<ActionOutcome> outcomes = this.actions.runOnAllTables(action).stream().map(ActionOutcome::of).toList();
			boolean anyDone = outcomes.stream().anyMatch(ActionOutcome::done);
			return new WebEndpointResponse<>(new AllTablesOutcome(action, outcomes),
					anyDone ? WebEndpointResponse.STATUS_OK : RequestRefused.CONFLICT);
		}
		catch (RequestRefused ex) {
			return refusal(ex);
		}
	}

	private static WebEndpointResponse<OperationResponseBody> refusal(RequestRefused refused) {
		return new WebEndpointResponse<>(new Refusal(refused.status(), refused.getMessage()), refused.status());
	}

	/**
	 * Every pipeline's status: {@code {"pipelines": [...]}}.
	 *
	 * @param pipelines one entry per pipeline, in the order they were configured
	 */
	public record Overview(@JsonSerialize(converter = StatusJson.Pipelines.class) List<PipelineStatus> pipelines)
			implements OperationResponseBody {

	}

	/**
	 * One table: its status, and the layout, partitioning, checkpoint and recent events its admin
	 * page shows.
	 *
	 * @param pipeline the name of the pipeline that replicates it
	 * @param table the table's status
	 * @param columns the columns replicated, in row-image order; empty before the layout is read
	 * @param keyColumns the names of the key columns, in key order
	 * @param partitionIndexes the target's unique secondary indexes flushes are partitioned by, such
	 * as {@code uk_email(email)}; empty when flushes are split by size only
	 * @param checkpoint the checkpoint last saved for the table by this run, or {@code null} before
	 * the first
	 * @param timeline the table's recent events, oldest first
	 */
	public record TableDetail(String pipeline, @JsonSerialize(converter = StatusJson.Table.class) TableStatus table,
			List<ColumnInfo> columns, List<String> keyColumns, List<String> partitionIndexes, Checkpoint checkpoint,
			List<TableEvent> timeline)
			implements OperationResponseBody {

		static TableDetail of(String pipeline, io.tributary.status.TableDetail detail) {
			return new TableDetail(pipeline, detail.status(), detail.columns(), detail.keyColumns(),
					detail.partitionIndexes(), detail.checkpoint(), detail.timeline());
		}

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
	public record ActionOutcome(String action, String pipeline, boolean done, String message,
			@JsonSerialize(converter = StatusJson.Table.class) TableStatus table)
			implements OperationResponseBody {

		static ActionOutcome of(CdcActions.Outcome outcome) {
			return new ActionOutcome(outcome.action(), outcome.pipeline(), outcome.done(), outcome.message(),
					outcome.table());
		}

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
