package io.tributary.copy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import javax.sql.DataSource;

import io.tributary.apply.Applier;
import io.tributary.jdbc.RetryPolicy;
import io.tributary.jdbc.RowReader;
import io.tributary.jdbc.Sessions;
import io.tributary.schema.Column;
import io.tributary.schema.KeyPredicates;
import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;

/**
 * Copies one key range of a source table into its target: reads it with
 * {@code LOCK IN SHARE MODE}, which waits for every writer still holding one of its rows to commit
 * and then sees the newest committed versions, writes the rows with the applier (REPLACE), and,
 * when target keys are given, deletes the target rows in the range that the read did not return.
 * The snapshot copies its chunks with it, and a checksum repair recopies a differing chunk with it.
 */
public final class RangeCopy {

	/**
	 * Runs a read of the source that meets a deadlock or a lock wait timeout against writers again:
	 * they are expected now and then, and the read changes nothing.
	 */
	static final RetryPolicy SOURCE_READS = RetryPolicy.contention(10);

	private final DataSource source;

	private final TableLayout layout;

	private final Applier applier;

	private final Copier.TargetKeys targetKeys;

	private final String select;

	/**
	 * Creates a range copy.
	 * @param source the source pool
	 * @param layout the table's layout
	 * @param applier writes rows to the target
	 * @param targetKeys reads the target's keys in a range, so rows the source lacks are deleted;
	 * {@code null} when the target cannot hold such rows
	 */
	public RangeCopy(DataSource source, TableLayout layout, Applier applier, Copier.TargetKeys targetKeys) {
		this.source = source;
		this.layout = layout;
		this.applier = applier;
		this.targetKeys = targetKeys;
		this.select = "SELECT " + layout.selectList() + " FROM " + layout.table().quoted();
	}

	/**
	 * Copies a range and returns the rows it read from the source.
	 * @throws SQLException when the read keeps failing
	 * @throws io.tributary.apply.ApplyException when the write fails
	 */
	public int copy(KeyRange range) throws SQLException {
		List<Object[]> rows = read(range);
		if (!rows.isEmpty()) {
			ChunkWriter.rerunOnContention(() -> this.applier.upsertChunk(rows), this.layout);
		}
		deleteVanished(range, rows);
		return rows.size();
	}

	/** Reads a range's rows from the source with a locking read, in key order. */
	List<Object[]> read(KeyRange range) throws SQLException {
		List<Object> parameters = new ArrayList<>();
		String sql = this.select + range.where(this.layout.keys(), parameters) + " ORDER BY "
				+ KeyPredicates.orderBy(this.layout.keys()) + " LOCK IN SHARE MODE";
		List<Column> columns = this.layout.columns();
		return SOURCE_READS.rerunOnContention("Chunk read of " + this.layout.table(), () -> {
			try (Connection connection = this.source.getConnection()) {
				Sessions.prepareSource(connection);
				connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
				connection.setAutoCommit(true);
				try (PreparedStatement statement = prepared(connection, sql, parameters);
						ResultSet rs = statement.executeQuery()) {
					return RowReader.readAll(rs, columns);
				}
			}
		});
	}

	/**
	 * Deletes from the target the keys of the range that {@code rows}, just read from the source,
	 * no longer have; nothing when the target cannot hold such rows.
	 */
	void deleteVanished(KeyRange range, List<Object[]> rows) throws SQLException {
		if (this.targetKeys == null) {
			return;
		}
		Set<RowKey> present = new HashSet<>();
		for (Object[] row : rows) {
			present.add(new RowKey(this.layout.keyOf(row)));
		}
		List<Object[]> vanished = new ArrayList<>();
		for (Object[] key : this.targetKeys.keysIn(range.lowerExclusive(), range.upperInclusive())) {
			if (!present.contains(new RowKey(key))) {
				vanished.add(key);
			}
		}
		if (!vanished.isEmpty()) {
			ChunkWriter.rerunOnContention(() -> this.applier.delete(vanished), this.layout);
		}
	}

	static PreparedStatement prepared(Connection connection, String sql, List<Object> parameters)
			throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql);
		for (int i = 0; i < parameters.size(); i++) {
			Values.bind(statement, i + 1, parameters.get(i));
		}
		return statement;
	}

}
