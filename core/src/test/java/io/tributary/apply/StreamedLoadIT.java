package io.tributary.apply;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Snapshot chunks streamed with {@code LOAD DATA LOCAL INFILE} from memory, through a pool with
 * {@link TargetDriverProperties#streamedLoads()}: the rows arrive exactly, the characters the
 * format gives a meaning included; a large batch of changes is loaded too, a small one is a
 * statement; a server that refuses such loads gets statements; a value the
 * table cannot hold fails the chunk as a statement would, leaving nothing of it; and the driver
 * still reads no local file. The pool holds one connection, so the session's counters of the
 * server count the applier's statements. The server's {@code local_infile} is set for each test
 * and put back after it.
 */
@ExtendWith(DatabaseExtension.class)
class StreamedLoadIT {

	private static final String COLUMNS = "id INT PRIMARY KEY, vc VARCHAR(40), l1 VARCHAR(20) CHARACTER SET latin1, "
			+ "vb VARBINARY(10), b3 BIT(3), d DECIMAL(12,4), f FLOAT, db DOUBLE, ub BIGINT UNSIGNED, "
			+ "ts TIMESTAMP(3) NULL, tm TIME(1)";

	private TestDatabase db;

	private boolean localInfileBefore;

	@BeforeEach
	void rememberLocalInfile(TestDatabase db) throws SQLException {
		this.db = db;
		this.localInfileBefore = localInfile(db);
	}

	@AfterEach
	void restoreLocalInfile() {
		this.db.server().execute(null, "SET GLOBAL local_infile = " + (this.localInfileBefore ? "ON" : "OFF"));
	}

	@Test
	void aChunkIsLoadedFromMemoryExactly(TestDatabase db) throws Exception {
		db.server().execute(null, "SET GLOBAL local_infile = ON");
		String schema = db.schema("load");
		try (HikariDataSource pool = oneConnection(db, schema)) {
			JdbcReplaceApplier applier = applier(pool, schema, "t", COLUMNS);
			List<Object[]> rows = awkwardRows();
			Counters before = Counters.of(pool);
			applier.upsertChunk(rows);
			Counters after = Counters.of(pool);
			assertThat(after.loads - before.loads).as("loads").isEqualTo(1);
			assertThat(after.replaces - before.replaces).as("REPLACE statements").isZero();
			assertThat(read(pool, schema, "t")).containsExactlyElementsOf(expected(rows));
			// Again over the same rows: REPLACE semantics, the rows stay as they are.
			applier.upsertChunk(rows);
			assertThat(read(pool, schema, "t")).containsExactlyElementsOf(expected(rows));
		}
	}

	@Test
	void aLargeBatchOfChangesIsLoadedAndASmallOneIsAStatement(TestDatabase db) throws Exception {
		db.server().execute(null, "SET GLOBAL local_infile = ON");
		String schema = db.schema("batches");
		try (HikariDataSource pool = oneConnection(db, schema)) {
			JdbcReplaceApplier applier = applier(pool, schema, "t", "id INT PRIMARY KEY, vc VARCHAR(40)");
			List<Object[]> large = new ArrayList<>();
			for (long id = 1; id <= JdbcReplaceApplier.LOAD_ROWS; id++) {
				large.add(new Object[] { id, "row\t" + id });
			}
			Counters before = Counters.of(pool);
			applier.replaceBatch(large);
			Counters afterLarge = Counters.of(pool);
			assertThat(afterLarge.loads - before.loads).as("loads").isEqualTo(1);
			assertThat(afterLarge.replaces - before.replaces).as("REPLACE statements").isZero();
			List<Object[]> small = large.subList(0, JdbcReplaceApplier.LOAD_ROWS - 1).stream()
				.map((row) -> new Object[] { row[0], "changed " + row[0] })
				.toList();
			applier.replaceBatch(small);
			Counters afterSmall = Counters.of(pool);
			assertThat(afterSmall.loads - afterLarge.loads).as("loads").isZero();
			assertThat(afterSmall.replaces - afterLarge.replaces).as("REPLACE statements").isEqualTo(1);
			List<String> expected = new ArrayList<>();
			for (int id = 1; id <= JdbcReplaceApplier.LOAD_ROWS; id++) {
				expected.add(id + "|" + ((id < JdbcReplaceApplier.LOAD_ROWS) ? "changed " + id : "row\t" + id));
			}
			assertThat(read(pool, schema, "t")).containsExactlyInAnyOrderElementsOf(expected);
		}
	}

	@Test
	void aServerThatRefusesLoadsGetsStatements(TestDatabase db) throws Exception {
		db.server().execute(null, "SET GLOBAL local_infile = OFF");
		String schema = db.schema("refused");
		try (HikariDataSource pool = oneConnection(db, schema)) {
			JdbcReplaceApplier applier = applier(pool, schema, "t", COLUMNS);
			List<Object[]> rows = awkwardRows();
			Counters before = Counters.of(pool);
			applier.upsertChunk(rows.subList(0, 2));
			applier.upsertChunk(rows.subList(2, rows.size()));
			Counters after = Counters.of(pool);
			// The first chunk's load was refused; the second did not try again.
			assertThat(after.loads - before.loads).as("loads").isLessThanOrEqualTo(1);
			assertThat(after.replaces - before.replaces).as("REPLACE statements").isEqualTo(2);
			assertThat(read(pool, schema, "t")).containsExactlyElementsOf(expected(rows));
		}
	}

	@Test
	void aValueTheTableCannotHoldFailsTheChunkAsAStatementWould(TestDatabase db) throws Exception {
		db.server().execute(null, "SET GLOBAL local_infile = ON");
		String schema = db.schema("narrow");
		try (HikariDataSource pool = oneConnection(db, schema)) {
			// The layout of a wider source column; the target's column holds 3 characters.
			JdbcReplaceApplier wide = applier(pool, schema, "wide", "id INT PRIMARY KEY, vc VARCHAR(40)");
			TableLayout layout = wide.layout();
			TableId narrow = new TableId(schema, "narrow");
			db.server().execute(schema, "CREATE TABLE narrow (id INT PRIMARY KEY, vc VARCHAR(3))");
			JdbcReplaceApplier applier = new JdbcReplaceApplier(pool, narrow, layout, 1000, 1 << 30);
			List<Object[]> rows = List.of(new Object[] { 1L, "abc" }, new Object[] { 2L, "abcdef" });
			Counters before = Counters.of(pool);
			assertThatThrownBy(() -> applier.upsertChunk(rows)).isInstanceOf(ApplyException.class)
				.hasMessageContaining("Data too long");
			Counters after = Counters.of(pool);
			assertThat(after.loads - before.loads).as("loads").isEqualTo(1);
			assertThat(read(pool, schema, "narrow")).isEmpty();
			// A chunk the table can hold is still loaded.
			applier.upsertChunk(rows.subList(0, 1));
			assertThat(Counters.of(pool).loads - after.loads).as("loads").isEqualTo(1);
			assertThat(read(pool, schema, "narrow")).containsExactly("1|abc");
		}
	}

	@Test
	void theDriverReadsNoLocalFileOverSuchAConnection(TestDatabase db, @TempDir Path directory) throws Exception {
		db.server().execute(null, "SET GLOBAL local_infile = ON");
		String schema = db.schema("nofile");
		Path file = Files.writeString(directory.resolve("rows.tsv"), "1\tfrom a file\n");
		try (HikariDataSource pool = oneConnection(db, schema)) {
			applier(pool, schema, "t", "id INT PRIMARY KEY, vc VARCHAR(40)");
			try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
				assertThatThrownBy(() -> statement.execute("LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE t"))
					.isInstanceOf(SQLException.class);
			}
			assertThat(read(pool, schema, "t")).isEmpty();
		}
	}

	/** Rows with the characters the format gives a meaning, bytes of each kind, and NULLs. */
	private static List<Object[]> awkwardRows() {
		List<Object[]> rows = new ArrayList<>();
		rows.add(new Object[] { 1L, "tab\there\nnew line \\ back\\slash \\N", "caf\u00e9 \u00e0 la cr\u00e8me",
				new byte[] { 0, 9, 10, 13, 92, 78, (byte) 0xFF }, new byte[] { 5 }, new BigDecimal("-12345678.1234"),
				0.125f, -1.7976931348623157e308, new BigInteger("18446744073709551615"), "2001-02-03 04:05:06.789",
				"-838:59:58.9" });
		rows.add(new Object[] { 2L, "\\N", "", new byte[0], new byte[] { 0 }, new BigDecimal("0.0000"), 3.40282e38f,
				2.2250738585072014e-308, BigInteger.ZERO, "1970-01-01 00:00:01.001", "00:00:00.1" });
		rows.add(new Object[] { 3L, "emoji \uD83D\uDE00 \u65e5\u672c\u0000nul", null, null, null, null, null, null, null,
				null, null });
		rows.add(new Object[] { 4L, "", "\\", new byte[] { '\\', 'N' }, new byte[] { 7 }, new BigDecimal("1E+3"),
				1.5f, 1.0e-5, new BigInteger("9223372036854775808"), "2038-01-19 03:14:07.999", "12:34:56.5" });
		return rows;
	}

	/** The rows as {@link #read} renders them. */
	private static List<String> expected(List<Object[]> rows) {
		List<String> rendered = new ArrayList<>();
		for (Object[] row : rows) {
			StringBuilder line = new StringBuilder();
			for (int i = 0; i < row.length; i++) {
				Object value = row[i];
				String text;
				if (value == null) {
					text = "NULL";
				}
				else if (value instanceof byte[] bytes) {
					text = hex(bytes);
				}
				else if (value instanceof BigDecimal decimal) {
					text = decimal.setScale(4).toPlainString();
				}
				else if (value instanceof Float number) {
					text = Float.toString(number);
				}
				else if (value instanceof Double number) {
					text = Double.toString(number);
				}
				else {
					text = value.toString();
				}
				line.append((i > 0) ? "|" : "").append(text);
			}
			rendered.add(line.toString());
		}
		return rendered;
	}

	private static String hex(byte[] bytes) {
		StringBuilder hex = new StringBuilder();
		for (byte b : bytes) {
			hex.append(String.format("%02X", b & 0xFF));
		}
		return hex.toString();
	}

	/** Every column of every row, in key order, as text joined with {@code |}. */
	private static List<String> read(HikariDataSource pool, String schema, String table) throws SQLException {
		List<String> rows = new ArrayList<>();
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("SET time_zone = '+00:00'");
			try (ResultSet rs = statement.executeQuery("SELECT * FROM " + new TableId(schema, table).quoted()
					+ " ORDER BY id")) {
				int columns = rs.getMetaData().getColumnCount();
				while (rs.next()) {
					StringBuilder line = new StringBuilder();
					for (int i = 1; i <= columns; i++) {
						String type = rs.getMetaData().getColumnTypeName(i);
						String text;
						if (type.equals("VARBINARY") || type.equals("BIT")) {
							byte[] bytes = rs.getBytes(i);
							text = (bytes == null) ? null : hex(bytes);
						}
						else if (type.equals("FLOAT")) {
							float value = rs.getFloat(i);
							text = rs.wasNull() ? null : Float.toString(value);
						}
						else if (type.equals("DOUBLE")) {
							double value = rs.getDouble(i);
							text = rs.wasNull() ? null : Double.toString(value);
						}
						else {
							text = rs.getString(i);
						}
						line.append((i > 1) ? "|" : "").append((text == null) ? "NULL" : text);
					}
					rows.add(line.toString());
				}
			}
		}
		return rows;
	}

	private static JdbcReplaceApplier applier(HikariDataSource pool, String schema, String table, String columns)
			throws SQLException {
		TableId id = new TableId(schema, table);
		TableLayout layout;
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + id.quoted() + " (" + columns + ") DEFAULT CHARSET = utf8mb4");
			layout = LayoutReader.read(connection, id);
		}
		return new JdbcReplaceApplier(pool, id, layout, 1000, 1 << 30);
	}

	private static HikariDataSource oneConnection(TestDatabase db, String schema) {
		HikariConfig config = new HikariConfig();
		TargetDriverProperties.streamedLoads().forEach(config::addDataSourceProperty);
		config.setJdbcUrl(db.jdbcUrl(schema));
		config.setUsername(db.server().username());
		config.setPassword(db.server().password());
		config.setMaximumPoolSize(1);
		config.setPoolName("streamed-load-it");
		return new HikariDataSource(config);
	}

	private static boolean localInfile(TestDatabase db) throws SQLException {
		try (Connection connection = db.dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT @@GLOBAL.local_infile")) {
			rs.next();
			return rs.getBoolean(1);
		}
	}

	/** The session's counters of loads and REPLACE statements. */
	private record Counters(long loads, long replaces) {

		static Counters of(HikariDataSource pool) throws SQLException {
			try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
					ResultSet rs = statement.executeQuery("SHOW SESSION STATUS WHERE Variable_name IN "
							+ "('Com_load', 'Com_replace')")) {
				long[] counts = { -1, -1 };
				while (rs.next()) {
					counts[rs.getString(1).equalsIgnoreCase("Com_load") ? 0 : 1] = rs.getLong(2);
				}
				assertThat(counts).as("Com_load, Com_replace").doesNotContain(-1L);
				return new Counters(counts[0], counts[1]);
			}
		}

	}

}
