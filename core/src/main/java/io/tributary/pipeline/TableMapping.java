package io.tributary.pipeline;

import java.util.Objects;

import io.tributary.source.TableId;

/**
 * One table to replicate and where to.
 *
 * @param source the source table
 * @param target the target table
 */
public record TableMapping(TableId source, TableId target) {

	public TableMapping {
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(target, "target");
	}

}
