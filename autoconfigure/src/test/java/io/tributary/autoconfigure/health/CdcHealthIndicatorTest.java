package io.tributary.autoconfigure.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.health.actuate.endpoint.SimpleStatusAggregator;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.tributary.autoconfigure.TributaryProperties;
import io.tributary.status.PipelineStatus;
import io.tributary.status.PipelineStatus.State;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code cdc} health judged from hand-built pipeline statuses, at a fixed time, with the
 * default thresholds (max lag 30s, source down after 60s) unless a test sets others.
 */
class CdcHealthIndicatorTest {

	private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	private final TributaryProperties.Health settings = new TributaryProperties.Health();

	private StatusAggregator statusOrder = StatusAggregator.getDefault();

	@Test
	void everyTableStreamingUnderTheMaxLagIsUp() {
		Health health = health(running(29_999, table("a", Phase.STREAMING), table("b", Phase.STREAMING)));
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(tableDetails(health, "main", "shop.a")).containsEntry("status", "UP")
			.containsEntry("phase", "STREAMING").doesNotContainKey("reason");
		assertThat(pipelineDetails(health, "main")).containsEntry("state", "RUNNING").containsEntry("lagMillis", 29_999L)
			.containsEntry("connected", true).containsEntry("source", "db:3306").doesNotContainKey("disconnectedSince");
	}

	@Test
	void aStreamingTableWhoseLastFlushFailedIsOutOfService() {
		TableStatus failing = TableStatus.builder("shop.a", "dst.a", Phase.STREAMING)
			.lastFlush(new TableStatus.Flush(NOW, 0, 3, "Upserting 1 rows failed: no rows here"))
			.lastError("Upserting 1 rows failed: no rows here")
			.build();
		Health health = health(running(0, failing, table("b", Phase.STREAMING)));
		assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
		assertThat(tableDetails(health, "main", "shop.a")).containsEntry("status", "OUT_OF_SERVICE")
			.containsEntry("reason", "Its last flush failed and is retried; see lastError")
			.containsEntry("lastError", "Upserting 1 rows failed: no rows here");
		assertThat(tableDetails(health, "main", "shop.b")).containsEntry("status", "UP");

		// A restart or resnapshot clears the error: the table is up again before its next flush.
		TableStatus setUpAgain = failing.toBuilder().lastError(null).build();
		assertThat(health(running(0, setUpAgain)).getStatus()).isEqualTo(Status.UP);
	}

	@Test
	void aStreamingTableLaggingMoreThanTheMaxIsOutOfServiceNotDown() {
		this.settings.setMaxLag(Duration.ofSeconds(10));
		assertThat(health(running(10_000, table("a", Phase.STREAMING))).getStatus()).isEqualTo(Status.UP);
		Health lagging = health(running(45_000, table("a", Phase.STREAMING)));
		assertThat(lagging.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
		assertThat(tableDetails(lagging, "main", "shop.a")).containsEntry("status", "OUT_OF_SERVICE")
			.containsEntry("reason", "Lag of 45s is over cdc.health.max-lag (10s)");
	}

	@Test
	void aStandbyIsUpAndNamesTheLeaderWhateverItsTablesAndSourceShow() {
		this.settings.setSnapshottingStatus("OUT_OF_SERVICE");
		PipelineStatus standby = new PipelineStatus("main", State.STANDBY,
				new PipelineStatus.Source("db", 3306, 4242, null, null, null, false, null, 0, 0, null),
				new PipelineStatus.Positions(null, null, null), 0, null, List.of(table("a", Phase.STARTING)),
				NOW.minusSeconds(3_600), null, false, null,
				new PipelineStatus.Leadership("host-b/12/ab", false, 7, "host-a/34/cd"));
		Health health = health(standby);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(pipelineDetails(health, "main")).containsEntry("state", "STANDBY").containsEntry("role", "standby")
			.containsEntry("leader", "host-a/34/cd").containsEntry("epoch", 7L)
			.containsEntry("reason", "Standby; host-a/34/cd leads");
		assertThat(tableDetails(health, "main", "shop.a")).doesNotContainKey("status");
	}

	@ParameterizedTest
	@CsvSource({ ",UP", "UP,UP", "OUT_OF_SERVICE,OUT_OF_SERVICE", "out-of-service,OUT_OF_SERVICE", "down,DOWN" })
	void aTableNotStreamingYetHasTheConfiguredSnapshottingStatus(String configured, String expected) {
		this.settings.setSnapshottingStatus(configured);
		for (Phase phase : List.of(Phase.STARTING, Phase.SNAPSHOTTING, Phase.CATCHING_UP)) {
			Health health = health(running(0, table("a", Phase.STREAMING), table("b", phase)));
			assertThat(health.getStatus()).as(phase.name()).isEqualTo(new Status(expected));
			assertThat(tableDetails(health, "main", "shop.b")).containsEntry("status", expected)
				.containsEntry("phase", phase.name());
		}
	}

	@Test
	void aSnapshottingTableShowsItsProgressAndIgnoresTheLag() {
		TableStatus copying = TableStatus.builder("shop.a", "dst.a", Phase.SNAPSHOTTING)
			.copy(new TableStatus.Copy(400, 1_000, 4, 100.0, 6L, false))
			.build();
		Health health = health(running(600_000, copying));
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(tableDetails(health, "main", "shop.a")).containsEntry("rowsCopied", 400L)
			.containsEntry("rowsEstimated", 1_000L);
	}

	@Test
	void aFailedTableIsDownWhileTheOthersStream() {
		Health health = health(running(0, table("a", Phase.STREAMING),
				failed("b", "Table 'dst.b' doesn't exist. The target table is missing: restart the table")));
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(tableDetails(health, "main", "shop.b")).containsEntry("status", "DOWN")
			.containsEntry("lastError", "Table 'dst.b' doesn't exist. The target table is missing: restart the table");
		assertThat(tableDetails(health, "main", "shop.a")).containsEntry("status", "UP");
	}

	@Test
	void aPausedTableIsUpAndSaysSo() {
		TableStatus paused = TableStatus.builder("shop.a", "dst.a", Phase.PAUSED)
			.lastAction(new TableStatus.Action("pause", NOW.minusSeconds(5), "paused at mysql-bin.000001:4"))
			.build();
		Health health = health(running(0, paused, table("b", Phase.STREAMING)));
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(tableDetails(health, "main", "shop.a")).containsEntry("status", "UP").containsEntry("phase", "PAUSED")
			.containsEntry("pausedAt", NOW.minusSeconds(5).toString()).containsKey("reason");
	}

	@Test
	void aSourceOutOfReachIsUpWithinTheThresholdAndDownBeyondIt() {
		this.settings.setSourceDownAfter(Duration.ofSeconds(60));
		Health within = health(disconnected(NOW.minusSeconds(60)));
		assertThat(within.getStatus()).isEqualTo(Status.UP);
		assertThat(pipelineDetails(within, "main")).containsEntry("connected", false)
			.containsEntry("disconnectedSince", NOW.minusSeconds(60).toString())
			.containsEntry("reason", "Reconnecting to the source for 1m");
		Health beyond = health(disconnected(NOW.minusSeconds(61)));
		assertThat(beyond.getStatus()).isEqualTo(Status.DOWN);
		assertThat(pipelineDetails(beyond, "main")).containsEntry("status", "DOWN").containsEntry("reason",
				"The source has been out of reach for 1m1s, longer than cdc.health.source-down-after (1m)");
		assertThat(tableDetails(beyond, "main", "shop.a")).containsEntry("status", "UP");
	}

	@Test
	void aPipelineThatCannotStartIsDownOnlyOnceItHasFailedForLongerThanTheThreshold() {
		this.settings.setSourceDownAfter(Duration.ofSeconds(5));
		String denied = "Cannot prepare replication: Access denied for user 'repl'@'localhost' (using password: YES)";
		assertThat(health(starting(null, null)).getStatus()).isEqualTo(Status.UP);
		assertThat(health(starting(NOW.minusSeconds(5), denied)).getStatus()).isEqualTo(Status.UP);
		Health down = health(starting(NOW.minusSeconds(6), denied));
		assertThat(down.getStatus()).isEqualTo(Status.DOWN);
		assertThat(pipelineDetails(down, "main")).containsEntry("state", "STARTING").containsEntry("lastError", denied);
		assertThat(tableDetails(down, "main", "shop.a")).containsEntry("phase", "STARTING");
	}

	@Test
	void theTablesOfAStartingPipelineCountAlready() {
		PipelineStatus preparing = pipeline("main", State.STARTING, 0, false, null, null, table("a", Phase.SNAPSHOTTING),
				failed("b", "Table shop.b has no primary key"));
		Health health = health(preparing);
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(tableDetails(health, "main", "shop.a")).containsEntry("status", "UP");
		assertThat(tableDetails(health, "main", "shop.b")).containsEntry("status", "DOWN");
	}

	@Test
	void theTablesOfAFailedPipelineAreOnlyDescribed() {
		Health health = health(pipeline("main", State.FAILED, 0, false, null, "boom", table("a", Phase.STREAMING)));
		assertThat(tableDetails(health, "main", "shop.a")).containsEntry("phase", "STREAMING")
			.doesNotContainKey("status");
	}

	@Test
	void aStartingPipelineHasTheSnapshottingStatusUntilThen() {
		this.settings.setSnapshottingStatus("OUT_OF_SERVICE");
		assertThat(health(starting(null, null)).getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
	}

	@Test
	void aFailedPipelineIsDownAndAStoppedOneOutOfService() {
		assertThat(health(pipeline("main", State.FAILED, 0, true, null, "boom", table("a", Phase.STREAMING)))
			.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health(pipeline("main", State.STOPPED, 0, false, NOW, null, table("a", Phase.STREAMING)))
			.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
	}

	@Test
	void theWorstPipelineDecidesAndEachIsDetailedByName() {
		Health health = health(running(0, table("a", Phase.STREAMING)),
				pipeline("archive", State.RUNNING, 0, true, null, null, failed("b", "gone")));
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsOnlyKeys("main", "archive");
		assertThat(pipelineDetails(health, "main")).containsEntry("status", "UP");
		assertThat(pipelineDetails(health, "archive")).containsEntry("status", "DOWN");
	}

	@Test
	void noPipelineIsUp() {
		assertThat(health().getStatus()).isEqualTo(Status.UP);
	}

	@Test
	void aCustomSnapshottingStatusCombinesInTheEndpointsStatusOrder() {
		this.settings.setSnapshottingStatus("COPYING");
		this.statusOrder = new SimpleStatusAggregator("DOWN", "OUT_OF_SERVICE", "COPYING", "UP");
		assertThat(health(running(0, table("a", Phase.STREAMING), table("b", Phase.SNAPSHOTTING))).getStatus())
			.isEqualTo(new Status("COPYING"));
		assertThat(health(running(0, failed("a", "gone"), table("b", Phase.SNAPSHOTTING))).getStatus())
			.isEqualTo(Status.DOWN);
	}

	@Test
	void errorTextsShowNoPassword() {
		String error = "Cannot connect to jdbc:mysql://repl:s3cret@db:3306/shop?user=repl&password=hunter2&ssl=true";
		Health health = health(pipeline("main", State.RUNNING, 0, true, null, error, failed("a", error)));
		assertThat(health.toString()).doesNotContain("s3cret").doesNotContain("hunter2").contains("db:3306/shop");
		assertThat(pipelineDetails(health, "main")).containsEntry("lastError",
				"Cannot connect to jdbc:mysql://repl:******@db:3306/shop?user=repl&password=******&ssl=true");
	}

	@Test
	void durationsReadLikeTheProperties() {
		assertThat(PipelineHealthRules.format(Duration.ofMillis(850))).isEqualTo("850ms");
		assertThat(PipelineHealthRules.format(Duration.ofSeconds(45))).isEqualTo("45s");
		assertThat(PipelineHealthRules.format(Duration.ofSeconds(125))).isEqualTo("2m5s");
		assertThat(PipelineHealthRules.format(Duration.ofSeconds(3_600))).isEqualTo("1h");
		assertThat(PipelineHealthRules.format(Duration.ofSeconds(3_605))).isEqualTo("1h5s");
	}

	private Health health(PipelineStatus... pipelines) {
		return new CdcHealthIndicator(() -> Arrays.asList(pipelines), this.settings, () -> this.statusOrder,
				Clock.fixed(NOW, ZoneOffset.UTC))
			.health();
	}

	private static PipelineStatus running(long lagMillis, TableStatus... tables) {
		return pipeline("main", State.RUNNING, lagMillis, true, null, null, tables);
	}

	private static PipelineStatus disconnected(Instant since) {
		return pipeline("main", State.RUNNING, 0, false, since, null, table("a", Phase.STREAMING));
	}

	private static PipelineStatus starting(Instant failingSince, String error) {
		return pipeline("main", State.STARTING, 0, false, failingSince, error, table("a", Phase.STARTING));
	}

	private static PipelineStatus pipeline(String name, State state, long lagMillis, boolean connected,
			Instant disconnectedSince, String lastError, TableStatus... tables) {
		return new PipelineStatus(name, state,
				new PipelineStatus.Source("db", 3306, 4242, "MYSQL", "8.0.31", "ON", connected, disconnectedSince, 0, 0,
						null),
				new PipelineStatus.Positions(null, null, null), lagMillis, null, List.of(tables),
				NOW.minusSeconds(3_600), lastError, false, null);
	}

	private static TableStatus table(String name, Phase phase) {
		return TableStatus.builder("shop." + name, "dst." + name, phase).allChangesFlushed(true).build();
	}

	private static TableStatus failed(String name, String error) {
		return TableStatus.builder("shop." + name, "dst." + name, Phase.FAILED).lastError(error).build();
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> pipelineDetails(Health health, String pipeline) {
		return (Map<String, Object>) health.getDetails().get(pipeline);
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> tableDetails(Health health, String pipeline, String table) {
		return ((Map<String, Map<String, Object>>) pipelineDetails(health, pipeline).get("tables")).get(table);
	}

}
