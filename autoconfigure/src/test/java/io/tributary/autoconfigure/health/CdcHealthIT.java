package io.tributary.autoconfigure.health;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static io.tributary.autoconfigure.health.CdcHealthIndicatorTest.pipelineDetails;
import static io.tributary.autoconfigure.health.CdcHealthIndicatorTest.tableDetails;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code cdc} health through real transitions of a pipeline on the test server: reported
 * while a copy is held, UP once streaming, DOWN when a table fails and UP again once it is copied
 * again, DOWN only after the source has been out of reach for {@code cdc.health.source-down-after}
 * and UP once it is back, and DOWN for a pipeline that cannot start.
 */
@ExtendWith(DatabaseExtension.class)
class CdcHealthIT {

	private static final Duration WAIT = Duration.ofMinutes(2);

	private static final Duration SOURCE_DOWN_AFTER = Duration.ofSeconds(2);

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
	}

	private static ApplicationContextRunner runner(String source, String target, String host, int port) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, CdcHealthAutoConfiguration.class))
			.withPropertyValues("cdc.source.host=" + host, "cdc.source.port=" + port,
					"cdc.source.username=" + db.server().username(), "cdc.source.password=" + db.server().password(),
					"cdc.target.url=" + db.jdbcUrl(target), "cdc.target.username=" + db.server().username(),
					"cdc.target.password=" + db.server().password(), "cdc.tables[0].source=" + source + ".a",
					"cdc.tables[1].source=" + source + ".b", "cdc.flush.interval=100ms",
					// Observable: a copy under way is not UP.
					"cdc.health.snapshotting-status=OUT_OF_SERVICE",
					"cdc.health.source-down-after=" + SOURCE_DOWN_AFTER.toMillis() + "ms");
	}

	@Test
	void followsThePipelineFromItsCopyThroughAFailedTableAndALostSource() throws Exception {
		String src = db.schema("src");
		String dst = db.schema("dst");
		db.server().execute(src, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO a VALUES (1, 'a'), (2, 'b'), (3, 'c')", "CREATE TABLE b (id INT PRIMARY KEY, v VARCHAR(20))",
				"INSERT INTO b VALUES (1, 'a')");
		String a = src + ".a";
		String b = src + ".b";
		try (TcpForwarder source = TcpForwarder.to(db.server().host(), db.server().port());
				Connection writer = db.dataSource(src).getConnection()) {
			// A writer that has not committed holds the copy of a: its chunk reads are locking reads.
			writer.setAutoCommit(false);
			try (Statement statement = writer.createStatement()) {
				statement.executeUpdate("UPDATE a SET v = 'held' WHERE id = 2");
			}
			runner(src, dst, "127.0.0.1", source.port()).run((context) -> {
				CdcHealthIndicator indicator = context.getBean(CdcHealthIndicator.class);
				Pipeline pipeline = context.getBean(Pipeline.class);

				Health copying = await(indicator, "a snapshotting",
						(health) -> "SNAPSHOTTING".equals(tableDetails(health, "default", a).get("phase")));
				assertThat(copying.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
				assertThat(tableDetails(copying, "default", a)).containsEntry("status", "OUT_OF_SERVICE");

				writer.commit();
				Health streaming = await(indicator, "UP once streaming", (health) -> Status.UP.equals(health.getStatus()));
				assertThat(tableDetails(streaming, "default", a)).containsEntry("phase", "STREAMING");
				assertThat(tableDetails(streaming, "default", b)).containsEntry("phase", "STREAMING");

				// A missing target fails the table at its next change.
				db.server().execute(dst, "DROP TABLE b");
				db.server().execute(src, "INSERT INTO b VALUES (2, 'b')");
				Health failed = await(indicator, "DOWN once b failed", (health) -> Status.DOWN.equals(health.getStatus()));
				assertThat(tableDetails(failed, "default", b)).containsEntry("status", "DOWN")
					.containsEntry("phase", "FAILED");
				assertThat((String) tableDetails(failed, "default", b).get("lastError")).contains("target table is missing");
				assertThat(tableDetails(failed, "default", a)).containsEntry("status", "UP");

				pipeline.resnapshot(new TableId(src, "b"));
				await(indicator, "UP once b is copied again", (health) -> Status.UP.equals(health.getStatus()));

				source.cut();
				Health lost = awaitSourceDown(indicator);
				assertThat((String) pipelineDetails(lost, "default").get("reason")).contains("out of reach");

				source.open();
				Health back = await(indicator, "UP once the source is back",
						(health) -> Status.UP.equals(health.getStatus())
								&& Boolean.TRUE.equals(pipelineDetails(health, "default").get("connected")));
				assertThat(pipelineDetails(back, "default")).doesNotContainKey("disconnectedSince");
			});
		}
	}

	@Test
	void aPipelineThatCannotLogInIsDownOnceTheThresholdHasPassed() throws Exception {
		String src = db.schema("denied");
		db.server().execute(src, "CREATE TABLE a (id INT PRIMARY KEY)", "CREATE TABLE b (id INT PRIMARY KEY)");
		runner(src, src, db.server().host(), db.server().port())
			.withPropertyValues("cdc.source.password=certainly-wrong")
			.run((context) -> {
				CdcHealthIndicator indicator = context.getBean(CdcHealthIndicator.class);
				Health down = await(indicator, "DOWN", (health) -> Status.DOWN.equals(health.getStatus()));
				Map<String, Object> pipeline = pipelineDetails(down, "default");
				assertThat(pipeline).containsEntry("state", "STARTING");
				assertThat((String) pipeline.get("lastError")).contains("Access denied");
				assertThat(Duration.between(Instant.parse((String) pipeline.get("disconnectedSince")), Instant.now()))
					.isGreaterThan(SOURCE_DOWN_AFTER);
				assertThat(down.toString()).doesNotContain("certainly-wrong");
			});
	}

	/**
	 * Samples the health until it is DOWN, checking at every sample that it is DOWN exactly when
	 * the source has been out of reach for longer than the threshold.
	 */
	private static Health awaitSourceDown(CdcHealthIndicator indicator) throws Exception {
		return Await.value("DOWN once the source has been out of reach for " + SOURCE_DOWN_AFTER, WAIT, () -> {
			Instant before = Instant.now();
			Health health = indicator.health();
			Instant after = Instant.now();
			Map<String, Object> pipeline = pipelineDetails(health, "default");
			Object since = pipeline.get("disconnectedSince");
			if (since == null) {
				assertThat(health.getStatus()).as("%s", health).isEqualTo(Status.UP);
				return health;
			}
			Instant disconnected = Instant.parse((String) since);
			if (Duration.between(disconnected, before).compareTo(SOURCE_DOWN_AFTER) > 0) {
				assertThat(health.getStatus()).as("beyond the threshold: %s", health).isEqualTo(Status.DOWN);
			}
			if (Duration.between(disconnected, after).compareTo(SOURCE_DOWN_AFTER) <= 0) {
				assertThat(health.getStatus()).as("within the threshold: %s", health).isEqualTo(Status.UP);
			}
			return health;
		}, (health) -> Status.DOWN.equals(health.getStatus()));
	}

	private static Health await(CdcHealthIndicator indicator, String what,
			Predicate<Health> wanted) throws Exception {
		return Await.value(what, WAIT, indicator::health, wanted);
	}

}
