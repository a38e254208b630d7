package io.tributary.apply;

import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.conf.RuntimeProperty;
import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.JdbcStatement;

import io.tributary.name.TableId;
import io.tributary.schema.Column;
import io.tributary.schema.TableLayout;

/**
 * Writes rows with one {@code LOAD DATA LOCAL INFILE ... REPLACE} whose "file" is the rows
 * themselves, encoded as they are streamed to the server: no file is written, and none is read.
 * The server parses the rows in bulk instead of a multi-row statement's values one by one, which
 * is what makes a snapshot chunk cheaper this way.
 *
 * <p>Connector/J sends a file to the server only when the connection was opened with the client's
 * local-files capability, which {@link TargetDriverProperties#streamedLoads()} asks for without
 * letting the driver open any file: {@code allowLoadLocalInfileInPath} set, but empty. For the one
 * statement, the driver's runtime-modifiable {@code allowLoadLocalInfile} is turned on and the
 * rows' stream is handed to the statement; the driver then sends that stream whatever name the
 * server asks for, and turns down every other request as before once the property is off again.
 *
 * <p>The format is tab-separated fields, newline-terminated lines, backslash escapes and
 * {@code \N} for NULL, in utf8mb4, which the server converts to each column's character set as it
 * does a statement's string parameters. Binary and BIT values travel as hexadecimal into a user
 * variable that {@code UNHEX} turns back into bytes, so no byte of them is read as a character.
 * Numbers, times and JSON travel as the text the statement path would send, except a YEAR of 0,
 * which travels as {@code 0000} because the text {@code 0} is read as the year 2000.
 *
 * <p>With {@code LOCAL} the server turns a value it cannot store as given into a warning, not an
 * error, because it cannot stop the client's file halfway. The caller therefore runs the load in
 * a transaction and asks {@link #hadWarnings} before it commits: a load with any warning is rolled
 * back and written with statements, whose strict SQL mode refuses such a value with its error.
 */
final class LocalInfileLoad {

	private static final boolean CONNECTOR_J = ClientStatements.present("com.mysql.cj.jdbc.JdbcConnection");

	private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] NULL = { '\\', 'N' };

	private final String sql;

	/** Values a row must have: every column the load writes lies within them. */
	private final int width;

	/** Ordinal in the row of each column loaded. */
	private final int[] ordinals;

	/** The columns loaded, in the statement's order. */
	private final Column[] columns;

	private final boolean[] hex;

	/** YEAR columns, whose 0 must travel as {@code 0000}: as text, {@code 0} reads as 2000. */
	private final boolean[] year;

	/**
	 * Creates the load of the columns at {@code written} (see {@link TableLayout#writtenColumns})
	 * of rows of at least {@code width} values into {@code table}.
	 */
	LocalInfileLoad(TableId table, TableLayout layout, int width, int[] written, TargetSlice slice) {
		this.width = width;
		this.ordinals = written.clone();
		this.columns = Arrays.stream(written).mapToObj(layout.columns()::get).toArray(Column[]::new);
		this.hex = new boolean[written.length];
		this.year = new boolean[written.length];
		StringBuilder fields = new StringBuilder();
		StringBuilder conversions = new StringBuilder();
		for (int i = 0; i < written.length; i++) {
			Column column = this.columns[i];
			this.hex[i] = switch (column.kind()) {
				case BYTES, BIT -> true;
				default -> false;
			};
			this.year[i] = column.dataType().equals("year");
			fields.append((i > 0) ? ", " : "");
			if (this.hex[i]) {
				fields.append("@h").append(i);
				conversions.append((conversions.length() > 0) ? ", " : " SET ").append(column.quotedName())
					.append(" = UNHEX(@h").append(i).append(')');
			}
			else {
				fields.append(column.quotedName());
			}
		}
		this.sql = "LOAD DATA LOCAL INFILE 'tributary-rows' REPLACE INTO TABLE " + table.quoted()
				+ " CHARACTER SET utf8mb4 FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' ("
				+ fields + ")" + conversions + ((slice == null) ? ""
						: ((conversions.length() > 0) ? ", " : " SET ") + slice.predicate());
	}

	/** Returns the statement's text. */
	String sql() {
		return this.sql;
	}

	/**
	 * Returns whether rows can be loaded over {@code connection}: a Connector/J connection opened
	 * with the local-files capability (see {@link TargetDriverProperties#streamedLoads()}).
	 */
	static boolean available(Connection connection) throws SQLException {
		if (!CONNECTOR_J || !connection.isWrapperFor(JdbcConnection.class)) {
			return false;
		}
		var properties = connection.unwrap(JdbcConnection.class).getPropertySet();
		RuntimeProperty<Boolean> allow = properties.getBooleanProperty(PropertyKey.allowLoadLocalInfile);
		return allow.getPropertyDefinition().isRuntimeModifiable()
				&& (allow.getValue() || properties.getStringProperty(PropertyKey.allowLoadLocalInfileInPath)
					.isExplicitlySet());
	}

	/**
	 * Returns whether every row can be encoded: each has a value for every column loaded, of the
	 * type its column's kind holds (bytes in a binary column, no bytes elsewhere).
	 */
	boolean encodes(List<Object[]> rows) {
		for (Object[] row : rows) {
			if (row.length < this.width) {
				return false;
			}
			for (int i = 0; i < this.columns.length; i++) {
				Object value = row[this.ordinals[i]];
				if (value != null && (value instanceof byte[]) != this.hex[i]) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * Loads {@code rows} over {@code connection}, which must be {@link #available}; the caller
	 * checks {@link #encodes} first, and {@link #hadWarnings} before it commits.
	 * @return the statement, open, to ask for warnings; the caller closes it
	 * @throws SQLException as the server or driver reports it
	 */
	Statement load(Connection connection, List<Object[]> rows) throws SQLException {
		RuntimeProperty<Boolean> allow = connection.unwrap(JdbcConnection.class).getPropertySet()
			.getBooleanProperty(PropertyKey.allowLoadLocalInfile);
		boolean allowedBefore = allow.getValue();
		Statement statement = connection.createStatement();
		try {
			statement.unwrap(JdbcStatement.class).setLocalInfileInputStream(new RowStream(rows));
			allow.setValue(true);
			try {
				statement.executeUpdate(this.sql);
			}
			finally {
				allow.setValue(allowedBefore);
			}
			return statement;
		}
		catch (SQLException | RuntimeException ex) {
			statement.close();
			throw ex;
		}
	}

	/**
	 * Returns the first warning the load left, or {@code null} when it left none.
	 * @throws SQLException as the driver reports it
	 */
	static SQLWarning hadWarnings(Statement statement) throws SQLException {
		return statement.getWarnings();
	}

	/** Encodes rows into the load's format a row at a time, as the driver reads them. */
	private final class RowStream extends InputStream {

		private final List<Object[]> rows;

		private int next;

		private byte[] line = new byte[256];

		private int length;

		private int position;

		RowStream(List<Object[]> rows) {
			this.rows = rows;
		}

		@Override
		public int read() {
			if (!fill()) {
				return -1;
			}
			return this.line[this.position++] & 0xFF;
		}

		@Override
		public int read(byte[] buffer, int offset, int count) {
			if (count == 0) {
				return 0;
			}
			int copied = 0;
			while (copied < count && fill()) {
				int n = Math.min(count - copied, this.length - this.position);
				System.arraycopy(this.line, this.position, buffer, offset + copied, n);
				this.position += n;
				copied += n;
			}
			return (copied == 0) ? -1 : copied;
		}

		/** Encodes the next row when the current one is used up; false at the end. */
		private boolean fill() {
			while (this.position >= this.length) {
				if (this.next >= this.rows.size()) {
					return false;
				}
				this.length = 0;
				this.position = 0;
				encode(this.rows.get(this.next++));
			}
			return true;
		}

		private void encode(Object[] row) {
			for (int i = 0; i < LocalInfileLoad.this.columns.length; i++) {
				if (i > 0) {
					put((byte) '\t');
				}
				Object value = row[LocalInfileLoad.this.ordinals[i]];
				if (value == null) {
					put(NULL);
				}
				else if (LocalInfileLoad.this.hex[i]) {
					putHex((byte[]) value);
				}
				else if (value instanceof String text) {
					putEscaped(text.getBytes(StandardCharsets.UTF_8));
				}
				else if (LocalInfileLoad.this.year[i] && value instanceof Long number && number == 0) {
					putAscii("0000");
				}
				else if (value instanceof BigDecimal decimal) {
					putAscii(decimal.toPlainString());
				}
				else {
					// Long, BigInteger, Float, Double: Java's shortest text that reads back as the same value.
					putAscii(value.toString());
				}
			}
			put((byte) '\n');
		}

		private void putHex(byte[] bytes) {
			room(bytes.length * 2);
			for (byte b : bytes) {
				this.line[this.length++] = HEX[(b >> 4) & 0xF];
				this.line[this.length++] = HEX[b & 0xF];
			}
		}

		/**
		 * Writes UTF-8 text with the four bytes the format gives a meaning escaped; no byte of a
		 * multi-byte UTF-8 sequence is below 0x80, so none of them can be taken for one.
		 */
		private void putEscaped(byte[] bytes) {
			room(bytes.length * 2);
			for (byte b : bytes) {
				switch (b) {
					case '\\' -> put2('\\', '\\');
					case '\t' -> put2('\\', 't');
					case '\n' -> put2('\\', 'n');
					case 0 -> put2('\\', '0');
					default -> this.line[this.length++] = b;
				}
			}
		}

		private void putAscii(String text) {
			room(text.length());
			for (int i = 0; i < text.length(); i++) {
				this.line[this.length++] = (byte) text.charAt(i);
			}
		}

		private void put(byte[] bytes) {
			room(bytes.length);
			System.arraycopy(bytes, 0, this.line, this.length, bytes.length);
			this.length += bytes.length;
		}

		private void put(byte b) {
			room(1);
			this.line[this.length++] = b;
		}

		private void put2(char first, char second) {
			this.line[this.length++] = (byte) first;
			this.line[this.length++] = (byte) second;
		}

		private void room(int bytes) {
			if (this.length + bytes > this.line.length) {
				this.line = Arrays.copyOf(this.line, Math.max(this.line.length * 2, this.length + bytes));
			}
		}

	}

}
