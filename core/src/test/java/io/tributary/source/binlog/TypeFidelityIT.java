package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.TimeZone;

import javax.sql.DataSource;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.TargetDriverProperties;
import io.tributary.pipeline.Replication;
import io.tributary.pipeline.RunningPipeline;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Edge values of every column type travel through the snapshot and through the binlog and arrive
 * exactly as the source's SELECT returns them. The JVM runs in a time zone far from UTC (see the
 * failsafe configuration), so a value converted through the JVM zone would show.
 */
@ExtendWith(DatabaseExtension.class)
class TypeFidelityIT {

	private static final String COLUMNS = """
			id INT NOT NULL PRIMARY KEY,
			ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, siu SMALLINT UNSIGNED, mi MEDIUMINT,
			miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT, biu BIGINT UNSIGNED,
			d DECIMAL(65,30), d2 DECIMAL(10,2), f FLOAT, db DOUBLE, b1 BIT(1), b64 BIT(64),
			c CHAR(10), vc VARCHAR(100), tx TEXT, l1 VARCHAR(20) CHARACTER SET latin1,
			bn BINARY(4), vb VARBINARY(10), bl BLOB, e ENUM('small','medium','large'), st SET('x','y','z'),
			dt DATE, tm TIME, tm6 TIME(6), dt0 DATETIME, dt3 DATETIME(3), dt6 DATETIME(6),
			ts0 TIMESTAMP NULL DEFAULT NULL, ts6 TIMESTAMP(6) NULL DEFAULT NULL, yr YEAR, js JSON,
			dt1 DATETIME(1), dt2 DATETIME(2), dt4 DATETIME(4), dt5 DATETIME(5), ts1 TIMESTAMP(1) NULL DEFAULT NULL,
			ts2 TIMESTAMP(2) NULL DEFAULT NULL, ts3 TIMESTAMP(3) NULL DEFAULT NULL, ts4 TIMESTAMP(4) NULL DEFAULT NULL,
			ts5 TIMESTAMP(5) NULL DEFAULT NULL, tm1 TIME(1), tm3 TIME(3), g GEOMETRY NULL""";

	/** Values of the fractional-second and geometry columns, appended to every row. */
	private static final String FRACTIONS = ", '2024-01-01 00:00:00.1', '2024-01-01 00:00:00.12', "
			+ "'2024-01-01 00:00:00.1234', '2024-01-01 00:00:00.12345', '2001-02-03 04:05:06.7', "
			+ "'2001-02-03 04:05:06.78', '2001-02-03 04:05:06.789', '2001-02-03 04:05:06.7891', "
			+ "'2001-02-03 04:05:06.78912', '-00:00:00.5', '-838:59:58.999', ST_GeomFromText('POLYGON((0 0, 1 0, 1 1, 0 0))'))";

	private static final List<String> ROWS = List.of(
			// Minimums, negatives, zero dates.
			"(%d, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0, "
					+ "-99999999999999999999999999999999999.999999999999999999999999999999, -12345678.91, "
					+ "-3.40282e38, -1.7976931348623157e308, b'0', b'0', '', '', '', '', x'00', x'', x'', 'small', '', "
					+ "'0000-00-00', '-838:59:59', '-00:00:01.000001', '0000-00-00 00:00:00', '1000-01-01 00:00:00.001', "
					+ "'0000-00-00 00:00:00.000000', '1970-01-01 00:00:01', '1970-01-01 00:00:01.000001', 1901, '[]')",
			// Maximums and multi-byte text.
			"(%d, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807, "
					+ "18446744073709551615, 99999999999999999999999999999999999.999999999999999999999999999999, "
					+ "12345678.91, 3.40282e38, 1.7976931348623157e308, b'1', "
					+ "b'1111111111111111111111111111111111111111111111111111111111111111', "
					+ "'abc', 'emoji \uD83D\uDE00 \u00fc\u00df \u65e5\u672c', REPEAT('long text ', 300), "
					+ "'caf\u00e9 \u00e0 la cr\u00e8me', "
					+ "x'DEADBEEF', x'00FF00FF', x'0102030405', 'large', 'x,y,z', '9999-12-31', '838:59:59', "
					+ "'12:34:56.789012', '9999-12-31 23:59:59', '9999-12-31 23:59:59.999', '9999-12-31 23:59:59.999999', "
					+ "'2038-01-19 03:14:07', '2038-01-19 03:14:07.999999', 2155, "
					+ "'{\"a\": [1, 2.5, \"x\", null, true, false], \"b\": {\"c\": \"\u00fc\", \"n\": -0.5e-3}}')",
			// Ordinary values and NULLs.
			"(%d, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 0.000000000000000000000000000001, 0.01, 0.33333334, 0.1, NULL, b'101', "
					+ "'pad  ', 'trailing  ', NULL, NULL, x'01', NULL, NULL, NULL, 'y', '2024-02-29', '00:00:00', "
					+ "'-12:00:00.5', '2024-02-29 12:00:00', NULL, '2024-03-31 02:30:00.123456', "
					+ "'2024-03-31 01:30:00', '2024-10-27 01:30:00.5', 0, NULL)");

	@Test
	void everyTypeArrivesExactlyThroughSnapshotAndBinlog(TestDatabase db) throws Exception {
		replicateEveryType(Replication.of(db, "types"), null);
	}

	/**
	 * The same through server-side prepared statements where Tributary would use them
	 * ({@code cdc.target.server-side-statements}): a statement executed again with other values
	 * must write them as exactly (an unsigned BIGINT above the signed range, a latin1 value after
	 * a row with other types). Only full-size statements are prepared on the server, so every
	 * statement here takes one row.
	 */
	@Test
	void everyTypeArrivesExactlyThroughServerSideStatements(TestDatabase db) throws Exception {
		String version;
		try (Connection connection = db.dataSource(null).getConnection()) {
			version = connection.getMetaData().getDatabaseProductVersion();
		}
		replicateEveryType(Replication.of(db, "types_ss").withSettings((s) -> s.withBatchRows(1)),
				db.server().dataSource(null, TargetDriverProperties.forServer(version)));
	}

	/**
	 * The same with the snapshot's chunk streamed with {@code LOAD DATA LOCAL INFILE}
	 * ({@code cdc.target.load-data}), whose text format must carry every type as exactly as a
	 * statement's values: the load must have run and been kept, neither refused nor rolled back
	 * for a warning (either would leave the chunk to statements and be logged).
	 */
	@Test
	void everyTypeArrivesExactlyThroughStreamedSnapshotLoads(TestDatabase db) throws Exception {
		boolean localInfileBefore = globalValue(db, "SELECT 'local_infile', @@GLOBAL.local_infile") == 1;
		Logger logger = (Logger) LoggerFactory.getLogger(JdbcReplaceApplier.class);
		Level levelBefore = logger.getLevel();
		ListAppender<ILoggingEvent> events = new ListAppender<>();
		events.start();
		logger.addAppender(events);
		logger.setLevel(Level.DEBUG);
		db.server().execute(null, "SET GLOBAL local_infile = ON");
		long loadsBefore = globalValue(db, "SHOW GLOBAL STATUS LIKE 'Com_load'");
		try {
			replicateEveryType(Replication.of(db, "types_load"),
					db.server().dataSource(null, TargetDriverProperties.streamedLoads()));
		}
		finally {
			db.server().execute(null, "SET GLOBAL local_infile = " + (localInfileBefore ? "ON" : "OFF"));
			logger.detachAppender(events);
			logger.setLevel(levelBefore);
		}
		assertThat(globalValue(db, "SHOW GLOBAL STATUS LIKE 'Com_load'") - loadsBefore).as("loads").isPositive();
		assertThat(events.list).extracting(ILoggingEvent::getFormattedMessage)
			.noneMatch((message) -> message.startsWith("Loading") || message.startsWith("The target refuses"));
	}

	/** The number in the second column of the one row {@code sql} returns. */
	private static long globalValue(TestDatabase db, String sql) throws SQLException {
		try (Connection connection = db.dataSource(null).getConnection();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			assertThat(rs.next()).as(sql).isTrue();
			return rs.getLong(2);
		}
	}

	/**
	 * Why a MySQL target keeps client-side statements: there, the second execution of a server-side
	 * single-row REPLACE fails on a valid latin1 value (error 3988) that a client-side one writes.
	 * Each row is its own transaction and is applied before the next, so every apply executes the
	 * same statement text again, and takes one row, the full size, so that it is prepared as the
	 * pool prepares. Through the pool Tributary would build for this server the rows arrive exactly;
	 * on MySQL, through server-side statements the same sequence fails (on almost every run).
	 */
	@Test
	void rowsAppliedOneAtATimeArriveThroughTheStatementsChosenForTheServer(TestDatabase db) throws Exception {
		String version;
		try (Connection connection = db.dataSource(null).getConnection()) {
			version = connection.getMetaData().getDatabaseProductVersion();
		}
		Replication chosen = Replication.of(db, "types_one").withSettings((s) -> s.withBatchRows(1));
		chosen.onSource("CREATE TABLE t (" + COLUMNS + ") DEFAULT CHARSET = utf8mb4");
		try (RunningPipeline pipeline = chosen.start(
				db.server().dataSource(null, TargetDriverProperties.forServer(version)), (p) -> {
				})) {
			pipeline.awaitPhase(Phase.STREAMING, Replication.WAIT);
			for (int i = 0; i < ROWS.size(); i++) {
				chosen.onSource(insertOne(1 + i, i));
				pipeline.awaitCaughtUp();
				assertThat(pipeline.table().lastError()).isNull();
			}
			chosen.assertEqual("t");
		}
		if (db.server().isMariaDb()) {
			return;
		}
		Replication forced = Replication.of(db, "types_forced").withSettings((s) -> s.withBatchRows(1));
		forced.onSource("CREATE TABLE t (" + COLUMNS + ") DEFAULT CHARSET = utf8mb4");
		try (RunningPipeline pipeline = forced.start(
				db.server().dataSource(null, TargetDriverProperties.serverSide()), (p) -> {
				})) {
			pipeline.awaitPhase(Phase.STREAMING, Replication.WAIT);
			forced.onSource(insertOne(1, 0));
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().lastError()).isNull();
			// The server does not refuse on every run (once in many it wrote every row); when it
			// refuses, the refusal is this one.
			for (int i = 1; i < ROWS.size(); i++) {
				long applied = pipeline.table().changesApplied();
				forced.onSource(insertOne(1 + i, i));
				TableStatus settled = pipeline
					.awaitTable((table) -> table.lastError() != null || table.changesApplied() > applied);
				if (settled.lastError() != null) {
					assertThat(settled.lastError()).contains("impossible for parameter");
					return;
				}
			}
			forced.assertEqual("t");
		}
	}

	private static void replicateEveryType(Replication replication, DataSource target) throws Exception {
		assertThat(TimeZone.getDefault().getRawOffset()).as("JVM time zone offset").isNotZero();
		replication.onSource("CREATE TABLE t (" + COLUMNS + ") DEFAULT CHARSET = utf8mb4");
		replication.onSource(insert(1));
		try (RunningPipeline pipeline = (target == null) ? replication.startStreaming()
				: replication.start(target, (p) -> {
				})) {
			pipeline.awaitPhase(Phase.STREAMING, Replication.WAIT);
			// The same values again, now through the binlog, then updated in place.
			replication.onSource(insert(11));
			replication.onSource("UPDATE t SET id = id + 100 WHERE id = 13",
					"UPDATE t SET vc = CONCAT(vc, '!') WHERE id = 12");
			// Rows with every type deleted in one event: of a before-image only the key is decoded and
			// the other cells are read past, so a misread length would shift the next row's key.
			replication.onSource(insert(21));
			replication.onSource("DELETE FROM t WHERE id BETWEEN 21 AND 23");
			pipeline.awaitCaughtUp();
			assertThat(pipeline.table().lastError()).isNull();
			replication.assertEqual("t");
			// The checksum compares stored values, finer than the rendered text compared above
			// (a FLOAT renders with six digits on MariaDB), and must find every type equal.
			TableStatus.Checksum checksum = pipeline.checksum("t", Duration.ofMinutes(1));
			assertThat(checksum.rowsChecked()).isEqualTo(6);
			assertThat(checksum.chunksDiffering()).as("%s", checksum).isZero();
		}
	}

	/** Statements inserting row {@code index} of {@link #ROWS} with id {@code id}. */
	private static String[] insertOne(int id, int index) {
		return new String[] { "SET SESSION sql_mode = '', time_zone = '+00:00'", insertRow(id, index),
				"SET SESSION sql_mode = DEFAULT, time_zone = DEFAULT" };
	}

	/** Statements inserting the rows of {@link #ROWS} from id {@code firstId} on. */
	private static String[] insert(int firstId) {
		String[] statements = new String[ROWS.size() + 2];
		// Zero dates and the extreme TIME values need a permissive SQL mode.
		statements[0] = "SET SESSION sql_mode = '', time_zone = '+00:00'";
		for (int i = 0; i < ROWS.size(); i++) {
			statements[i + 1] = insertRow(firstId + i, i);
		}
		statements[ROWS.size() + 1] = "SET SESSION sql_mode = DEFAULT, time_zone = DEFAULT";
		return statements;
	}

	private static String insertRow(int id, int index) {
		String row = ROWS.get(index).formatted(id);
		return "INSERT INTO t VALUES " + row.substring(0, row.length() - 1) + FRACTIONS;
	}

}
