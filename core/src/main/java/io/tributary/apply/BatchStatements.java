package io.tributary.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import io.tributary.name.TableId;
import io.tributary.schema.KeyPredicates;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;

/**
 * The two statements a batch becomes, their text and their parameters: a multi-row
 * {@code REPLACE INTO} of the written columns of row images, and a
 * {@code DELETE ... WHERE key IN (...)} of keys. Each runs on the connection it is given, prepared
 * on the server only at the size {@link BatchLimits} allows.
 */
final class BatchStatements {

	private final String replacePrefix;

	private final String deletePrefix;

	private final TableLayout layout;

	/** How many leading columns of an image are written; later ones are not. */
	private final int width;

	/** Ordinals of the columns written, in order (see {@link TableLayout#writtenColumns}). */
	private final int[] written;

	private final BatchLimits limits;

	/** The slice's value, after each row's values; empty without a slice. */
	private final String sliceValue;

	BatchStatements(TableId table, TableLayout layout, int width, int[] written, BatchLimits limits, TargetSlice slice) {
		this.layout = layout;
		this.width = width;
		this.written = written;
		this.limits = limits;
		this.replacePrefix = "REPLACE INTO " + table.quoted() + " ("
				+ Arrays.stream(written).mapToObj((ordinal) -> layout.columns().get(ordinal).quotedName())
					.collect(Collectors.joining(", "))
				+ ((slice != null) ? ", " + slice.quotedColumn() : "") + ") VALUES ";
		this.deletePrefix = "DELETE FROM " + table.quoted() + " WHERE " + ((slice != null) ? slice.predicate() + " AND " : "");
		this.sliceValue = (slice != null) ? ", " + slice.literal() : "";
	}

	/**
	 * Replaces row images with one statement.
	 * @throws SQLException as the server reports it
	 */
	void replace(Connection connection, List<Object[]> rows) throws SQLException {
		try (PreparedStatement statement = prepare(connection, replaceSql(rows),
				this.limits.serverSideReplace(rows.size()))) {
			int index = 1;
			for (Object[] values : rows) {
				for (int ordinal : this.written) {
					if (ordinal < values.length) {
						Values.bind(statement, index++, values[ordinal]);
					}
				}
			}
			statement.executeUpdate();
		}
	}

	/**
	 * Deletes keys with one statement.
	 * @throws SQLException as the server reports it
	 */
	void delete(Connection connection, List<Object[]> keys) throws SQLException {
		String sql = this.deletePrefix + KeyPredicates.in(this.layout.keys(), keys.size());
		try (PreparedStatement statement = prepare(connection, sql, this.limits.serverSideDelete(keys.size()))) {
			int index = 1;
			for (Object[] key : keys) {
				for (Object value : key) {
					Values.bind(statement, index++, value);
				}
			}
			statement.executeUpdate();
		}
	}

	private static PreparedStatement prepare(Connection connection, String sql, boolean serverSide)
			throws SQLException {
		return serverSide ? connection.prepareStatement(sql) : ClientStatements.prepare(connection, sql);
	}

	private String replaceSql(List<Object[]> rows) {
		String full = "(" + "?, ".repeat(this.written.length - 1) + "?" + this.sliceValue + ")";
		StringBuilder sql = new StringBuilder(this.replacePrefix.length() + rows.size() * (full.length() + 2));
		sql.append(this.replacePrefix);
		for (int i = 0; i < rows.size(); i++) {
			sql.append((i > 0) ? ", " : "");
			int values = rows.get(i).length;
			if (values >= this.width) {
				sql.append(full);
				continue;
			}
			// An image read before columns were added at the end: those get their DEFAULT.
			sql.append('(');
			for (int j = 0; j < this.written.length; j++) {
				sql.append((j > 0) ? ", " : "").append((this.written[j] < values) ? "?" : "DEFAULT");
			}
			sql.append(this.sliceValue).append(')');
		}
		return sql.toString();
	}

}
