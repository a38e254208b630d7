package io.tributary.autoconfigure.health;

import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.autoconfigure.TributaryAutoConfiguration;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static io.tributary.autoconfigure.health.CdcHealthIndicatorTest.pipelineDetails;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two applications with {@code cdc.ha.enabled} on the test server, as two replicas of one
 * deployment: the second waits as a healthy standby that names the leader, and leads once the
 * first stops.
 */
@ExtendWith(DatabaseExtension.class)
class StandbyHealthIT {

	private static final Duration WAIT = Duration.ofMinutes(1);

	@Test
	void aStandbyIsUpNamesTheLeaderAndLeadsOnceTheLeaderStops(TestDatabase db) throws Exception {
		String src = db.schema("src");
		String dst = db.schema("dst");
		db.server().execute(src, "CREATE TABLE a (id INT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO a VALUES (1, 'a')");
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class, CdcHealthAutoConfiguration.class))
			.withPropertyValues("cdc.source.host=" + db.server().host(), "cdc.source.port=" + db.server().port(),
					"cdc.source.username=" + db.server().username(), "cdc.source.password=" + db.server().password(),
					"cdc.target.url=" + db.jdbcUrl(dst), "cdc.target.username=" + db.server().username(),
					"cdc.target.password=" + db.server().password(), "cdc.tables[0].source=" + src + ".a",
					"cdc.flush.interval=100ms", "cdc.ha.enabled=true", "cdc.ha.lease=2s",
					"cdc.ha.poll-interval=200ms");
		runner.run((first) -> {
			Pipeline leader = first.getBean(Pipeline.class);
			CdcHealthIndicator leaderHealth = first.getBean(CdcHealthIndicator.class);
			Health leading = await(leaderHealth, "the first leads",
					(health) -> "RUNNING".equals(details(health).get("state")));
			assertThat(leading.getStatus()).isEqualTo(Status.UP);
			assertThat(details(leading)).containsEntry("role", "leader").containsEntry("epoch", 1L);
			runner.run((second) -> {
				CdcHealthIndicator standbyHealth = second.getBean(CdcHealthIndicator.class);
				Health waiting = await(standbyHealth, "the second waits",
						(health) -> details(health).get("leader") != null);
				assertThat(waiting.getStatus()).isEqualTo(Status.UP);
				assertThat(details(waiting)).containsEntry("state", "STANDBY").containsEntry("role", "standby")
					.containsEntry("leader", leader.status().leadership().instance())
					.containsEntry("connected", false);
				assertThat((String) details(waiting).get("reason")).startsWith("Standby; ");
				leader.close();
				Health took = await(standbyHealth, "the second leads",
						(health) -> "RUNNING".equals(details(health).get("state")));
				assertThat(took.getStatus()).isEqualTo(Status.UP);
				assertThat(details(took)).containsEntry("role", "leader").containsEntry("epoch", 2L);
				assertThat(leader.status().state()).isEqualTo(PipelineStatus.State.STOPPED);
			});
		});
	}

	private static Map<String, Object> details(Health health) {
		return pipelineDetails(health, "default");
	}

	private static Health await(CdcHealthIndicator indicator, String what, Predicate<Health> condition)
			throws Exception {
		return Await.value(what, WAIT, indicator::health, condition);
	}

}
