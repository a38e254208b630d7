package io.tributary.conformance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;

/**
 * One table a corpus file created, as the source describes it: its columns, which of them the
 * server computes, and its primary key (empty for a keyless table).
 *
 * @param file the corpus file's stem
 * @param id the table
 * @param columns every column, in order
 * @param key the primary key's columns in key order, empty when it has none
 */
record CorpusTable(String file, TableId id, List<CorpusTable.Column> columns, List<String> key) {

	/**
	 * A column.
	 *
	 * @param name its name
	 * @param dataType lower-case {@code DATA_TYPE}
	 * @param generated whether the server computes it
	 */
	record Column(String name, String dataType, boolean generated) {

		String quoted() {
			return TableId.quote(this.name);
		}

	}

	/** Reads a table's description. */
	static CorpusTable read(Connection connection, String file, TableId id) throws SQLException {
		List<Column> columns = new ArrayList<>();
		try (PreparedStatement statement = connection.prepareStatement("""
				SELECT COLUMN_NAME, DATA_TYPE, EXTRA FROM information_schema.COLUMNS
				WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION""")) {
			statement.setString(1, id.schema());
			statement.setString(2, id.table());
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					columns.add(new Column(rs.getString(1), rs.getString(2).toLowerCase(Locale.ROOT),
							LayoutReader.isGenerated(rs.getString(3))));
				}
			}
		}
		return new CorpusTable(file, id, columns, LayoutReader.primaryKeyColumns(connection, id));
	}

	/** Returns the tables of a schema, by name. */
	static List<String> namesIn(Connection connection, String schema) throws SQLException {
		List<String> names = new ArrayList<>();
		try (PreparedStatement statement = connection.prepareStatement("""
				SELECT TABLE_NAME FROM information_schema.TABLES
				WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME""")) {
			statement.setString(1, schema);
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					names.add(rs.getString(1));
				}
			}
		}
		return names;
	}

	boolean keyed() {
		return !this.key.isEmpty();
	}

	/** Returns the same table in another schema or under another name. */
	TableId in(String schema, String suffix) {
		return new TableId(schema, this.id.table() + suffix);
	}

	/** Returns the quoted list of the columns a write may give values: every one not generated. */
	String writableList() {
		return this.columns.stream().filter((column) -> !column.generated()).map(Column::quoted)
			.collect(Collectors.joining(", "));
	}

	/** Returns the quoted key columns, comma-separated. */
	String keyList() {
		return this.key.stream().map(TableId::quote).collect(Collectors.joining(", "));
	}

	/** Returns the key's first column. */
	Column firstKeyColumn() {
		return this.columns.stream().filter((column) -> column.name().equalsIgnoreCase(this.key.get(0)))
			.findFirst().orElseThrow();
	}

	/** Returns the names of MySQL JSON columns (MariaDB's JSON is text and has no JSON type). */
	List<String> jsonColumns() {
		return this.columns.stream().filter((column) -> column.dataType().equals("json")).map(Column::name).toList();
	}

}
