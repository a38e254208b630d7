package io.tributary.apply;

import java.util.List;
import java.util.Objects;

import io.tributary.name.TableId;
import io.tributary.source.Position;

/**
 * Changes of one source table handed to a {@link ChangeListener}. No key appears twice in a
 * batch, upserts and deleted keys together, so the order of the lists carries no meaning.
 *
 * <p>The arrays are shared with Tributary and must not be modified.
 *
 * @param table the source table
 * @param columns names of all columns, in source column order (the order of upsert values)
 * @param keyColumns names of the primary key columns, in key order (the order of deleted key
 * values)
 * @param upserts full row images of inserted or updated rows, values in the canonical form of
 * {@link io.tributary.schema.ValueKind}
 * @param deletedKeys primary keys of deleted rows
 * @param position the source position through which this table's changes had been read when the
 * batch was taken; changes held back at that moment (rows of a snapshot chunk still being
 * copied) come in a later batch. {@code null} for snapshot rows, which have no position, and for
 * changes of tables whose keys the server compares by collation, which are delivered in binlog
 * order, a run of upserts or deletes at a time
 */
public record ChangeBatch(TableId table, List<String> columns, List<String> keyColumns, List<Object[]> upserts,
		List<Object[]> deletedKeys, Position position) {

	public ChangeBatch {
		Objects.requireNonNull(table, "table");
		columns = List.copyOf(columns);
		keyColumns = List.copyOf(keyColumns);
		upserts = List.copyOf(upserts);
		deletedKeys = List.copyOf(deletedKeys);
	}

	/** Returns how many changes the batch holds. */
	public int size() {
		return this.upserts.size() + this.deletedKeys.size();
	}

}
