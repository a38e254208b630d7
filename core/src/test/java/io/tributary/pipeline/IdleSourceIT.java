package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.name.TableId;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A source nobody writes to after the pipeline starts: no transaction moves the reader, only the
 * server's heartbeats arrive. Every table must still reach streaming, its checksum finish and the
 * lag read zero within seconds, and every wait on the stream must end. The target writes with
 * {@code sql_log_bin = 0}, so the pipeline's own rows and checkpoints stay out of the source's
 * binlog, and each test checks that the binlog head did not move.
 */
@ExtendWith(DatabaseExtension.class)
class IdleSourceIT {

	/** Generous for a loaded machine; an idle source needs about one heartbeat interval. */
	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static TestDatabase db;

	private static DataSource source;

	/** Target pool whose writes are not binlogged: the source stays idle while Tributary writes. */
	private static HikariDataSource target;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
		source = database.dataSource(null);
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(database.server().jdbcUrl(null) + "&sessionVariables=sql_log_bin=0");
		config.setUsername(database.server().username());
		config.setPassword(database.server().password());
		config.setMaximumPoolSize(10);
		config.setMinimumIdle(0);
		config.setPoolName("idle-source-target");
		target = new HikariDataSource(config);
	}

	@AfterAll
	static void closeTarget() {
		target.close();
	}

	@Test
	void snapshottedTableStreamsAndItsChecksumEndsWithoutAnotherWrite() throws Exception {
		String src = sourceTable("snap", 5);
		String dst = db.schema("snap_dst");
		Position head = SourceQueries.headFileOffset(source);
		try (Pipeline pipeline = new Pipeline(settings(src, dst), source, target)) {
			pipeline.start();
			PipelineStatus status = awaitIdle(pipeline, head,
					(t) -> t.checksum().state() == TableStatus.Checksum.State.DONE);
			TableStatus table = status.tables().get(0);
			assertThat(table.rowsCopied()).isEqualTo(5);
			assertThat(table.checksum().chunksDiffering()).isZero();
			assertThat(SourceQueries.headFileOffset(source)).as("nothing written to the source").isEqualTo(head);
			TableComparison.assertEqual(source, src + ".t", source, dst + ".t");
		}
	}

	@Test
	void checksumReChecksAndRepairsADifferenceOnAnIdleSource() throws Exception {
		String src = sourceTable("recheck", 4);
		String dst = db.schema("recheck_dst");
		Position head = SourceQueries.headFileOffset(source);
		PipelineSettings settings = settings(src, dst).withChecksum(ChecksumSettings.DEFAULTS);
		try (Pipeline pipeline = new Pipeline(settings, source, target)) {
			pipeline.start();
			awaitIdle(pipeline, head, (t) -> t.checksum().state() == TableStatus.Checksum.State.DONE);
			// Damage the target behind Tributary's back, out of the source's binlog.
			try (Connection connection = target.getConnection(); Statement statement = connection.createStatement()) {
				assertThat(statement.executeUpdate("UPDATE " + dst + ".t SET v = 'damaged' WHERE id = 2")).isEqualTo(1);
			}
			// The re-check and the check after the repair each wait for the stream to pass the head.
			TableStatus.Checksum result = pipeline.checksum(new TableId(src, "t")).get(DEADLINE.toSeconds(),
					TimeUnit.SECONDS);
			assertThat(result.chunksRecheckedStillDiffering()).isEqualTo(1);
			assertThat(result.chunksRepaired()).isEqualTo(1);
			assertThat(SourceQueries.headFileOffset(source)).as("nothing written to the source").isEqualTo(head);
			TableComparison.assertEqual(source, src + ".t", source, dst + ".t");
		}
	}

	@Test
	void tableResumedFromItsCheckpointStreamsWithoutAnotherWrite() throws Exception {
		String src = sourceTable("resume", 3);
		String dst = db.schema("resume_dst");
		Position head = SourceQueries.headFileOffset(source);
		PipelineSettings settings = settings(src, dst);
		try (Pipeline first = new Pipeline(settings, source, target)) {
			first.start();
			awaitIdle(first, head, (t) -> true);
		}
		try (Pipeline second = new Pipeline(settings, source, target)) {
			second.start();
			awaitIdle(second, head, (t) -> true);
			assertThat(second.status().tables().get(0).rowsCopied()).as("rows copied after the restart").isZero();
			assertThat(SourceQueries.headFileOffset(source)).as("nothing written to the source").isEqualTo(head);
		}
	}

	@Test
	void caughtUpFlushAndFlushUnderLockReturnOnAnIdleSource() throws Exception {
		String src = sourceTable("api", 3);
		String dst = db.schema("api_dst");
		Position head = SourceQueries.headFileOffset(source);
		try (Pipeline pipeline = new Pipeline(settings(src, dst), source, target)) {
			pipeline.start();
			long started = System.nanoTime();
			pipeline.awaitCaughtUp(DEADLINE);
			assertThat(Position.parse(pipeline.status().position().confirmed())).isGreaterThanOrEqualTo(head);
			pipeline.flush(DEADLINE);
			String result = pipeline.flushUnderLock(new TableId(src, "t"), DEADLINE, () -> "locked");
			assertThat(result).isEqualTo("locked");
			pipeline.awaitCaughtUp(DEADLINE);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("all waits together").isLessThan(DEADLINE);
			assertThat(SourceQueries.headFileOffset(source)).as("nothing written to the source").isEqualTo(head);
			TableComparison.assertEqual(source, src + ".t", source, dst + ".t");
		}
	}

	@Test
	void binlogRotationOnAnIdleSourceIsFollowedToTheNewHead() throws Exception {
		String src = sourceTable("rotate", 3);
		String dst = db.schema("rotate_dst");
		try (Pipeline pipeline = new Pipeline(settings(src, dst), source, target)) {
			pipeline.start();
			awaitIdle(pipeline, SourceQueries.headFileOffset(source), (t) -> true);
			// The new file starts with events that end no transaction, so only a heartbeat reaches its head.
			db.server().execute(null, "FLUSH BINARY LOGS");
			Position rotated = SourceQueries.headFileOffset(source);
			awaitIdle(pipeline, rotated, (t) -> true);
			pipeline.awaitCaughtUp(DEADLINE);
			assertThat(Position.parse(pipeline.status().position().confirmed())).isGreaterThanOrEqualTo(rotated);
		}
	}

	@Test
	void reconnectOnAnIdleSourceReturnsToTheHead() throws Exception {
		String src = sourceTable("reconnect", 3);
		String dst = db.schema("reconnect_dst");
		Position head = SourceQueries.headFileOffset(source);
		try (Pipeline pipeline = new Pipeline(settings(src, dst), source, target)) {
			pipeline.start();
			awaitIdle(pipeline, head, (t) -> true);
			// A dump thread of an earlier test's pipeline may linger until the server notices its client left.
			await("one binlog dump thread on the server", pipeline, (status) -> replicationThreads().size() == 1);
			assertThat(killReplicationConnections()).as("replication connections killed").isEqualTo(1);
			await("the source reconnected once", pipeline,
					(status) -> status.source().reconnects() == 1 && status.source().connected());
			pipeline.awaitCaughtUp(DEADLINE);
			awaitIdle(pipeline, head, (t) -> true);
			assertThat(SourceQueries.headFileOffset(source)).as("nothing written to the source").isEqualTo(head);
		}
	}

	/** Creates {@code schema.t} with a few rows and returns the schema. */
	private static String sourceTable(String name, int rows) {
		String schema = db.schema(name + "_src");
		StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
		for (int i = 1; i <= rows; i++) {
			insert.append((i > 1) ? ", " : "").append("(").append(i).append(", 'row ").append(i).append("')");
		}
		db.server().execute(schema, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))", insert.toString());
		return schema;
	}

	/** Settings with the default heartbeat interval, which alone must keep an idle source moving. */
	private static PipelineSettings settings(String src, String dst) {
		PipelineSettings settings = Replication.of(db, "idle").settings()
			.withTables(List.of(new TableMapping(new TableId(src, "t"), new TableId(dst, "t"))));
		SourceSettings base = settings.source();
		return settings.withSource(new SourceSettings(base.host(), base.port(), base.username(), base.password(),
				base.serverId(), base.connectTimeout(), null));
	}

	/**
	 * Waits until the table streams, the lag reads zero, the delivered and confirmed positions are
	 * at or past {@code head}, and {@code also} holds.
	 */
	private static PipelineStatus awaitIdle(Pipeline pipeline, Position head, Predicate<TableStatus> also)
			throws Exception {
		return await("streaming without lag at or past " + head, pipeline, (status) -> {
			TableStatus table = status.tables().get(0);
			return table.phase() == Phase.STREAMING && status.lagMillis() == 0 && status.lagBytes() != null
					&& status.lagBytes() == 0 && atOrPast(status.position().delivered(), head)
					&& atOrPast(status.position().confirmed(), head) && also.test(table);
		});
	}

	private static boolean atOrPast(String position, Position head) {
		return position != null && Position.parse(position).compareTo(head) >= 0;
	}

	private static PipelineStatus await(String what, Pipeline pipeline, Predicate<PipelineStatus> condition)
			throws Exception {
		return Await.value(what + " on an idle source", DEADLINE, pipeline::status, condition);
	}

	private static List<Long> replicationThreads() {
		List<Long> ids = new ArrayList<>();
		try (Connection connection = source.getConnection(); Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery(
						"SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'")) {
			while (rs.next()) {
				ids.add(rs.getLong(1));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		return ids;
	}

	private static long killReplicationConnections() throws SQLException {
		List<Long> ids = replicationThreads();
		try (Connection connection = source.getConnection(); Statement statement = connection.createStatement()) {
			for (long id : ids) {
				statement.execute("KILL " + id);
			}
		}
		return ids.size();
	}

}
