package io.tributary.apply;

import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;

/**
 * Where one table's changes go instead of a target table: the application's
 * {@link ChangeListener}, or a sink of another module (a Kafka topic, for one). A table is given
 * a sink through its {@code TableMapping}; a table without one is copied into a target table.
 *
 * <p>A sink has no target table to compare with or to empty, so a table going to one is not
 * checksummed and is not resnapshotted on request (the sink could not be told which rows were
 * deleted meanwhile); its checkpoint still lives in the pipeline's checkpoint store.
 */
public interface TableSink {

	/**
	 * Returns where the table's changes go, as its checkpoint and its status name it; a checkpoint
	 * written while the table went elsewhere names another destination, and is not taken for one of
	 * this sink's.
	 * @param source the source table
	 * @return the destination
	 */
	Destination destination(TableId source);

	/**
	 * Opens the applier of one table, checking first that the destination can take its changes.
	 * Called when the table is set up: at start, and at a restart of the table.
	 * @param layout the source table's layout
	 * @return the applier
	 * @throws SinkUnavailableException when the destination cannot be reached now; the setup is
	 * tried again later
	 * @throws RuntimeException when the destination refuses the table; the message says why and what
	 * to do, and the table does not start
	 */
	SinkApplier open(TableLayout layout);

}
