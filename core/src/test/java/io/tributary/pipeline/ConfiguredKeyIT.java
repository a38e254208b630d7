package io.tributary.pipeline;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.status.TableStatus.Phase;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table without a primary key is refused unless a NOT NULL unique key is configured, and then
 * replicates by that key.
 */
@ExtendWith(DatabaseExtension.class)
class ConfiguredKeyIT {

	@Test
	void tableWithoutPrimaryKeyReplicatesByAConfiguredUniqueKey(TestDatabase db) throws Exception {
		Replication plain = Replication.of(db, "key");
		plain.onSource("CREATE TABLE t (a INT NOT NULL, b VARCHAR(10) NOT NULL, v INT, UNIQUE KEY ab (a, b))",
				"INSERT INTO t VALUES (1, 'x', 1), (1, 'y', 2), (2, 'x', 3)");
		try (RunningPipeline refused = plain.start()) {
			assertThat(refused.awaitPhase(Phase.FAILED).lastError()).contains("has no primary key")
				.contains("TableMapping.key");
		}
		TableMapping t = plain.mapping("t");
		TableMapping byAb = new TableMapping(t.source(), t.target(), List.of("a", "b"));
		Replication keyed = plain.withSettings((s) -> s.withTables(List.of(byAb)));
		try (RunningPipeline pipeline = keyed.startStreaming()) {
			keyed.onSource("UPDATE t SET v = 20 WHERE a = 1 AND b = 'y'", "DELETE FROM t WHERE a = 2",
					"INSERT INTO t VALUES (3, 'z', 4)", "UPDATE t SET b = 'w' WHERE a = 1 AND b = 'x'");
			pipeline.awaitCaughtUp();
			assertThat(rows(keyed, keyed.target())).isEqualTo(rows(keyed, keyed.source()))
				.containsExactly("1 w 1", "1 y 20", "3 z 4");
		}
	}

	private static List<String> rows(Replication replication, String schema) throws Exception {
		return replication.queryStrings("SELECT CONCAT(a, ' ', b, ' ', v) FROM " + schema + ".t ORDER BY a, b");
	}

}
