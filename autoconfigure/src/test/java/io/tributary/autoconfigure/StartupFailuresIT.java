package io.tributary.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mistakes a new user makes on the first start, against a real server: each shows the server's
 * own reason in the status at once, with advice only where it fits.
 */
@ExtendWith(DatabaseExtension.class)
class StartupFailuresIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
	}

	private ApplicationContextRunner runner(String schema) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.host=" + db.server().host(), "cdc.source.port=" + db.server().port(),
					"cdc.source.username=" + db.server().username(), "cdc.source.password=" + db.server().password(),
					// Far longer than the waits below: the reason must not wait for the pool's timeout.
					"cdc.source.connect-timeout=60s", "cdc.target.url=" + db.jdbcUrl(schema),
					"cdc.target.username=" + db.server().username(), "cdc.target.password=" + db.server().password(),
					"cdc.tables[0].source=" + schema + ".t");
	}

	@Test
	void aWrongSourcePasswordShowsAccessDeniedAtOnceAndNoTableClaimsToRun() {
		String schema = db.schema("password");
		db.server().execute(schema, "CREATE TABLE t (id INT PRIMARY KEY)");
		runner(schema).withPropertyValues("cdc.source.password=certainly-wrong", "cdc.tables[0].target=other.t")
			.run((context) -> {
				PipelineStatus status = await("a pipeline error", context.getBean(Pipeline.class),
						(s) -> s.lastError() != null);
				assertThat(status.lastError()).contains("Access denied for user");
				assertThat(status.state()).isEqualTo(PipelineStatus.State.STARTING);
				assertThat(status.tables().get(0).phase()).isEqualTo(Phase.STARTING);
			});
	}

	@Test
	void anUnreachableTargetSaysTheConnectionWasRefusedWithoutPrivilegeAdvice() throws IOException {
		String schema = db.schema("unreachable");
		db.server().execute(schema, "CREATE TABLE t (id INT PRIMARY KEY)");
		runner(schema).withPropertyValues("cdc.target.url=jdbc:mysql://127.0.0.1:" + closedPort() + "/replica")
			.run((context) -> {
				PipelineStatus status = await("a pipeline error", context.getBean(Pipeline.class),
						(s) -> s.lastError() != null);
				assertThat(status.lastError()).contains("Connection refused").contains("target server is up")
					.doesNotContain("Grant");
				assertThat(status.tables().get(0).phase()).isEqualTo(Phase.STARTING);
			});
	}

	@Test
	void aTargetThatIsTheSourceTableItselfIsRefused() {
		String schema = db.schema("itself");
		db.server().execute(schema, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1), (2)");
		runner(schema).withPropertyValues("cdc.tables[0].target=" + schema + ".t").run((context) -> {
			PipelineStatus status = await("the table failed", context.getBean(Pipeline.class),
					(s) -> s.tables().get(0).phase() == Phase.FAILED);
			assertThat(status.tables().get(0).lastError()).contains("copied onto itself")
				.contains("cdc.tables[n].target");
		});
	}

	private static PipelineStatus await(String what, Pipeline pipeline, Predicate<PipelineStatus> condition)
			throws Exception {
		return Await.value(what, Duration.ofSeconds(20), pipeline::status, condition);
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
