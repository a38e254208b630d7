package io.tributary.autoconfigure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TableComparison;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code CheckpointStore} bean of the application's replaces the checkpoint table: the pipeline
 * loads and saves its checkpoints there, and creates no checkpoint table in the target.
 */
@ExtendWith(DatabaseExtension.class)
class UserCheckpointStoreIT {

	private static TestDatabase db;

	@BeforeAll
	static void server(TestDatabase database) {
		db = database;
	}

	@Test
	void thePipelineKeepsItsCheckpointsInTheApplicationsStore() throws Exception {
		String src = db.schema("src");
		String dst = db.schema("dst");
		db.server().execute(src, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO t VALUES (1, 'a')");
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TributaryAutoConfiguration.class))
			.withPropertyValues("cdc.source.host=" + db.server().host(), "cdc.source.port=" + db.server().port(),
					"cdc.source.username=" + db.server().username(), "cdc.source.password=" + db.server().password(),
					"cdc.target.url=" + db.jdbcUrl(dst), "cdc.target.username=" + db.server().username(),
					"cdc.target.password=" + db.server().password(), "cdc.tables[0].source=" + src + ".t")
			.withUserConfiguration(Store.class)
			.run((context) -> {
				Pipeline pipeline = context.getBean(Pipeline.class);
				InMemoryCheckpointStore store = context.getBean(InMemoryCheckpointStore.class);
				Await.until("streaming", Duration.ofMinutes(1),
						() -> pipeline.status().tables().get(0).phase() == Phase.STREAMING);
				db.server().execute(src, "INSERT INTO t VALUES (2, 'b')");
				DataSource pool = db.dataSource(null);
				Await.until("target equal to source", Duration.ofSeconds(30),
						() -> TableComparison.compare(pool, src + ".t", pool, dst + ".t").equal());
				TableCheckpoint checkpoint = Await.value("a checkpoint in the store", Duration.ofSeconds(30),
						() -> store.checkpoints.get(new TableId(src, "t")),
						(saved) -> saved != null && saved.snapshotDone() && saved.position() != null);
				assertThat(checkpoint.target()).isEqualTo(new Destination.Table(new TableId(dst, "t")));
				assertThat(store.initialized).isEqualTo(1);
				assertThat(tableExists(pool, dst, "tributary_checkpoint")).isFalse();
			});
	}

	private static boolean tableExists(DataSource pool, String schema, String table) throws Exception {
		try (Connection connection = pool.getConnection();
				PreparedStatement query = connection.prepareStatement(
						"SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = ?")) {
			query.setString(1, schema);
			query.setString(2, table);
			try (ResultSet rs = query.executeQuery()) {
				rs.next();
				return rs.getInt(1) > 0;
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Store {

		@Bean
		InMemoryCheckpointStore applicationCheckpoints() {
			return new InMemoryCheckpointStore();
		}

	}

}
