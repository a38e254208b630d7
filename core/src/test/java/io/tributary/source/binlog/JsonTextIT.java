package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.apply.ChangeBatch;
import io.tributary.apply.ChangeListener;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.pipeline.Replication;
import io.tributary.pipeline.RunningPipeline;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Checksum.State;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * MySQL's binary JSON arrives as exactly the text the source's SELECT shows, whether a row was
 * copied or decoded from the binlog: scalars of every JSON type, MySQL types inside JSON (temporal
 * values, DECIMAL, BLOB, BIT), escapes, key order, deep nesting and documents in the large format.
 * A target JSON column parses the text it is written, which changes some values (see
 * {@link #TEXT_CHANGES_IN_TARGET}); the checksum counts those as equal and still finds a real
 * difference. MariaDB's JSON is text, which this does not concern.
 */
@ExtendWith(DatabaseExtension.class)
class JsonTextIT {

	/** Values that a MySQL target, parsing the text it is written, holds with other text. */
	private static final List<String> TEXT_CHANGES_IN_TARGET = List.of(
			// A DECIMAL scalar comes back as a DOUBLE: 1.5, 0.0, 19.99.
			"CAST(1.50 AS JSON)", "CAST(CAST(0 AS DECIMAL(6,3)) AS JSON)",
			"JSON_OBJECT('price', CAST(19.990 AS DECIMAL(8,3)))",
			"CAST(CAST(12345678901234567890.125 AS DECIMAL(30,3)) AS JSON)",
			// The server's JSON parser reads this double's text back as its neighbour.
			"CAST(1e-24 AS JSON)");

	private static final List<String> VALUES = values();

	private static List<String> values() {
		List<String> values = new ArrayList<>(List.of("NULL", "'null'", "'true'", "'false'", "'{}'", "'[]'",
				"'\"plain text\"'", "'\"\"'",
				"JSON_ARRAY(CONCAT('q\"', CHAR(92 USING utf8mb4), ' tab', CHAR(9 USING utf8mb4), 'nl',"
						+ " CHAR(10 USING utf8mb4), 'cr', CHAR(13 USING utf8mb4), 'bs', CHAR(8 USING utf8mb4), 'ff',"
						+ " CHAR(12 USING utf8mb4), 'ctl', CHAR(1 USING utf8mb4), CHAR(31 USING utf8mb4), 'del',"
						+ " CHAR(127 USING utf8mb4), ' slash /'))",
				"JSON_ARRAY('caf\u00e9 \u65e5\u672c \uD83D\uDE00 \u2028')",
				"'0'", "'-1'", "'32767'", "'-32769'", "'65536'", "'2147483648'", "'-2147483649'", "'4294967296'",
				"'9223372036854775807'", "'-9223372036854775808'", "'18446744073709551615'",
				"CAST(CAST(3000000000 AS UNSIGNED) AS JSON)", "CAST(CAST(7 AS UNSIGNED) AS JSON)",
				"JSON_ARRAY(CAST(70000 AS UNSIGNED), CAST(3000000000 AS UNSIGNED), -2000000000)",
				"CAST(CAST(5000000000 AS SIGNED) AS JSON)",
				"'3.25'", "'-0.0'", "'1e20'", "'1.5e300'", "'-2.5e-300'", "'0.0000001'", "'1e-16'",
				"'123456789012345.6'", "'1e15'", "'100000000000000.0'", "'5e-324'", "'1.7976931348623157e308'",
				"CAST(0.1e0 + 0.2e0 AS JSON)", "CAST(CAST(1.1 AS FLOAT) AS JSON)",
				"CAST(CAST(42 AS DECIMAL(5,0)) AS JSON)", "CAST(0.5 AS JSON)",
				"CAST(CAST('2015-01-15 23:24:25' AS DATETIME) AS JSON)",
				"CAST(CAST('2015-01-15 23:24:25.12' AS DATETIME(2)) AS JSON)",
				"CAST(CAST('9999-12-31 23:59:59.999999' AS DATETIME(6)) AS JSON)",
				"CAST(CAST('2024-02-29' AS DATE) AS JSON)", "CAST(CAST('-00:00:00.5' AS TIME(1)) AS JSON)",
				"CAST(CAST('-12:34:56.789012' AS TIME(6)) AS JSON)", "CAST(CAST('23:59:59' AS TIME) AS JSON)",
				"(SELECT CAST(ts AS JSON) FROM kinds)", "CAST(x'cafe' AS JSON)", "CAST(x'' AS JSON)",
				"CAST(UNHEX(REPEAT('5a', 120)) AS JSON)", "(SELECT CAST(bl AS JSON) FROM kinds)",
				"(SELECT CAST(bt AS JSON) FROM kinds)", "(SELECT CAST(bn AS JSON) FROM kinds)",
				"(SELECT JSON_ARRAY(ts, bl, bt, bn, yr, g) FROM kinds)",
				"CAST(ST_GeomFromText('LINESTRING(0 0, 1.5 2)') AS JSON)",
				"JSON_OBJECT('zeta', 1, 'a', JSON_ARRAY(1, JSON_OBJECT('b', NULL)), '', 'empty key', 'k\"q', TRUE)",
				"'" + "[".repeat(60) + "{\"deep\": [1, 2.5]}" + "]".repeat(60) + "'",
				"JSON_OBJECT('big', REPEAT('x', 70000), 'u', CAST(3000000000 AS UNSIGNED), 'n', -2000000000,"
						+ " 'small', CAST(70000 AS UNSIGNED),"
						+ " 'at', CAST(CAST('2001-02-03 04:05:06' AS DATETIME) AS JSON))",
				"JSON_ARRAY(REPEAT('y', 70000), TRUE, NULL, -5, CAST(4000000000 AS UNSIGNED), 1.5e0,"
						+ " CAST(CAST('-23:00:00' AS TIME) AS JSON), CAST(x'00ff' AS JSON))"));
		values.addAll(TEXT_CHANGES_IN_TARGET);
		return List.copyOf(values);
	}

	/** Rows of ids from here on are inserted while the pipeline streams. */
	private static final int STREAMED = 1_000;

	/** Rows of ids from here on are inserted before the pipeline starts and updated while it streams. */
	private static final int UPDATED = 2_000;

	@BeforeEach
	void mySqlOnly(TestDatabase db) {
		assumeFalse(db.server().isMariaDb(), "MariaDB's JSON is text, which arrives as it is");
	}

	@Test
	void theTargetHoldsTheSourcesTextAsItParsesIt(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "target");
		createTable(replication);
		try (RunningPipeline pipeline = replication.startStreaming()) {
			streamChanges(replication);
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().phase()).isEqualTo(Phase.STREAMING);
		}
		Map<Integer, String> source = texts(db, "CAST(js AS CHAR)", replication.sourceTable("t"));
		Map<Integer, String> parsed = texts(db, "CAST(CAST(CAST(js AS CHAR) AS JSON) AS CHAR)",
				replication.sourceTable("t"));
		Map<Integer, String> target = texts(db, "CAST(js AS CHAR)", replication.targetTable("t"));
		assertThat(target).as("the target's text: the source's as a JSON column parses it").isEqualTo(parsed);
		source.forEach((id, text) -> {
			if (!TEXT_CHANGES_IN_TARGET.contains(VALUES.get(id % STREAMED - 1))) {
				assertThat(target.get(id)).as("the target's text of row %d", id).isEqualTo(text);
			}
		});
	}

	@Test
	void aListenerGetsTheSourcesText(TestDatabase db) throws Exception {
		TextListener listener = new TextListener();
		Replication replication = Replication.of(db, "listener").withSettings((s) -> s.withListener(listener));
		createTable(replication);
		try (RunningPipeline pipeline = replication.startStreaming()) {
			streamChanges(replication);
			pipeline.awaitCaughtUp();
		}
		assertThat(listener.texts).isEqualTo(texts(db, "CAST(js AS CHAR)", replication.sourceTable("t")));
	}

	@Test
	void theChecksumFindsATextDifferenceAndRepairsIt(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "checksum")
			.withSettings((s) -> s.withChecksum(ChecksumSettings.DEFAULTS.withFixDifferences(true)));
		createTable(replication);
		try (RunningPipeline pipeline = replication.start()) {
			TableStatus.Checksum afterCopy = pipeline.awaitTable((table) -> table.phase() != Phase.SNAPSHOTTING
					&& table.checksum().state() == State.DONE, Duration.ofMinutes(2)).checksum();
			assertThat(afterCopy.chunksDiffering()).as("differing chunks after the snapshot").isZero();
			streamChanges(replication);
			pipeline.awaitCaughtUp();
			assertThat(pipeline.checksum("t", Duration.ofMinutes(2)).chunksDiffering())
				.as("differing chunks after streaming").isZero();

			// The text the binlog client wrote for a DATETIME scalar and for an opaque value.
			int datetime = 1 + VALUES.indexOf("CAST(CAST('2015-01-15 23:24:25' AS DATETIME) AS JSON)");
			int opaque = STREAMED + 1 + VALUES.indexOf("CAST(x'cafe' AS JSON)");
			replication.onTarget("UPDATE t SET js = '\"2015-01-15 23:24:25\"' WHERE id = " + datetime,
					"UPDATE t SET js = '\"yv4=\"' WHERE id = " + opaque);
			TableStatus.Checksum repaired = pipeline.checksum("t", Duration.ofMinutes(2));
			assertThat(repaired.chunksDiffering()).isEqualTo(1);
			assertThat(repaired.chunksRepaired()).isEqualTo(1);
			assertThat(repaired.lastError()).isNull();
			assertThat(replication.queryString("SELECT CAST(js AS CHAR) FROM " + replication.targetTable("t")
					+ " WHERE id = " + datetime)).isEqualTo("\"2015-01-15 23:24:25.000000\"");
			assertThat(pipeline.checksum("t", Duration.ofMinutes(2)).chunksDiffering()).as("after the repair")
				.isZero();
		}
	}

	/**
	 * Creates {@code t} with every value in rows copied by the snapshot (ids from 1) and in rows
	 * that will be updated while the pipeline streams (ids from {@value #UPDATED} + 1), and the
	 * table of MySQL types some values are made of.
	 */
	private static void createTable(Replication replication) {
		replication.onSource("CREATE TABLE kinds (ts TIMESTAMP(6) NULL, bl BLOB, bt BIT(10), bn BINARY(3), yr YEAR, "
				+ "g GEOMETRY)", "INSERT INTO kinds VALUES ('2024-03-01 10:00:00.5', x'cafe', b'1010101010', x'01', "
						+ "2024, ST_GeomFromText('POINT(1 2)'))",
				"CREATE TABLE t (id INT NOT NULL PRIMARY KEY, js JSON NULL)");
		replication.onSource(inserts(0));
		replication.onSource(inserts(UPDATED));
	}

	/** Inserts every value again and wraps the values of the rows to update in an array. */
	private static void streamChanges(Replication replication) {
		replication.onSource(inserts(STREAMED));
		replication.onSource("UPDATE t SET js = JSON_ARRAY(js, 'updated') WHERE id > " + UPDATED);
	}

	private static String[] inserts(int firstId) {
		String[] inserts = new String[VALUES.size()];
		for (int i = 0; i < inserts.length; i++) {
			inserts[i] = "INSERT INTO t VALUES (" + (firstId + i + 1) + ", " + VALUES.get(i) + ")";
		}
		return inserts;
	}

	/** Returns {@code expression} of every row of {@code table} (on the shared server) by id. */
	private static Map<Integer, String> texts(TestDatabase db, String expression, String table) throws SQLException {
		Map<Integer, String> texts = new TreeMap<>();
		try (Connection connection = db.dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT id, " + expression + " FROM " + table)) {
			while (rs.next()) {
				texts.put(rs.getInt(1), rs.getString(2));
			}
		}
		return texts;
	}

	/** Keeps the JSON text of each row it is given, by id. */
	private static final class TextListener implements ChangeListener {

		/** Synchronized rather than concurrent, since a JSON column can hold SQL NULL. */
		final Map<Integer, String> texts = Collections.synchronizedMap(new TreeMap<>());

		@Override
		public void onChanges(ChangeBatch batch) {
			for (Object[] row : batch.upserts()) {
				this.texts.put(((Long) row[0]).intValue(), (String) row[1]);
			}
		}

	}

}
