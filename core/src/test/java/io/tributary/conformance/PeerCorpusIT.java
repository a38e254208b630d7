package io.tributary.conformance;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.name.TableId;
import io.tributary.pipeline.Replication;
import io.tributary.pipeline.RunningPipeline;
import io.tributary.pipeline.TableMapping;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables nobody here wrote: every file of a peer project's typed-value corpus ({@link PeerCorpus})
 * loaded into a schema of its own on a source whose time zone is {@value #SOURCE_ZONE} (the JVM's
 * is another, see the failsafe configuration), and every table replicated by one pipeline.
 *
 * <ul>
 * <li>Snapshot path: each keyed table as loaded, and a keyed copy of each keyless table (its rows
 * with a row number added as key), must arrive equal.
 * <li>Binlog path: an empty twin of each of them, replicated from the start, is filled from it, a
 * third of its keys moved and a third of its rows deleted while streaming, and must arrive equal.
 * <li>Each keyless table itself is refused alone, with the message that names the fix.
 * </ul>
 *
 * "Equal" is column by column, byte for byte as the servers render values, and for MySQL's JSON
 * also type by type, except for the scalar types that text cannot carry (documented in
 * {@code docs/correctness.md}). The run's report lists files, tables, outcomes and the statements
 * the server rejected. Without the corpus beside the project the test says so and is skipped.
 */
@ExtendWith(DatabaseExtension.class)
class PeerCorpusIT {

	private static final String SOURCE_ZONE = "+05:30";

	private static final Duration WAIT = Duration.ofMinutes(5);

	/**
	 * The JSON types a MySQL JSON target gives a value written as the source's text, where that
	 * differs from the source's type (the limits listed in {@code docs/correctness.md}).
	 */
	private static final Set<String> JSON_TYPE_LIMITS = Set.of("DATETIME->STRING", "DATE->STRING", "TIME->STRING",
			"BLOB->STRING", "BIT->STRING", "OPAQUE->STRING", "UNSIGNED INTEGER->INTEGER", "INTEGER->UNSIGNED INTEGER",
			"DECIMAL->INTEGER", "DECIMAL->UNSIGNED INTEGER", "DECIMAL->DOUBLE");

	@Test
	void everyCorpusTableArrivesEqualThroughSnapshotAndBinlog(TestDatabase db) throws Exception {
		Path folder = PeerCorpus.locate().orElse(null);
		Assumptions.assumeTrue(folder != null, "Skipped: the peer corpus is not beside this project (looked for "
				+ "../shared/peer-fixtures/debezium from the working folder up; -D" + PeerCorpus.LOCATION_PROPERTY
				+ "=<folder> names another place)");
		CorpusReport report = new CorpusReport(db.server().isMariaDb() ? "mariadb" : "mysql");
		DataSource pool = db.server().dataSource(null);
		String zoneBefore = queryString(pool, "SELECT @@GLOBAL.time_zone");
		db.server().execute(null, "SET GLOBAL time_zone = '" + SOURCE_ZONE + "'");
		try {
			replicate(db, pool, folder, report);
		}
		finally {
			db.server().execute(null, "SET GLOBAL time_zone = '" + zoneBefore + "'");
			report.publish();
		}
		assertThat(report.lines()).as("tables compared").isNotEmpty();
		assertThat(report.failures()).as("tables that differ; the report above lists every table").isEmpty();
	}

	private void replicate(TestDatabase db, DataSource pool, Path folder, CorpusReport report) throws Exception {
		List<Subject> subjects = new ArrayList<>();
		try (Connection connection = unpooled(db)) {
			for (Path file : PeerCorpus.files(folder)) {
				subjects.addAll(load(connection, file, report));
			}
		}
		Replication replication = Replication.of(db, "corpus");
		List<TableMapping> mappings = subjects.stream().flatMap((subject) -> subject.mappings().stream()).toList();
		replication = replication.withSettings((s) -> s.withTables(mappings));
		try (RunningPipeline pipeline = replication.start()) {
			Map<String, TableStatus> settled = byName(pipeline.awaitStatus("every table streaming or refused",
					(status) -> status.tables().stream()
						.allMatch((t) -> t.phase() == Phase.STREAMING || t.phase() == Phase.FAILED),
					WAIT));
			for (Subject subject : subjects) {
				subject.checkSnapshot(pool, settled, report);
			}
			try (Connection connection = unpooled(db)) {
				for (Subject subject : subjects) {
					subject.writeTwin(connection);
				}
			}
			pipeline.awaitCaughtUp(WAIT);
			Map<String, TableStatus> streamed = byName(pipeline.status());
			for (Subject subject : subjects) {
				subject.checkBinlog(pool, streamed, report);
			}
		}
	}

	/** Loads one file into a new schema; returns its tables with the twins made for them. */
	private static List<Subject> load(Connection connection, Path file, CorpusReport report) throws SQLException {
		String stem = PeerCorpus.stem(file);
		String schema = "pc_" + stem;
		String target = schema + "_t";
		String charset = PeerCorpus.schemaCharset(stem);
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET SESSION time_zone = '" + SOURCE_ZONE + "'");
			// No checks beyond the files' own (some set theirs): their zero dates and zero defaults load.
			statement.execute("SET SESSION sql_mode = ''");
			statement.execute("DROP DATABASE IF EXISTS " + TableId.quote(schema));
			statement.execute("DROP DATABASE IF EXISTS " + TableId.quote(target));
			statement.execute("CREATE DATABASE " + TableId.quote(schema)
					+ ((charset != null) ? " DEFAULT CHARACTER SET " + charset : ""));
			statement.execute("USE " + TableId.quote(schema));
			for (String sql : PeerCorpus.statements(file)) {
				try {
					statement.execute(sql);
				}
				catch (SQLException ex) {
					report.skipped(stem, sql, ex.getErrorCode() + " " + ex.getMessage());
				}
			}
		}
		List<Subject> subjects = new ArrayList<>();
		for (String name : CorpusTable.namesIn(connection, schema)) {
			CorpusTable table = CorpusTable.read(connection, stem, new TableId(schema, name));
			subjects.add(Subject.prepare(connection, table, target, report));
		}
		return subjects;
	}

	/**
	 * Opens a connection of its own for the loads and writes, whose session settings (SQL mode,
	 * time zone, default schema) must not stay on a pooled connection that other tests reuse.
	 */
	private static Connection unpooled(TestDatabase db) throws SQLException {
		return DriverManager.getConnection(db.server().jdbcUrl(null), db.server().username(), db.server().password());
	}

	private static Map<String, TableStatus> byName(PipelineStatus status) {
		return status.tables().stream().collect(Collectors.toMap(TableStatus::name, Function.identity()));
	}

	static String queryString(DataSource pool, String sql) throws SQLException {
		try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(sql)) {
			rs.next();
			return rs.getString(1);
		}
	}

	/**
	 * One corpus table and what replicates it: itself, or for a keyless table a keyed copy, over
	 * the snapshot, and an empty twin of that over the binlog.
	 *
	 * @param table the corpus table
	 * @param copied the keyed table whose rows travel by snapshot: the table, or its keyed copy
	 * @param twin the empty twin filled while streaming, or {@code null} when it could not be made
	 * @param target the target schema
	 * @param note why something could not be prepared, or {@code null}
	 */
	record Subject(CorpusTable table, CorpusTable copied, CorpusTable twin, String target, String[] note) {

		static Subject prepare(Connection connection, CorpusTable table, String target, CorpusReport report)
				throws SQLException {
			CorpusTable copied = table;
			try (Statement statement = connection.createStatement()) {
				if (!table.keyed()) {
					TableId keyed = table.in(table.id().schema(), "_k");
					statement.execute("CREATE TABLE " + keyed.quoted() + " LIKE " + table.id().quoted());
					statement.execute("ALTER TABLE " + keyed.quoted()
							+ " ADD COLUMN tributary_row BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST");
					copied = CorpusTable.read(connection, table.file(), keyed);
					TwinWrites.fill(connection, table, keyed);
				}
				TableId twin = table.in(table.id().schema(), "_tw");
				statement.execute("CREATE TABLE " + twin.quoted() + " LIKE " + copied.id().quoted());
				return new Subject(table, copied, CorpusTable.read(connection, table.file(), twin), target,
						new String[1]);
			}
			catch (SQLException ex) {
				report.add(table.file(), table.id().table(), "prepare", 0, false, "could not be prepared: "
						+ ex.getMessage());
				return new Subject(table, copied, null, target, new String[] { ex.getMessage() });
			}
		}

		List<TableMapping> mappings() {
			List<TableMapping> mappings = new ArrayList<>();
			mappings.add(mapping(this.table));
			if (this.copied != this.table) {
				mappings.add(mapping(this.copied));
			}
			if (this.twin != null) {
				mappings.add(mapping(this.twin));
			}
			return mappings;
		}

		private TableMapping mapping(CorpusTable each) {
			return new TableMapping(each.id(), each.in(this.target, ""));
		}

		void checkSnapshot(DataSource pool, Map<String, TableStatus> statuses, CorpusReport report) throws SQLException {
			String file = this.table.file();
			if (!this.table.keyed()) {
				TableStatus refused = statuses.get(this.table.id().toString());
				boolean ok = refused.phase() == Phase.FAILED && refused.lastError() != null
						&& refused.lastError().contains("has no primary key");
				report.add(file, this.table.id().table(), "refused", 0, ok, refused.phase() + ": "
						+ refused.lastError());
			}
			if (this.copied.keyed()) {
				compare(pool, this.copied, statuses, "snapshot", report);
			}
		}

		void writeTwin(Connection connection) {
			if (this.twin == null) {
				return;
			}
			try {
				// A multi-table DELETE by alias needs a default schema on MariaDB.
				connection.setCatalog(this.twin.id().schema());
				this.note[0] = "filled " + TwinWrites.fill(connection, this.copied, this.twin.id()) + ", "
						+ TwinWrites.moveKeys(connection, this.twin, this.twin.id()) + ", deleted "
						+ TwinWrites.deleteThird(connection, this.twin, this.twin.id());
			}
			catch (SQLException ex) {
				this.note[0] = "writes stopped: " + ex.getMessage();
			}
		}

		void checkBinlog(DataSource pool, Map<String, TableStatus> statuses, CorpusReport report) throws SQLException {
			if (this.twin != null) {
				compare(pool, this.twin, statuses, "binlog", report);
			}
		}

		private void compare(DataSource pool, CorpusTable each, Map<String, TableStatus> statuses, String path,
				CorpusReport report) throws SQLException {
			String name = each.id().table();
			TableStatus status = statuses.get(each.id().toString());
			if (status == null || status.phase() != Phase.STREAMING) {
				report.add(this.table.file(), name, path, 0, false, "not streaming: "
						+ ((status != null) ? status.phase() + ", " + status.lastError() : "no status"));
				return;
			}
			TableId target = each.in(this.target, "");
			TableComparison.Result result;
			try {
				result = TableComparison.compare(pool, each.id().quoted(), pool, target.quoted());
			}
			catch (RuntimeException ex) {
				report.add(this.table.file(), name, path, 0, false, "cannot compare: " + ex.getMessage());
				return;
			}
			List<String> outcome = new ArrayList<>();
			outcome.add(result.equal() ? "equal" : result.toString());
			String types = jsonTypes(pool, each, target);
			boolean typesOk = !types.startsWith("JSON types differ");
			if (!types.isEmpty()) {
				outcome.add(types);
			}
			boolean written = true;
			if (path.equals("binlog") && this.note[0] != null) {
				outcome.add(this.note[0]);
				written = !this.note[0].startsWith("writes stopped");
			}
			report.add(this.table.file(), name, path, result.leftRows(), result.equal() && typesOk && written,
					String.join("; ", outcome));
		}

		/**
		 * Compares the JSON type of every MySQL JSON value of the two tables, row by row in key
		 * order; returns what differs within the documented limits, or {@code JSON types differ...}.
		 */
		private static String jsonTypes(DataSource pool, CorpusTable each, TableId target) throws SQLException {
			Map<String, Integer> limits = new TreeMap<>();
			List<String> wrong = new ArrayList<>();
			for (String column : each.jsonColumns()) {
				List<String> source = types(pool, each.id(), column, each.keyList());
				List<String> copy = types(pool, target, column, each.keyList());
				for (int i = 0; i < Math.min(source.size(), copy.size()); i++) {
					String from = source.get(i);
					String to = copy.get(i);
					if (from.equals(to)) {
						continue;
					}
					if (JSON_TYPE_LIMITS.contains(from + "->" + to)) {
						limits.merge(from + "->" + to, 1, Integer::sum);
					}
					else {
						wrong.add(column + " row " + (i + 1) + ": " + from + " became " + to);
					}
				}
			}
			if (!wrong.isEmpty()) {
				return "JSON types differ: " + wrong;
			}
			return limits.isEmpty() ? "" : "JSON type limits " + limits;
		}

		private static List<String> types(DataSource pool, TableId table, String column, String keys)
				throws SQLException {
			List<String> types = new ArrayList<>();
			try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
					ResultSet rs = statement.executeQuery("SELECT IFNULL(JSON_TYPE(" + TableId.quote(column)
							+ "), 'SQL NULL') FROM " + table.quoted() + " ORDER BY " + keys)) {
				while (rs.next()) {
					types.add(rs.getString(1));
				}
			}
			return types;
		}

	}

}
