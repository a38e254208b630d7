package io.tributary.copy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.tributary.jdbc.RowReader;
import io.tributary.jdbc.Sessions;
import io.tributary.schema.Column;
import io.tributary.schema.KeyPredicates;
import io.tributary.schema.TableLayout;

/**
 * Finds where the next chunk of a source table ends: the key {@code rows} rows after a lower bound,
 * by a plain keyset probe on the key index ({@code ... WHERE key > ? ORDER BY key LIMIT 1 OFFSET ?}).
 * The probe takes no lock; it only places a boundary, and whatever the chunk holds is read later.
 */
public final class ChunkBounds {

	private final DataSource source;

	private final TableLayout layout;

	private final String probeFirst;

	private final String probeNext;

	private final KeyPredicates.Predicate above;

	public ChunkBounds(DataSource source, TableLayout layout) {
		this.source = source;
		this.layout = layout;
		List<Column> keys = layout.keys();
		this.above = KeyPredicates.greaterThan(keys);
		String order = KeyPredicates.orderBy(keys);
		String from = " FROM " + layout.table().quoted();
		String keyList = keys.stream().map(Column::selectExpression).collect(Collectors.joining(", "));
		this.probeFirst = "SELECT " + keyList + from + " ORDER BY " + order + " LIMIT 1 OFFSET ?";
		this.probeNext = "SELECT " + keyList + from + " WHERE " + this.above.sql() + " ORDER BY " + order
				+ " LIMIT 1 OFFSET ?";
	}

	/**
	 * Returns the last key of the chunk of {@code rows} rows after {@code lowerExclusive}, or
	 * {@code null} when fewer rows follow it: the chunk is then the last one and open-ended.
	 * @param lowerExclusive the key the chunk starts after, or {@code null} for the first chunk
	 * @param rows rows per chunk
	 * @throws SQLException when the probe keeps failing
	 */
	public Object[] next(Object[] lowerExclusive, int rows) throws SQLException {
		List<Object> parameters = (lowerExclusive != null) ? new ArrayList<>(this.above.parameters(lowerExclusive))
				: new ArrayList<>();
		parameters.add(rows - 1);
		String sql = (lowerExclusive != null) ? this.probeNext : this.probeFirst;
		List<Column> keys = this.layout.keys();
		return RangeCopy.SOURCE_READS.rerunOnContention("Chunk bound probe of " + this.layout.table(), () -> {
			try (Connection connection = this.source.getConnection()) {
				Sessions.prepareSource(connection);
				try (PreparedStatement statement = RangeCopy.prepared(connection, sql, parameters);
						ResultSet rs = statement.executeQuery()) {
					if (!rs.next()) {
						return null;
					}
					return RowReader.read(rs, keys);
				}
			}
		});
	}

}
