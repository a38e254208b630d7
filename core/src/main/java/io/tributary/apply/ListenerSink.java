package io.tributary.apply;

import java.util.Objects;

import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;

/**
 * Sends a table's changes to the application's {@link ChangeListener}; labelled
 * {@code (listener).<table>} in place of a target.
 *
 * @param listener receives the batches
 */
public record ListenerSink(ChangeListener listener) implements TableSink {

	/** Schema part of the label of tables going to a listener. */
	public static final String LABEL_SCHEMA = "(listener)";

	public ListenerSink {
		Objects.requireNonNull(listener, "listener");
	}

	@Override
	public TableId label(TableId source) {
		return new TableId(LABEL_SCHEMA, source.table());
	}

	@Override
	public SinkApplier open(TableLayout layout) {
		return new ListenerApplier(this.listener, layout);
	}

}
