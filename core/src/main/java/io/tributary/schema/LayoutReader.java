package io.tributary.schema;

import java.nio.charset.Charset;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tributary.name.TableId;
import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;

/**
 * Reads a {@link TableLayout} from {@code information_schema}.
 */
public final class LayoutReader {

	/** ER_NO_SUCH_TABLE. */
	private static final int NO_SUCH_TABLE = 1146;

	private LayoutReader() {
	}

	/**
	 * Reads the layout of a table.
	 * @param connection a connection to the server holding the table
	 * @param table the table
	 * @return the layout
	 * @throws SQLException on a database error
	 * @throws SchemaException when the table does not exist, has no usable key, or has a column
	 * type Tributary cannot represent
	 */
	public static TableLayout read(Connection connection, TableId table) throws SQLException {
		return read(connection, table, List.of());
	}

	/**
	 * Reads the layout of a table keyed by configured columns instead of its primary key.
	 * @param connection a connection to the server holding the table
	 * @param table the table
	 * @param key names of the key columns, which must be exactly the columns of a primary or unique
	 * key and all NOT NULL; empty for the primary key
	 * @return the layout
	 * @throws SQLException on a database error
	 * @throws SchemaException when the configured key is no such key
	 */
	public static TableLayout read(Connection connection, TableId table, List<String> key) throws SQLException {
		return read(connection, table, key, SettingNames.ENGINE);
	}

	/**
	 * As {@link #read(Connection, TableId, List)}, with messages that name settings as {@code names}
	 * does.
	 * @param names how messages name the settings they point to
	 */
	public static TableLayout read(Connection connection, TableId table, List<String> key, SettingNames names)
			throws SQLException {
		List<Column> columns = new ArrayList<>();
		try (PreparedStatement statement = connection.prepareStatement("""
				SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, CHARACTER_SET_NAME, CHARACTER_MAXIMUM_LENGTH,
				       NUMERIC_SCALE, DATETIME_PRECISION, IS_NULLABLE, COLLATION_NAME, EXTRA
				FROM information_schema.COLUMNS
				WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
				ORDER BY ORDINAL_POSITION""")) {
			statement.setString(1, table.schema());
			statement.setString(2, table.table());
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					columns.add(column(table, columns.size(), rs));
				}
			}
		}
		if (columns.isEmpty()) {
			throw new SchemaException("Table " + table + " does not exist on the source (or the user lacks SELECT on it); "
					+ "create it or correct the name in " + names.of(Setting.TABLES));
		}
		if (!key.isEmpty()) {
			return new TableLayout(table, columns, configuredKey(connection, table, columns, key));
		}
		return new TableLayout(table, columns, primaryKey(connection, table, columns));
	}

	/**
	 * Reads the layout of a table that a statement in the binlog has just changed. The reader can
	 * hold that statement before the source has committed it: MySQL sends a transaction to its
	 * replicas once it is in the binary log, ahead of the storage engine's commit, so for a moment
	 * {@code information_schema} still shows the old definition. Opening the table first waits for the
	 * metadata lock that the changing statement holds until it has committed.
	 * @param connection a connection to the server holding the table
	 * @param table the table
	 * @param key names of the key columns, empty for the primary key
	 * @param names how messages name the settings they point to
	 * @return the layout as the change left it (or as a later change did)
	 * @throws SQLException on a database error
	 * @throws SchemaException as {@link #read(Connection, TableId, List)}
	 */
	public static TableLayout readAfterChange(Connection connection, TableId table, List<String> key,
			SettingNames names) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.executeQuery("SELECT * FROM " + table.quoted() + " LIMIT 0").close();
		}
		catch (SQLException ex) {
			// A table dropped meanwhile is reported by the read, in its own words.
			if (ex.getErrorCode() != NO_SUCH_TABLE) {
				throw ex;
			}
		}
		return read(connection, table, key, names);
	}

	private static int[] configuredKey(Connection connection, TableId table, List<Column> columns, List<String> key)
			throws SQLException {
		boolean unique = uniqueKeys(connection, table).values().stream()
			.anyMatch((index) -> index.size() == key.size() && index.stream().allMatch(
					(name) -> key.stream().anyMatch(name::equalsIgnoreCase)));
		if (!unique) {
			throw new SchemaException("The key " + key + " configured for " + table + " is not the column list of a "
					+ "primary or unique key of the table; name the columns of one, or add it: ALTER TABLE "
					+ table.quoted() + " ADD UNIQUE (...)");
		}
		int[] ordinals = new int[key.size()];
		for (int i = 0; i < ordinals.length; i++) {
			String name = key.get(i);
			Column column = columns.stream()
				.filter((candidate) -> candidate.name().equalsIgnoreCase(name))
				.findFirst()
				.orElseThrow(() -> new SchemaException("Key column " + name + " of " + table + " is not a column"));
			if (column.nullable()) {
				throw new SchemaException("Key column " + name + " of " + table + " accepts NULL, and rows with NULL "
						+ "in a unique key are not unique; make it NOT NULL or choose another key");
			}
			ordinals[i] = column.ordinal();
		}
		return ordinals;
	}

	/**
	 * Returns a table's primary and unique keys, by index name, each as its column names in index
	 * order.
	 */
	public static Map<String, List<String>> uniqueKeys(Connection connection, TableId table)
			throws SQLException {
		Map<String, List<String>> keys = new LinkedHashMap<>();
		try (PreparedStatement statement = connection.prepareStatement("""
				SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS
				WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0
				ORDER BY INDEX_NAME, SEQ_IN_INDEX""")) {
			statement.setString(1, table.schema());
			statement.setString(2, table.table());
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					keys.computeIfAbsent(rs.getString(1), (name) -> new ArrayList<>()).add(rs.getString(2));
				}
			}
		}
		return keys;
	}

	private static int[] primaryKey(Connection connection, TableId table, List<Column> columns) throws SQLException {
		List<String> pk = primaryKeyColumns(connection, table);
		if (pk.isEmpty()) {
			throw new SchemaException("Table " + table + " has no primary key; Tributary needs one to merge changes by key. "
					+ "Add one: ALTER TABLE " + table.quoted() + " ADD PRIMARY KEY (...)");
		}
		int[] ordinals = new int[pk.size()];
		for (int i = 0; i < ordinals.length; i++) {
			String name = pk.get(i);
			ordinals[i] = columns.stream()
				.filter((column) -> column.name().equalsIgnoreCase(name))
				.findFirst()
				.orElseThrow(() -> new SchemaException("Key column " + name + " of " + table + " is not a column"))
				.ordinal();
		}
		return ordinals;
	}

	/** Returns the names of a table's primary key columns in key order, empty when it has none. */
	public static List<String> primaryKeyColumns(Connection connection, TableId table) throws SQLException {
		List<String> names = new ArrayList<>();
		try (PreparedStatement statement = connection.prepareStatement("""
				SELECT COLUMN_NAME FROM information_schema.STATISTICS
				WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = ?
				ORDER BY SEQ_IN_INDEX""")) {
			statement.setString(1, table.schema());
			statement.setString(2, table.table());
			statement.setString(3, "PRIMARY");
			try (ResultSet rs = statement.executeQuery()) {
				while (rs.next()) {
					names.add(rs.getString(1));
				}
			}
		}
		return names;
	}

	private static Column column(TableId table, int ordinal, ResultSet rs) throws SQLException {
		String name = rs.getString("COLUMN_NAME");
		String dataType = rs.getString("DATA_TYPE").toLowerCase(Locale.ROOT);
		String columnType = rs.getString("COLUMN_TYPE");
		String charsetName = rs.getString("CHARACTER_SET_NAME");
		long length = rs.getLong("CHARACTER_MAXIMUM_LENGTH");
		int scale = rs.getInt("NUMERIC_SCALE");
		if (rs.wasNull()) {
			scale = rs.getInt("DATETIME_PRECISION");
		}
		if (dataType.equals("bit")) {
			length = Long.parseLong(columnType.replaceAll("[^0-9]", ""));
		}
		boolean nullable = "YES".equalsIgnoreCase(rs.getString("IS_NULLABLE"));
		boolean unsigned = columnType.toLowerCase(Locale.ROOT).contains("unsigned");
		ValueKind kind = kindOf(table, name, dataType, unsigned, columnType);
		Charset charset = (kind == ValueKind.TEXT) ? Charsets.forMysql(charsetName, table, name) : null;
		List<String> labels = (dataType.equals("enum") || dataType.equals("set")) ? labels(columnType) : List.of();
		String collation = rs.getString("COLLATION_NAME");
		return new Column(name, ordinal, dataType, columnType, kind, unsigned, charset, length, scale, labels, nullable,
				collation, isGenerated(rs.getString("EXTRA")));
	}

	/**
	 * Returns whether {@code information_schema.COLUMNS.EXTRA} describes a generated column: MySQL
	 * and MariaDB write {@code VIRTUAL GENERATED} or {@code STORED GENERATED} (older MariaDB
	 * {@code VIRTUAL} or {@code PERSISTENT}). MySQL's {@code DEFAULT_GENERATED}, a column whose
	 * default is an expression, is an ordinary column.
	 */
	public static boolean isGenerated(String extra) {
		if (extra == null) {
			return false;
		}
		String upper = extra.toUpperCase(Locale.ROOT);
		return upper.contains("VIRTUAL") || upper.contains("STORED") || upper.contains("PERSISTENT");
	}

	static ValueKind kindOf(TableId table, String column, String dataType, boolean unsigned, String columnType) {
		return switch (dataType) {
			case "tinyint", "smallint", "mediumint", "int", "integer", "year" -> ValueKind.INTEGER;
			case "bigint" -> unsigned ? ValueKind.UNSIGNED_BIGINT : ValueKind.INTEGER;
			case "decimal", "numeric" -> ValueKind.DECIMAL;
			case "float" -> ValueKind.FLOAT;
			case "double", "real" -> ValueKind.DOUBLE;
			case "bit" -> ValueKind.BIT;
			case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set" -> ValueKind.TEXT;
			case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> ValueKind.BYTES;
			case "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
					"geometrycollection", "geomcollection" -> ValueKind.BYTES;
			case "date", "time", "datetime", "timestamp" -> ValueKind.TEMPORAL;
			case "json" -> ValueKind.JSON;
			default -> throw new SchemaException("Column " + column + " of " + table + " has type " + columnType
					+ ", which Tributary cannot replicate; exclude the table or change the column type");
		};
	}

	/** Parses the member labels out of {@code enum('a','b')} or {@code set('x','y')}. */
	static List<String> labels(String columnType) {
		List<String> labels = new ArrayList<>();
		int open = columnType.indexOf('(');
		int i = open + 1;
		while (i > 0 && i < columnType.length()) {
			if (columnType.charAt(i) != '\'') {
				i++;
				continue;
			}
			StringBuilder label = new StringBuilder();
			i++;
			while (i < columnType.length()) {
				char c = columnType.charAt(i);
				if (c == '\'' && i + 1 < columnType.length() && columnType.charAt(i + 1) == '\'') {
					label.append('\'');
					i += 2;
				}
				else if (c == '\\' && i + 1 < columnType.length()) {
					label.append(columnType.charAt(i + 1));
					i += 2;
				}
				else if (c == '\'') {
					i++;
					break;
				}
				else {
					label.append(c);
					i++;
				}
			}
			labels.add(label.toString());
		}
		return labels;
	}

}
