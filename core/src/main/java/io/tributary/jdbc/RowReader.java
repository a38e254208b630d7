package io.tributary.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.tributary.schema.Column;
import io.tributary.schema.Values;

/**
 * Reads rows of a result set as arrays of the canonical values of {@link Values}: the form the
 * binlog decoder produces, so that a row read by a query and the same row decoded from the binlog
 * are equal, and bind to the target alike.
 */
public final class RowReader {

	private RowReader() {
	}

	/**
	 * Reads the result set's current row: its first {@code columns.size()} columns, each as
	 * {@link Values#fromResultSet} reads a value of that column.
	 * @param rs positioned on a row
	 * @param columns the columns selected first, in order
	 * @return the values
	 * @throws SQLException as the driver reports it
	 */
	public static Object[] read(ResultSet rs, List<Column> columns) throws SQLException {
		Object[] row = new Object[columns.size()];
		for (int i = 0; i < row.length; i++) {
			row[i] = Values.fromResultSet(rs, i + 1, columns.get(i));
		}
		return row;
	}

	/**
	 * Reads every row left in the result set, as {@link #read} reads one.
	 * @param rs the result set, before its next row
	 * @param columns the columns selected first, in order
	 * @return the rows, in the result set's order
	 * @throws SQLException as the driver reports it
	 */
	public static List<Object[]> readAll(ResultSet rs, List<Column> columns) throws SQLException {
		List<Object[]> rows = new ArrayList<>();
		while (rs.next()) {
			rows.add(read(rs, columns));
		}
		return rows;
	}

}
