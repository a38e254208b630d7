package io.tributary.autoconfigure.endpoint;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import io.tributary.pipeline.Pipeline;
import io.tributary.source.TableId;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * The {@code cdc} actuator endpoint: the pipeline's state, positions and per-table progress, and
 * actions on one table ({@code POST /actuator/cdc/checksum/shop.orders}).
 */
@Endpoint(id = "cdc")
public class CdcEndpoint {

	/** The action that compares a table with its target. */
	static final String CHECKSUM = "checksum";

	private final Pipeline pipeline;

	public CdcEndpoint(Pipeline pipeline) {
		this.pipeline = pipeline;
	}

	@ReadOperation
	public PipelineStatus status() {
		return this.pipeline.status();
	}

	/**
	 * Runs an action on one table and returns at once.
	 * @param action {@code checksum}: compare the table with its target on a background thread
	 * (repairing what still differs when {@code cdc.checksum.fix-differences} is true); its
	 * progress shows in the table's {@code checksum} status
	 * @param table the source table as {@code schema.table}
	 * @return the table's checksum status right after the pass was queued
	 */
	@WriteOperation
	public TableStatus.Checksum tableAction(@Selector String action, @Selector String table) {
		if (!CHECKSUM.equals(action)) {
			throw new InvalidEndpointRequestException("Unknown action '" + action + "'; the table action is "
					+ CHECKSUM, "Unknown action");
		}
		TableId id;
		try {
			id = TableId.parse(table, null);
			this.pipeline.checksum(id);
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), ex.getMessage());
		}
		return this.pipeline.status()
			.tables()
			.stream()
			.filter((status) -> status.name().equals(id.toString()))
			.map(TableStatus::checksum)
			.findFirst()
			.orElse(TableStatus.Checksum.IDLE);
	}

}
