package io.tributary.apply;

import java.util.Objects;

import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;

/**
 * Sends a table's changes to the application's {@link ChangeListener}, a
 * {@link Destination.Listener}.
 *
 * @param listener receives the batches
 */
public record ListenerSink(ChangeListener listener) implements TableSink {

	public ListenerSink {
		Objects.requireNonNull(listener, "listener");
	}

	@Override
	public Destination destination(TableId source) {
		return Destination.Listener.of(source);
	}

	@Override
	public SinkApplier open(TableLayout layout) {
		return new ListenerApplier(this.listener, layout);
	}

}
