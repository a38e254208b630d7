package io.tributary.autoconfigure.endpoint;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;

/**
 * The {@code cdc} actuator endpoint: the pipeline's state, positions and per-table progress.
 */
@Endpoint(id = "cdc")
public class CdcEndpoint {

	private final Pipeline pipeline;

	public CdcEndpoint(Pipeline pipeline) {
		this.pipeline = pipeline;
	}

	@ReadOperation
	public PipelineStatus status() {
		return this.pipeline.status();
	}

}
