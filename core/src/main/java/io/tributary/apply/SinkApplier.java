package io.tributary.apply;

import java.util.List;

import io.tributary.schema.TableLayout;
import io.tributary.source.Position;
import io.tributary.status.SinkStatus;

/**
 * The applier of a table going to a {@link TableSink}. Besides the {@link Applier} operations it
 * follows the table through a new layout and a TRUNCATE on the source, and reports what it did.
 * As with any applier, a failed call keeps every change of the call buffered and the table's
 * position where it was; the pipeline calls it again later.
 */
public interface SinkApplier extends Applier {

	/**
	 * Applies one drain with where each row image was read, for sinks that publish it. The default
	 * ignores the origins and calls {@link #apply(List, List, Position)}.
	 * @param upserts full row images (in source column order)
	 * @param origins where each of {@code upserts} was read, in the same order
	 * @param deletedKeys keys of deleted rows (in key-column order)
	 * @param coveredUpTo the source position through which the table's changes had been read when
	 * the drain was taken
	 * @throws ApplyException when the changes are not all accepted
	 */
	default void apply(List<Object[]> upserts, List<ChangeOrigin> origins, List<Object[]> deletedKeys,
			Position coveredUpTo) {
		apply(upserts, deletedKeys, coveredUpTo);
	}

	/**
	 * Returns an applier for a new layout of the same table (after a column was added), keeping the
	 * counters. Call only when this one is no longer used.
	 * @param next the new layout
	 * @return the applier
	 */
	SinkApplier withLayout(TableLayout next);

	/**
	 * Passes on a {@code TRUNCATE TABLE} of the table on the source.
	 * @throws ApplyException when the sink cannot forget the table's rows; its message, sentences
	 * naming the table, says why and what to do, and the table stops with its checkpoint before the
	 * truncation
	 */
	void truncate();

	/** Returns the calls made so far, in the shape of a target table's statement counters. */
	ApplierCounters counters();

	/** Returns what the sink reports beyond the counters, or {@code null} when nothing. */
	default SinkStatus status() {
		return null;
	}

}
