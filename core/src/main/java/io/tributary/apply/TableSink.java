package io.tributary.apply;

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
	 * Returns the label that stands for the table's target in its checkpoint and its status, with a
	 * schema part no real table has (for example {@code (listener).orders}), so that a checkpoint
	 * written while the table went elsewhere is not taken for one of this sink's.
	 * @param source the source table
	 * @return the label
	 */
	TableId label(TableId source);

	/**
	 * Returns a target as statuses and checkpoints write it: a label (a schema part in parentheses,
	 * without dots or backticks) as {@code (kafka).eu.shop.orders}, unquoted, since a topic's dots
	 * are its own and metrics read the topic from the text; a target table as
	 * {@link TableId#toString()}, quoted where its name needs it.
	 * @param target a target table or a sink's label
	 * @return the text
	 */
	static String describe(TableId target) {
		return isLabel(target.schema()) ? target.schema() + "." + target.table() : target.toString();
	}

	/** Returns whether a schema part is a label's, such as {@code (listener)}. */
	static boolean isLabel(String schema) {
		return schema.length() > 1 && schema.startsWith("(") && schema.endsWith(")") && schema.indexOf('.') < 0
				&& schema.indexOf('`') < 0;
	}

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
