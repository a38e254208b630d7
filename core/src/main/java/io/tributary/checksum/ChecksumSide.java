package io.tributary.checksum;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.tributary.copy.KeyRange;
import io.tributary.jdbc.RowReader;
import io.tributary.jdbc.Sessions;
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.KeyPredicates;
import io.tributary.schema.RowKey;
import io.tributary.schema.Values;

/**
 * Reads checksums from one side, source or target. Every read is a plain autocommit SELECT: it
 * takes no row lock, so comparing never holds up the application's writers.
 */
final class ChecksumSide {

	private final DataSource pool;

	private final TableId table;

	private final List<Column> keys;

	private final boolean isSource;

	private final String sums;

	private final String hashes;

	/**
	 * @param pool connections to this side
	 * @param table the table on this side
	 * @param keys the key columns
	 * @param columns the columns to compare, the same list on both sides
	 * @param targetTypes the target's {@code COLUMN_TYPE} of each compared column, in the same order
	 * @param isSource whether this is the source (session settings and some renderings differ)
	 * @param filter an SQL predicate choosing the rows of this side that are compared (the slice of a
	 * target that several tables are merged into), or {@code null} for every row
	 */
	ChecksumSide(DataSource pool, TableId table, List<Column> keys, List<Column> columns, List<String> targetTypes,
			boolean isSource, String filter) {
		this.pool = pool;
		this.table = table;
		this.keys = keys;
		this.isSource = isSource;
		String crc = RowDigest.crc(columns, targetTypes, isSource);
		// A filtered side reads a derived table, which both servers merge into the query.
		String from = (filter != null) ? "(SELECT * FROM " + table.quoted() + " WHERE " + filter + ") sliced"
				: table.quoted();
		this.sums = "SELECT COUNT(*), IFNULL(BIT_XOR(h), 0), IFNULL(SUM(h), 0) FROM (SELECT " + crc + " AS h FROM "
				+ from;
		this.hashes = "SELECT " + keys.stream().map(Column::selectExpression).collect(Collectors.joining(", ")) + ", "
				+ crc + " FROM " + from;
	}

	/** Returns the aggregate of the rows in a range. */
	ChunkSums sums(KeyRange range) throws SQLException {
		List<Object> parameters = new ArrayList<>();
		String sql = this.sums + range.where(this.keys, parameters) + ") rows_in_range";
		try (Connection connection = open(); PreparedStatement statement = prepared(connection, sql, parameters);
				ResultSet rs = statement.executeQuery()) {
			rs.next();
			return new ChunkSums(rs.getLong(1), rs.getLong(2), rs.getBigDecimal(3).longValueExact());
		}
	}

	/** Returns the CRC of every row in a range, by key. */
	Map<RowKey, Long> hashes(KeyRange range) throws SQLException {
		List<Object> parameters = new ArrayList<>();
		return hashes(this.hashes + range.where(this.keys, parameters), parameters);
	}

	/** Returns the CRC of every row with one of the given keys, by key. */
	Map<RowKey, Long> hashes(List<RowKey> keys) throws SQLException {
		List<Object> parameters = new ArrayList<>();
		for (RowKey key : keys) {
			parameters.addAll(Arrays.asList(key.values()));
		}
		return hashes(this.hashes + " WHERE " + KeyPredicates.in(this.keys, keys.size()), parameters);
	}

	private Map<RowKey, Long> hashes(String sql, List<Object> parameters) throws SQLException {
		Map<RowKey, Long> found = new HashMap<>();
		try (Connection connection = open(); PreparedStatement statement = prepared(connection, sql, parameters);
				ResultSet rs = statement.executeQuery()) {
			while (rs.next()) {
				Object[] key = RowReader.read(rs, this.keys);
				found.put(new RowKey(key), rs.getLong(key.length + 1));
			}
		}
		return found;
	}

	private Connection open() throws SQLException {
		Connection connection = this.pool.getConnection();
		try {
			// Both sides in UTC, so a TIMESTAMP renders the same text on each.
			if (this.isSource) {
				Sessions.prepareSource(connection);
			}
			else {
				Sessions.prepareTarget(connection);
			}
			connection.setAutoCommit(true);
			return connection;
		}
		catch (SQLException ex) {
			connection.close();
			throw ex;
		}
	}

	private static PreparedStatement prepared(Connection connection, String sql, List<Object> parameters)
			throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql);
		for (int i = 0; i < parameters.size(); i++) {
			Values.bind(statement, i + 1, parameters.get(i));
		}
		return statement;
	}

	@Override
	public String toString() {
		return this.table.toString();
	}

}
