package io.tributary.apply;

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
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.KeyPredicates;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;

/**
 * Reads the keys a target table holds in a key range, so that a copy of the range can delete the
 * target rows the source no longer has.
 */
final class TargetKeyReader {

	private final DataSource target;

	private final List<Column> keys;

	private final String select;

	private final KeyPredicates.Predicate above;

	private final KeyPredicates.Predicate atMost;

	TargetKeyReader(DataSource target, TableId table, TableLayout layout, TargetSlice slice) {
		this.target = target;
		this.keys = layout.keys();
		this.above = KeyPredicates.greaterThan(this.keys);
		this.atMost = KeyPredicates.atMost(this.keys);
		this.select = "SELECT " + this.keys.stream().map(Column::selectExpression).collect(Collectors.joining(", "))
				+ " FROM " + table.quoted() + " WHERE " + ((slice != null) ? slice.predicate() : "1 = 1");
	}

	/**
	 * Reads the keys in a range.
	 * @param lowerExclusive lower bound, or {@code null} for none
	 * @param upperInclusive upper bound, or {@code null} for none
	 * @return the keys, in the order the server returned them
	 * @throws SQLException on a database error
	 */
	List<Object[]> keysIn(Object[] lowerExclusive, Object[] upperInclusive) throws SQLException {
		StringBuilder sql = new StringBuilder(this.select);
		List<Object> parameters = new ArrayList<>();
		if (lowerExclusive != null) {
			sql.append(" AND ").append(this.above.sql());
			parameters.addAll(this.above.parameters(lowerExclusive));
		}
		if (upperInclusive != null) {
			sql.append(" AND ").append(this.atMost.sql());
			parameters.addAll(this.atMost.parameters(upperInclusive));
		}
		try (Connection connection = this.target.getConnection()) {
			Sessions.prepareTarget(connection);
			try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
				for (int i = 0; i < parameters.size(); i++) {
					Values.bind(statement, i + 1, parameters.get(i));
				}
				try (ResultSet rs = statement.executeQuery()) {
					return RowReader.readAll(rs, this.keys);
				}
			}
		}
	}

}
