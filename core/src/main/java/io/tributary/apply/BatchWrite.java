package io.tributary.apply;

import java.sql.SQLException;
import java.util.List;

/**
 * Writes one batch to a target table in one go: the REPLACE of row images or the DELETE of keys
 * that {@link JdbcReplaceApplier} runs for it.
 */
@FunctionalInterface
interface BatchWrite {

	/**
	 * Writes the batch.
	 * @param batch row images or keys
	 * @throws SQLException as the server reported it, so the caller can tell contention apart;
	 * {@link io.tributary.ha.FencedOutException} when the fence refused the write
	 */
	void write(List<Object[]> batch) throws SQLException;

}
