package io.tributary.autoconfigure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing the application context stops the pipeline gracefully: what it buffered is applied, the
 * checkpoint is the position it last applied, and none of its threads is left.
 */
@ExtendWith(DatabaseExtension.class)
class GracefulShutdownIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
	}

	@Test
	void closingTheContextAppliesWhatIsBufferedWritesTheCheckpointAndLeavesNoThread() throws Exception {
		String src = db.schema("src");
		String dst = db.schema("dst");
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
		AtomicReference<Pipeline> stopped = new AtomicReference<>();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.host=" + db.server().host(), "cdc.source.port=" + db.server().port(),
					"cdc.source.username=" + db.server().username(), "cdc.source.password=" + db.server().password(),
					"cdc.target.url=" + db.jdbcUrl(dst), "cdc.target.username=" + db.server().username(),
					"cdc.target.password=" + db.server().password(), "cdc.tables[0].source=" + src + ".t",
					// No flush but the last (no early ones either): the stop itself must apply what is buffered. The checksum
					// after the snapshot would drive cycles of its own.
					"cdc.flush.interval=1h", "cdc.flush.when-idle=false", "cdc.flush.max-changes=1000000",
					"cdc.checksum.enabled=false",
					"spring.lifecycle.timeout-per-shutdown-phase=20s")
			.run((context) -> {
				Pipeline pipeline = context.getBean(Pipeline.class);
				stopped.set(pipeline);
				await("the table catching up or streaming", pipeline,
						(t) -> t.phase() == Phase.CATCHING_UP || t.phase() == Phase.STREAMING);
				db.server().execute(src, "INSERT INTO t VALUES (4, 'd'), (5, 'e')", "UPDATE t SET v = 'z' WHERE id = 1",
						"DELETE FROM t WHERE id = 2");
				await("the four changed keys buffered", pipeline, (t) -> t.bufferedKeys() == 4);
			});
		Pipeline pipeline = stopped.get();
		PipelineStatus status = pipeline.status();
		assertThat(status.state()).isEqualTo(PipelineStatus.State.STOPPED);
		DataSource pool = db.dataSource(null);
		TableComparison.assertEqual(pool, src + ".t", pool, dst + ".t");
		assertThat(checkpoint(pool, dst, src + ".t")).isEqualTo(status.tables().get(0).confirmedPosition())
			.isEqualTo(status.position().delivered());
		// Pool threads may take a moment to end.
		Await.value("no thread of the pipeline left", Duration.ofSeconds(10), GracefulShutdownIT::tributaryThreads,
				List::isEmpty);
	}

	private static String checkpoint(DataSource pool, String schema, String table) throws Exception {
		try (Connection connection = pool.getConnection();
				PreparedStatement query = connection.prepareStatement(
						"SELECT binlog_position FROM " + schema + ".tributary_checkpoint WHERE source_table = ?")) {
			query.setString(1, table);
			try (ResultSet rs = query.executeQuery()) {
				assertThat(rs.next()).as("checkpoint row of %s", table).isTrue();
				return rs.getString(1);
			}
		}
	}

	/** Threads of the pipeline and its pools still alive (the test database's own pools excepted). */
	private static List<String> tributaryThreads() {
		return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("tributary") && !name.startsWith("tributary-test"))
			.toList();
	}

	/** Waits for the pipeline's only table to meet {@code condition}; a failure shows the last status. */
	private static void await(String what, Pipeline pipeline, Predicate<TableStatus> condition) throws Exception {
		Await.value(what, Duration.ofMinutes(1), pipeline::status, (status) -> condition.test(status.tables().get(0)));
	}

}
