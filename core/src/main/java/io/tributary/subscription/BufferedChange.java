package io.tributary.subscription;

import io.tributary.schema.RowKey;
import io.tributary.source.Position;

/**
 * One buffered change of a table: the row image that wins for its key, or its delete.
 *
 * @param key the row key
 * @param image the full row, or {@code null} for a delete
 * @param resumeFrom the boundary to reread from to see this change again
 * @param size estimated heap bytes
 * @param sourceMillis when the source logged the change (epoch millis), or 0 when unknown
 */
public record BufferedChange(RowKey key, Object[] image, Position resumeFrom, long size, long sourceMillis) {

	/** Creates an entry whose time on the source is unknown. */
	public BufferedChange(RowKey key, Object[] image, Position resumeFrom, long size) {
		this(key, image, resumeFrom, size, 0);
	}

	public boolean isDelete() {
		return this.image == null;
	}

}
