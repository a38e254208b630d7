package io.tributary.test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

import javax.sql.DataSource;

/**
 * Exact row-by-row comparison of two tables, which may live on different servers.
 *
 * <p>Both tables must have a primary key over the same column names. Each side is read with one
 * streaming {@code SELECT ... ORDER BY <key>} (Connector/J's {@code fetchSize = Integer.MIN_VALUE}),
 * and the two streams are merge-joined by key, so memory use does not grow with the table size.
 *
 * <p><b>Key order.</b> The merge needs a Java comparator that orders keys exactly as the server's
 * {@code ORDER BY} does. Key columns are therefore handled by type:
 *
 * <ul>
 *   <li>integer types: ordered by the column (an index scan), compared as numbers;
 *   <li>{@code DECIMAL}: ordered by the column, compared as {@link BigDecimal} values;
 *   <li>{@code DATE}, {@code DATETIME}, {@code TIMESTAMP}, {@code YEAR}: ordered by the column and
 *       compared as their fixed-width text, which sorts chronologically ({@code TIMESTAMP} is read
 *       in time zone {@code +00:00}, see below);
 *   <li>{@code BINARY}, {@code VARBINARY} and {@code BLOB} types: ordered by the column, compared
 *       as unsigned bytes;
 *   <li>everything else, notably {@code CHAR}/{@code VARCHAR}/{@code TEXT} in any collation, and
 *       {@code ENUM}, {@code SET}, {@code BIT}, {@code TIME}, floating point: ordered by
 *       {@code CAST(column AS BINARY)} and compared as unsigned bytes of that cast. This sidesteps
 *       collation rules (case, accents, pad space) entirely, at the cost of a server-side sort
 *       instead of an index scan. Two keys that a case-insensitive collation treats as equal but
 *       that differ in bytes are reported as two different rows, which is a real difference.
 * </ul>
 *
 * For the duration of the comparison each connection runs with session {@code time_zone = '+00:00'}
 * and {@code max_sort_length = 8388608} (so long string keys sort on every byte); both are restored
 * afterwards. As a safety net the merge checks that each side's keys arrive strictly increasing
 * under the comparator and fails with {@link IllegalStateException} if they do not.
 *
 * <p><b>Values.</b> Every column present in both tables is compared as the exact bytes the server
 * sends in the text protocol ({@link ResultSet#getBytes(int)}): DECIMAL with its scale, DATETIME
 * and TIMESTAMP with their fractional digits, JSON as the server renders it, BLOBs byte for byte.
 * SQL NULL differs from every value, including the empty string. Both connections should use the
 * same character set for results (the default with Connector/J and a {@code utf8mb4} server).
 * A column that exists in only one table is itself reported as a difference.
 */
public final class TableComparison {

	/** How many difference descriptions {@link Result#differences()} keeps. */
	public static final int MAX_REPORTED_DIFFERENCES = 20;

	private static final int MAX_SHOWN_VALUE = 80;
	private static final Set<String> INTEGER_TYPES = Set.of("tinyint", "smallint", "mediumint", "int", "integer", "bigint");
	private static final Set<String> DECIMAL_TYPES = Set.of("decimal", "numeric");
	private static final Set<String> TEMPORAL_TYPES = Set.of("date", "datetime", "timestamp", "year");
	private static final Set<String> BINARY_TYPES = Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob");
	private static final Set<String> SHOWN_AS_HEX = Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob",
			"longblob", "bit", "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring",
			"multipolygon", "geometrycollection", "geomcollection");
	private static final Set<String> QUOTED = Set.of("char", "varchar", "tinytext", "text", "mediumtext", "longtext",
			"enum", "set", "json");

	private TableComparison() {}

	/**
	 * Compares two tables row by row.
	 *
	 * @param left data source of the first table
	 * @param leftTable {@code schema.table}; without a schema, the connection's default schema is used
	 * @param right data source of the second table (may be the same as {@code left})
	 * @param rightTable {@code schema.table}
	 * @return the outcome, with up to {@value #MAX_REPORTED_DIFFERENCES} difference descriptions
	 * @throws IllegalArgumentException if a table does not exist, has no primary key, or the two
	 *     primary keys differ
	 * @throws IllegalStateException if reading fails
	 */
	public static Result compare(DataSource left, String leftTable, DataSource right, String rightTable) {
		try (Connection leftConnection = left.getConnection();
				Connection rightConnection = right.getConnection()) {
			return new Merge(leftConnection, leftTable, rightConnection, rightTable).run();
		} catch (SQLException e) {
			throw new IllegalStateException("comparing " + leftTable + " with " + rightTable + " failed: "
					+ e.getMessage(), e);
		}
	}

	/**
	 * Compares two tables like {@link #compare} and throws if they differ.
	 *
	 * @throws AssertionError with {@link Result#toString()} as message if the tables differ
	 */
	public static void assertEqual(DataSource left, String leftTable, DataSource right, String rightTable) {
		Result result = compare(left, leftTable, right, rightTable);
		if (!result.equal()) {
			throw new AssertionError(result.toString());
		}
	}

	/** Outcome of a comparison. Immutable. */
	public static final class Result {
		private final String leftTable;
		private final String rightTable;
		private final long leftRows;
		private final long rightRows;
		private final long differenceCount;
		private final List<String> differences;

		Result(String leftTable, String rightTable, long leftRows, long rightRows, long differenceCount,
				List<String> differences) {
			this.leftTable = leftTable;
			this.rightTable = rightTable;
			this.leftRows = leftRows;
			this.rightRows = rightRows;
			this.differenceCount = differenceCount;
			this.differences = List.copyOf(differences);
		}

		/** True if both tables have the same keys and the same values in every common column. */
		public boolean equal() {
			return differenceCount == 0;
		}

		/** Rows read from the left table. */
		public long leftRows() {
			return leftRows;
		}

		/** Rows read from the right table. */
		public long rightRows() {
			return rightRows;
		}

		/**
		 * Descriptions of the first {@value TableComparison#MAX_REPORTED_DIFFERENCES} differences in
		 * key order, such as {@code key [42]: only in left} or
		 * {@code key [7]: column amount left=1.00 right=2.00}.
		 */
		public List<String> differences() {
			return differences;
		}

		/**
		 * Total number of differences: one per row present on one side only, one per differing
		 * column of a row present on both sides, one per column present in one table only.
		 */
		public long differenceCount() {
			return differenceCount;
		}

		@Override
		public String toString() {
			StringBuilder out = new StringBuilder();
			out.append(leftTable).append(" (").append(leftRows).append(" rows) vs ").append(rightTable).append(" (")
					.append(rightRows).append(" rows): ");
			if (equal()) {
				return out.append("equal").toString();
			}
			out.append(differenceCount).append(differenceCount == 1 ? " difference" : " differences");
			if (differenceCount > differences.size()) {
				out.append(", first ").append(differences.size()).append(" shown");
			}
			for (String difference : differences) {
				out.append(System.lineSeparator()).append("  ").append(difference);
			}
			return out.toString();
		}
	}

	enum KeyKind {
		INTEGER, DECIMAL, TEMPORAL, BYTES, CAST_BYTES;

		static KeyKind of(String dataType) {
			String type = dataType.toLowerCase(Locale.ROOT);
			if (INTEGER_TYPES.contains(type)) {
				return INTEGER;
			}
			if (DECIMAL_TYPES.contains(type)) {
				return DECIMAL;
			}
			if (TEMPORAL_TYPES.contains(type)) {
				return TEMPORAL;
			}
			if (BINARY_TYPES.contains(type)) {
				return BYTES;
			}
			return CAST_BYTES;
		}
	}

	/** Compares key components read by {@link Cursor}; must agree with the server's ORDER BY. */
	static int compareKeys(Object[] a, Object[] b) {
		for (int i = 0; i < a.length; i++) {
			int c = compareComponent(a[i], b[i]);
			if (c != 0) {
				return c;
			}
		}
		return 0;
	}

	static int compareComponent(Object a, Object b) {
		if (a instanceof Long x && b instanceof Long y) {
			return Long.compare(x, y);
		}
		if (a instanceof byte[] x && b instanceof byte[] y) {
			return Arrays.compareUnsigned(x, y);
		}
		if (a instanceof String x && b instanceof String y) {
			return x.compareTo(y);
		}
		if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
			return x.compareTo(y);
		}
		if ((a instanceof Long || a instanceof BigInteger) && (b instanceof Long || b instanceof BigInteger)) {
			return toBigInteger(a).compareTo(toBigInteger(b));
		}
		throw new IllegalStateException("incomparable key values " + a + " and " + b);
	}

	private static BigInteger toBigInteger(Object value) {
		return value instanceof BigInteger big ? big : BigInteger.valueOf((Long) value);
	}

	static Object parseInteger(String text) {
		if (text.length() <= 18) {
			return Long.parseLong(text);
		}
		BigInteger value = new BigInteger(text);
		return value.bitLength() < 64 ? (Object) value.longValue() : value;
	}

	record TableName(String schema, String table) {
		/**
		 * Reads {@code schema.table} or {@code table} as MySQL writes names: each part plain, or
		 * quoted with backticks (a backtick inside doubled), so a quoted part may hold dots.
		 */
		static TableName parse(String qualified, Connection connection) throws SQLException {
			List<String> parts = new ArrayList<>();
			int at = 0;
			String text = qualified.trim();
			while (true) {
				StringBuilder part = new StringBuilder();
				if (at < text.length() && text.charAt(at) == '`') {
					int close;
					while (true) {
						close = text.indexOf('`', at + 1);
						if (close < 0) {
							throw new IllegalArgumentException("table " + qualified + " has an unclosed backtick");
						}
						part.append(text, at + 1, close);
						if (close + 1 < text.length() && text.charAt(close + 1) == '`') {
							part.append('`');
							at = close + 1;
						} else {
							break;
						}
					}
					at = close + 1;
				} else {
					int dot = text.indexOf('.', at);
					int end = dot < 0 ? text.length() : dot;
					part.append(text.substring(at, end).trim());
					at = end;
				}
				parts.add(part.toString());
				while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
					at++;
				}
				if (at == text.length()) {
					break;
				}
				if (text.charAt(at) != '.' || parts.size() == 2) {
					throw new IllegalArgumentException("table " + qualified + " is not of the form schema.table");
				}
				at++;
				while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
					at++;
				}
			}
			if (parts.size() == 2) {
				return new TableName(parts.get(0), parts.get(1));
			}
			String schema = connection.getCatalog();
			if (schema == null || schema.isEmpty()) {
				throw new IllegalArgumentException("table " + qualified + " has no schema and the connection has no "
						+ "default schema; use schema.table");
			}
			return new TableName(schema, parts.get(0));
		}

		String sql() {
			return quote(schema) + "." + quote(table);
		}

		@Override
		public String toString() {
			return schema + "." + table;
		}
	}

	record Column(String name, String dataType) {}

	private static String quote(String identifier) {
		return "`" + identifier.replace("`", "``") + "`";
	}

	/** One side of the comparison: metadata, the streaming cursor and the saved session settings. */
	private static final class Side {
		final Connection connection;
		final TableName table;
		final Map<String, Column> columns = new LinkedHashMap<>();
		final List<String> primaryKey = new ArrayList<>();
		String savedTimeZone;
		long savedMaxSortLength;

		Side(Connection connection, String qualified) throws SQLException {
			this.connection = connection;
			this.table = TableName.parse(qualified, connection);
			try (PreparedStatement ps = connection.prepareStatement(
					"SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS"
							+ " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
				ps.setString(1, table.schema());
				ps.setString(2, table.table());
				try (ResultSet rs = ps.executeQuery()) {
					while (rs.next()) {
						columns.put(rs.getString(1), new Column(rs.getString(1), rs.getString(2)));
					}
				}
			}
			if (columns.isEmpty()) {
				throw new IllegalArgumentException("table " + table + " does not exist");
			}
			try (PreparedStatement ps = connection.prepareStatement(
					"SELECT COLUMN_NAME FROM information_schema.STATISTICS"
							+ " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY'"
							+ " ORDER BY SEQ_IN_INDEX")) {
				ps.setString(1, table.schema());
				ps.setString(2, table.table());
				try (ResultSet rs = ps.executeQuery()) {
					while (rs.next()) {
						primaryKey.add(rs.getString(1));
					}
				}
			}
			if (primaryKey.isEmpty()) {
				throw new IllegalArgumentException("table " + table + " has no primary key");
			}
		}

		void prepareSession() throws SQLException {
			try (Statement st = connection.createStatement();
					ResultSet rs = st.executeQuery("SELECT @@session.time_zone, @@session.max_sort_length")) {
				rs.next();
				savedTimeZone = rs.getString(1);
				savedMaxSortLength = rs.getLong(2);
			}
			try (Statement st = connection.createStatement()) {
				st.execute("SET SESSION time_zone = '+00:00', SESSION max_sort_length = 8388608");
			}
		}

		void restoreSession() throws SQLException {
			if (savedTimeZone == null) {
				return;
			}
			try (PreparedStatement ps = connection.prepareStatement(
					"SET SESSION time_zone = ?, SESSION max_sort_length = ?")) {
				ps.setString(1, savedTimeZone);
				ps.setLong(2, savedMaxSortLength);
				ps.execute();
			}
		}
	}

	/** A streaming read of one side, positioned on one row at a time. */
	private static final class Cursor implements AutoCloseable {
		private final Side side;
		private final KeyKind[] kinds;
		private final Statement statement;
		private final ResultSet rs;
		private final int keyCount;
		private final int valueCount;
		Object[] key;
		Object[] previousKey;
		byte[][] values;
		long rows;

		Cursor(Side side, List<String> keyColumns, KeyKind[] kinds, List<String> valueColumns) throws SQLException {
			this.side = side;
			this.kinds = kinds;
			this.keyCount = keyColumns.size();
			this.valueCount = valueColumns.size();
			StringJoiner select = new StringJoiner(", ");
			StringJoiner order = new StringJoiner(", ");
			for (int i = 0; i < keyCount; i++) {
				String column = quote(keyColumns.get(i));
				String expression = kinds[i] == KeyKind.CAST_BYTES ? "CAST(" + column + " AS BINARY)" : column;
				select.add(expression);
				order.add(expression);
			}
			for (String column : valueColumns) {
				select.add(quote(column));
			}
			String sql = "SELECT " + select + " FROM " + side.table.sql() + " ORDER BY " + order;
			statement = side.connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
			statement.setFetchSize(Integer.MIN_VALUE);
			rs = statement.executeQuery(sql);
		}

		/** Advances to the next row; false at the end. */
		boolean next() throws SQLException {
			if (!rs.next()) {
				key = null;
				values = null;
				return false;
			}
			previousKey = key;
			Object[] k = new Object[keyCount];
			for (int i = 0; i < keyCount; i++) {
				k[i] = readKey(i + 1, kinds[i]);
			}
			byte[][] v = new byte[valueCount][];
			for (int i = 0; i < valueCount; i++) {
				v[i] = rs.getBytes(keyCount + i + 1);
			}
			if (previousKey != null && compareKeys(previousKey, k) >= 0) {
				throw new IllegalStateException("rows of " + side.table + " did not arrive in strictly increasing key "
						+ "order (" + Arrays.deepToString(previousKey) + " then " + Arrays.deepToString(k)
						+ "); the key comparator does not match the server's ORDER BY");
			}
			key = k;
			values = v;
			rows++;
			return true;
		}

		private Object readKey(int index, KeyKind kind) throws SQLException {
			switch (kind) {
				case INTEGER:
					return parseInteger(new String(rs.getBytes(index), StandardCharsets.US_ASCII));
				case DECIMAL:
					return new BigDecimal(new String(rs.getBytes(index), StandardCharsets.US_ASCII));
				case TEMPORAL:
					return new String(rs.getBytes(index), StandardCharsets.US_ASCII);
				default:
					return rs.getBytes(index);
			}
		}

		@Override
		public void close() throws SQLException {
			try {
				rs.close();
			} finally {
				statement.close();
			}
		}
	}

	/** The comparison of two specific tables. */
	private static final class Merge {
		private final Side left;
		private final Side right;
		private final List<String> differences = new ArrayList<>();
		private long differenceCount;

		Merge(Connection leftConnection, String leftTable, Connection rightConnection, String rightTable)
				throws SQLException {
			left = new Side(leftConnection, leftTable);
			right = new Side(rightConnection, rightTable);
			if (!left.primaryKey.equals(right.primaryKey)) {
				throw new IllegalArgumentException("primary keys differ: " + left.table + " has " + left.primaryKey
						+ ", " + right.table + " has " + right.primaryKey);
			}
		}

		Result run() throws SQLException {
			List<String> keyColumns = left.primaryKey;
			KeyKind[] kinds = new KeyKind[keyColumns.size()];
			for (int i = 0; i < kinds.length; i++) {
				KeyKind leftKind = KeyKind.of(left.columns.get(keyColumns.get(i)).dataType());
				KeyKind rightKind = KeyKind.of(right.columns.get(keyColumns.get(i)).dataType());
				// Differently typed keys fall back to the type-independent byte order on both sides.
				kinds[i] = leftKind == rightKind ? leftKind : KeyKind.CAST_BYTES;
			}
			List<Column> common = new ArrayList<>();
			for (Column column : left.columns.values()) {
				if (right.columns.containsKey(column.name())) {
					common.add(column);
				} else {
					report("column " + column.name() + " only in left");
				}
			}
			for (Column column : right.columns.values()) {
				if (!left.columns.containsKey(column.name())) {
					report("column " + column.name() + " only in right");
				}
			}
			List<String> valueColumns = common.stream().map(Column::name).toList();

			long leftRows;
			long rightRows;
			try {
				left.prepareSession();
				right.prepareSession();
				try (Cursor l = new Cursor(left, keyColumns, kinds, valueColumns);
						Cursor r = new Cursor(right, keyColumns, kinds, valueColumns)) {
					merge(l, r, common, kinds);
					leftRows = l.rows;
					rightRows = r.rows;
				}
			} finally {
				try {
					left.restoreSession();
				} finally {
					right.restoreSession();
				}
			}
			return new Result(left.table.toString(), right.table.toString(), leftRows, rightRows, differenceCount,
					differences);
		}

		private void merge(Cursor l, Cursor r, List<Column> columns, KeyKind[] kinds) throws SQLException {
			boolean hasLeft = l.next();
			boolean hasRight = r.next();
			while (hasLeft && hasRight) {
				int c = compareKeys(l.key, r.key);
				if (c < 0) {
					report("key " + showKey(l.key, kinds) + ": only in left");
					hasLeft = l.next();
				} else if (c > 0) {
					report("key " + showKey(r.key, kinds) + ": only in right");
					hasRight = r.next();
				} else {
					for (int i = 0; i < columns.size(); i++) {
						if (!Arrays.equals(l.values[i], r.values[i])) {
							Column column = columns.get(i);
							report("key " + showKey(l.key, kinds) + ": column " + column.name() + " left="
									+ showValue(l.values[i], column.dataType()) + " right="
									+ showValue(r.values[i], column.dataType()));
						}
					}
					hasLeft = l.next();
					hasRight = r.next();
				}
			}
			while (hasLeft) {
				report("key " + showKey(l.key, kinds) + ": only in left");
				hasLeft = l.next();
			}
			while (hasRight) {
				report("key " + showKey(r.key, kinds) + ": only in right");
				hasRight = r.next();
			}
		}

		private void report(String difference) {
			differenceCount++;
			if (differences.size() < MAX_REPORTED_DIFFERENCES) {
				differences.add(difference);
			}
		}

		private String showKey(Object[] key, KeyKind[] kinds) {
			StringJoiner out = new StringJoiner(", ", "[", "]");
			for (int i = 0; i < key.length; i++) {
				if (key[i] instanceof byte[] bytes) {
					String type = left.columns.get(left.primaryKey.get(i)).dataType();
					out.add(kinds[i] == KeyKind.CAST_BYTES && !SHOWN_AS_HEX.contains(type.toLowerCase(Locale.ROOT))
							? truncate(new String(bytes, StandardCharsets.UTF_8))
							: hex(bytes));
				} else {
					out.add(String.valueOf(key[i]));
				}
			}
			return out.toString();
		}
	}

	static String showValue(byte[] value, String dataType) {
		if (value == null) {
			return "NULL";
		}
		String type = dataType.toLowerCase(Locale.ROOT);
		if (SHOWN_AS_HEX.contains(type)) {
			return hex(value);
		}
		String text = truncate(new String(value, StandardCharsets.UTF_8));
		return QUOTED.contains(type) ? "'" + text + "'" : text;
	}

	private static String hex(byte[] bytes) {
		int shown = Math.min(bytes.length, MAX_SHOWN_VALUE / 2);
		String hex = "0x" + HexFormat.of().withUpperCase().formatHex(bytes, 0, shown);
		return shown < bytes.length ? hex + "...(" + bytes.length + " bytes)" : hex;
	}

	private static String truncate(String text) {
		return text.length() <= MAX_SHOWN_VALUE ? text : text.substring(0, MAX_SHOWN_VALUE) + "...(" + text.length()
				+ " chars)";
	}
}
