package io.tributary.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.jdbc.Sessions;
import io.tributary.jdbc.SqlErrors;
import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.SchemaException;
import io.tributary.schema.TableLayout;

/**
 * Makes sure a target table can receive a source table's rows: creates it from the source's own
 * definition when it is missing, and refuses one whose columns or key differ, since positional
 * row images written into a different shape would land in the wrong columns.
 */
public final class TargetTables {

	private static final Logger logger = LoggerFactory.getLogger(TargetTables.class);

	/** A primary or unique key line of {@code SHOW CREATE TABLE}, up to the parenthesis of its columns. */
	/** The first line of {@code SHOW CREATE TABLE} after the columns: a key, an index or a constraint. */
	private static final Pattern INDEX_LINE = Pattern.compile("^\\s*(PRIMARY|UNIQUE|KEY|INDEX|FULLTEXT|SPATIAL|CONSTRAINT)\\b");

	private static final Pattern KEY_LINE = Pattern.compile("^(\\s*(?:PRIMARY KEY|UNIQUE KEY(?: `(?:[^`]|``)*`)?)\\s*)\\(");

	private TargetTables() {
	}

	/**
	 * Creates or verifies the target table.
	 * @param source connection pool of the source server
	 * @param target connection pool of the target server
	 * @param layout the source table's layout
	 * @param targetTable the table to write to
	 * @param configKey configuration key naming the target, for the error message
	 * @return whether the target already held rows
	 * @throws SQLException on a database error
	 * @throws SchemaException when an existing target does not match
	 */
	public static boolean prepare(DataSource source, DataSource target, TableLayout layout, TableId targetTable,
			String configKey) throws SQLException {
		return prepare(source, target, layout, targetTable, configKey, null);
	}

	/**
	 * Creates or verifies the target table that several source tables are merged into, each in a
	 * slice of its own: the target has the source's columns and the slice column, which leads its
	 * primary key and each of its unique keys.
	 * @param slice the slice of the source table, or {@code null} when the target is its alone
	 * @return whether the target already held rows of the slice
	 * @see #prepare(DataSource, DataSource, TableLayout, TableId, String)
	 */
	public static boolean prepare(DataSource source, DataSource target, TableLayout layout, TableId targetTable,
			String configKey, TargetSlice slice) throws SQLException {
		try (Connection connection = target.getConnection()) {
			List<String[]> existing = columns(connection, targetTable);
			if (existing.isEmpty()) {
				create(source, connection, layout, targetTable, slice);
				return false;
			}
			verify(connection, layout, targetTable, existing, configKey, slice);
			try (Statement statement = connection.createStatement();
					ResultSet rs = statement.executeQuery("SELECT 1 FROM " + targetTable.quoted()
							+ ((slice != null) ? " WHERE " + slice.predicate() : "") + " LIMIT 1")) {
				return rs.next();
			}
		}
	}

	/**
	 * Returns whether the target table exists.
	 * @param target connection pool of the target server
	 * @param targetTable the table
	 * @return whether it exists
	 * @throws SQLException on a database error
	 */
	public static boolean exists(DataSource target, TableId targetTable) throws SQLException {
		try (Connection connection = target.getConnection()) {
			return !columns(connection, targetTable).isEmpty();
		}
	}

	/**
	 * Returns whether two pools reach the same server: same host name, port and data directory.
	 * @param source connection pool of the source server
	 * @param target connection pool of the target server
	 * @return whether they are one server
	 * @throws SQLException on a database error
	 */
	public static boolean sameServer(DataSource source, DataSource target) throws SQLException {
		return identity(source).equals(identity(target));
	}

	private static String identity(DataSource pool) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT @@hostname, @@port, @@datadir")) {
			rs.next();
			return rs.getString(1) + ":" + rs.getInt(2) + ":" + rs.getString(3);
		}
	}

	private static void create(DataSource source, Connection target, TableLayout layout, TableId targetTable,
			TargetSlice slice) throws SQLException {
		String definition;
		try (Connection connection = source.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW CREATE TABLE " + layout.table().quoted())) {
			rs.next();
			definition = rs.getString(2);
		}
		String ddl = targetDefinition(definition, targetTable, slice);
		// The SQL mode rows are written with: a definition made under a lenient source mode, such as
		// a zero-date default, is refused by a server's default NO_ZERO_DATE.
		Sessions.prepareTarget(target);
		try (Statement statement = target.createStatement()) {
			statement.execute("CREATE DATABASE IF NOT EXISTS " + TableId.quote(targetTable.schema()));
			try {
				statement.execute(ddl);
			}
			catch (SQLException ex) {
				if (SqlErrors.isConnectionLevel(ex)) {
					throw ex;
				}
				throw new SchemaException("Cannot create target table " + targetTable + " from the definition of "
						+ layout.table() + ": " + ex.getMessage() + " (error " + ex.getErrorCode() + "). Create it "
						+ "yourself with the source's columns and key, then restart the table");
			}
		}
		logger.info("Created target table {} from the definition of {}", targetTable, layout.table());
	}

	/**
	 * Rewrites a source {@code CREATE TABLE} for the target: new name, no foreign keys (their
	 * parents may not be replicated), no AUTO_INCREMENT counter.
	 */
	static String targetDefinition(String sourceDefinition, TableId targetTable) {
		return targetDefinition(sourceDefinition, targetTable, null);
	}

	/**
	 * Rewrites a source {@code CREATE TABLE} for the target, as {@link #targetDefinition(String, TableId)}
	 * does, and for a slice with its column after the source's and leading the primary and unique keys.
	 */
	static String targetDefinition(String sourceDefinition, TableId targetTable, TargetSlice slice) {
		String[] lines = sourceDefinition.split("\n");
		List<String> kept = new ArrayList<>();
		boolean sliceAdded = false;
		for (int i = 1; i < lines.length; i++) {
			String line = lines[i];
			if (line.contains("FOREIGN KEY")) {
				continue;
			}
			if (slice != null && line.trim().startsWith("`")) {
				// A column no longer leading a key may not count on its own: the rows bring their values.
				line = line.replaceFirst(" AUTO_INCREMENT(?=[ ,]|$)", "");
			}
			if (slice != null && !sliceAdded && INDEX_LINE.matcher(line).find()) {
				// The slice column follows the source's columns, before the first key.
				kept.add("  " + slice.definition() + ",");
				sliceAdded = true;
			}
			if (slice != null && KEY_LINE.matcher(line).find()) {
				line = KEY_LINE.matcher(line).replaceFirst("$1(" + Matcher.quoteReplacement(slice.quotedColumn()) + ", ");
			}
			kept.add(line);
		}
		// Fix the comma of the last column or key line if a dropped line followed it.
		for (int i = kept.size() - 2; i >= 0; i--) {
			if (kept.get(i + 1).startsWith(")")) {
				kept.set(i, kept.get(i).replaceAll(",\\s*$", ""));
				break;
			}
		}
		String body = String.join("\n", kept).replaceAll(" AUTO_INCREMENT=\\d+", "");
		return "CREATE TABLE IF NOT EXISTS " + targetTable.quoted() + " (\n" + body;
	}

	private static void verify(Connection connection, TableLayout layout, TableId targetTable, List<String[]> all,
			String configKey, TargetSlice slice) throws SQLException {
		List<Column> columns = layout.columns();
		String advice = " Drop or fix the target table, or point " + configKey + " at another table.";
		List<String[]> existing = all;
		if (slice != null) {
			existing = all.stream().filter((column) -> !column[0].equalsIgnoreCase(slice.column())).toList();
			if (existing.size() == all.size()) {
				throw new SchemaException("Target table " + targetTable + " has no column " + slice.column()
						+ ", which tells the merged tables' rows apart (" + layout.table() + " is one of them)." + advice);
			}
		}
		if (existing.size() != columns.size()) {
			throw new SchemaException("Target table " + targetTable + " has " + existing.size() + " columns but source "
					+ layout.table() + " has " + columns.size() + firstDifference(columns, existing) + "." + advice);
		}
		for (Column column : columns) {
			String[] other = existing.get(column.ordinal());
			if (!other[0].equalsIgnoreCase(column.name()) || !other[1].equalsIgnoreCase(column.columnType())) {
				throw new SchemaException("Target table " + targetTable + " does not match source " + layout.table()
						+ ": column " + (column.ordinal() + 1) + " is " + column.name() + " " + column.columnType()
						+ " in the source but " + other[0] + " " + other[1] + " in the target." + advice);
			}
			if (column.generated() != LayoutReader.isGenerated(other[2])) {
				// Tributary writes no value to a generated column: a plain target column would stay
				// NULL, and a generated one in the target refuses the source's values.
				throw new SchemaException("Target table " + targetTable + " does not match source " + layout.table()
						+ ": column " + column.name() + " is " + (column.generated() ? "" : "not ")
						+ "generated in the source but " + (column.generated() ? "not " : "") + "in the target. "
						+ "Give the target column the source's definition (SHOW CREATE TABLE " + layout.table().quoted()
						+ ")." + advice);
			}
		}
		List<String> sourceKey = new ArrayList<>();
		if (slice != null) {
			sourceKey.add(slice.column().toLowerCase());
		}
		layout.keys().forEach((column) -> sourceKey.add(column.name().toLowerCase()));
		Map<String, List<String>> targetKeys = LayoutReader.uniqueKeys(connection, targetTable);
		boolean keyed = targetKeys.values().stream()
			.anyMatch((index) -> index.stream().map(String::toLowerCase).toList().equals(sourceKey));
		if (!keyed) {
			throw new SchemaException("Target table " + targetTable + " has no primary or unique key on " + sourceKey
					+ ", the key of source " + layout.table() + " (it has " + targetKeys + ")." + advice);
		}
	}

	/** Names the first column where a source and a target of different widths part. */
	private static String firstDifference(List<Column> columns, List<String[]> existing) {
		for (int i = 0; i < Math.max(columns.size(), existing.size()); i++) {
			if (i >= columns.size()) {
				return ": column " + existing.get(i)[0] + " is in the target only";
			}
			if (i >= existing.size() || !existing.get(i)[0].equalsIgnoreCase(columns.get(i).name())) {
				return ": column " + columns.get(i).name() + " " + columns.get(i).columnType() + " (column " + (i + 1)
						+ ") is in the source but not there in the target";
			}
		}
		return "";
	}

	/**
	 * Returns a target table's columns as {name, COLUMN_TYPE, EXTRA} in ordinal order, empty when
	 * the table does not exist.
	 */
	public static List<String[]> columns(DataSource target, TableId table) throws SQLException {
		try (Connection connection = target.getConnection()) {
			return columns(connection, table);
		}
	}

	private static List<String[]> columns(Connection connection, TableId table) throws SQLException {
		List<String[]> columns = new ArrayList<>();
		try (PreparedStatement statement = connection.prepareStatement("""
				SELECT COLUMN_NAME, COLUMN_TYPE, EXTRA FROM information_schema.COLUMNS
				WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION""")) {
			statement.setString(1, table.schema());
			statement.setString(2, table.table());
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					columns.add(new String[] { rs.getString(1), rs.getString(2), rs.getString(3) });
				}
			}
		}
		return columns;
	}

}
