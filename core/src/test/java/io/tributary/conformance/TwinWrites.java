package io.tributary.conformance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.tributary.name.TableId;

/**
 * The writes that carry a corpus table's values through the binlog: an empty twin of the table,
 * replicated since it was empty, is filled from the table, a third of its rows then move to
 * another key, and another third are deleted. The fill runs without SQL mode checks, since it
 * copies values the server already holds (zero dates among them); the key moves run strictly, so
 * that a new key the column cannot hold fails instead of being clipped, and another move is tried.
 */
final class TwinWrites {

	private TwinWrites() {
	}

	/** Fills {@code twin} with the rows of {@code table}; returns how many. */
	static int fill(Connection connection, CorpusTable table, TableId twin) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION sql_mode = ''");
			return statement.executeUpdate("INSERT INTO " + twin.quoted() + " (" + table.writableList() + ") SELECT "
					+ table.writableList() + " FROM " + table.id().quoted());
		}
	}

	/**
	 * Moves the first key column of every third row of {@code twin} (by key order) to a new value,
	 * trying the moves its type allows until one succeeds; returns a note of what happened.
	 */
	static String moveKeys(Connection connection, CorpusTable table, TableId twin) throws SQLException {
		CorpusTable.Column column = table.firstKeyColumn();
		if (column.generated()) {
			return "keys not moved: the key is generated";
		}
		String last = "no move for type " + column.dataType();
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION sql_mode = 'STRICT_ALL_TABLES'");
			for (String move : moves(column)) {
				try {
					int moved = statement.executeUpdate(everyThird(table, twin, 1, "SET t." + column.quoted() + " = "
							+ move.replace("k", "t." + column.quoted())));
					return "moved " + moved + " keys with " + move;
				}
				catch (SQLException ex) {
					last = move + ": " + ex.getMessage();
				}
			}
		}
		return "keys not moved: " + last;
	}

	/** Deletes every third row of {@code twin} by key order; returns how many. */
	static int deleteThird(Connection connection, CorpusTable table, TableId twin) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			return statement.executeUpdate(everyThird(table, twin, 0, null));
		}
	}

	/**
	 * Returns a statement over every row of {@code twin} whose number in key order is
	 * {@code remainder} modulo 3: an UPDATE with {@code set}, or a DELETE when it is null.
	 */
	private static String everyThird(CorpusTable table, TableId twin, int remainder, String set) {
		String keys = table.keyList();
		String join = table.key().stream().map((name) -> "t." + TableId.quote(name) + " <=> x." + TableId.quote(name))
			.collect(Collectors.joining(" AND "));
		String numbered = "(SELECT " + keys + ", ROW_NUMBER() OVER (ORDER BY " + keys + ") AS tributary_n FROM "
				+ twin.quoted() + ") x";
		String where = " WHERE x.tributary_n % 3 = " + remainder;
		if (set == null) {
			return "DELETE t FROM " + twin.quoted() + " t JOIN " + numbered + " ON " + join + where;
		}
		return "UPDATE " + twin.quoted() + " t JOIN " + numbered + " ON " + join + " " + set + where;
	}

	/** New values for a key value {@code k} of the column's type, in the order they are tried. */
	private static List<String> moves(CorpusTable.Column column) {
		List<String> moves = new ArrayList<>();
		switch (column.dataType()) {
			case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "decimal", "numeric", "float",
					"double", "real", "year" -> moves.addAll(List.of("k + 100000", "k - 100000", "k + 50", "k - 50"));
			case "char", "varchar", "tinytext", "text", "mediumtext", "longtext" ->
				moves.addAll(List.of("CONCAT(k, '~')", "CONCAT('~', SUBSTRING(k, 2))"));
			case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" ->
				moves.addAll(List.of("CONCAT(k, x'7E')", "REVERSE(k)"));
			case "date", "datetime", "timestamp" ->
				moves.addAll(List.of("k + INTERVAL 400 DAY", "k - INTERVAL 400 DAY"));
			case "time" -> moves.addAll(List.of("ADDTIME(k, '100:00:00')", "SUBTIME(k, '100:00:00')"));
			default -> {
				// ENUM, SET, BIT and others: no move that is sure to stay in the type.
			}
		}
		return moves;
	}

}
