package io.tributary.pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.InsertStatements;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pipeline in a child JVM can be stopped with SIGSTOP and continued with SIGCONT, ends by itself
 * when its standard input closes (as when the test JVM dies), and stops gracefully on request, so
 * a later run resumes from its checkpoint.
 */
@ExtendWith(DatabaseExtension.class)
class ChildPipelineIT {

	private static final Duration WAIT = Duration.ofMinutes(1);

	@Test
	void childStopsContinuesAndEndsWithItsInput(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "child");
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
				InsertStatements.single("t", 1, 100, (i) -> i + ", 'r" + i + "'"));
		try (ChildPipeline child = ChildPipeline.start(db, replication.settings())) {
			child.awaitStatus("streaming", ChildStatus::allStreaming, WAIT);
			child.stopProcess();
			Await.until("child stopped", WAIT, () -> processState(child.pid()) == 'T');
			replication.onSource("UPDATE t SET v = 'after stop' WHERE id = 7");
			child.continueProcess();
			replication.awaitEqual("t", WAIT);

			child.endInput();
			Await.until("child ended by itself", WAIT, () -> !child.isAlive());
			assertThat(child.exitValue()).isNotZero();
		}
		replication.onSource("UPDATE t SET v = 'while down' WHERE id = 8");
		try (ChildPipeline second = ChildPipeline.start(db, replication.settings())) {
			second.awaitStatus("streaming", ChildStatus::allStreaming, WAIT);
			replication.awaitEqual("t", WAIT);
			second.stop(WAIT);
			assertThat(second.exitValue()).isZero();
		}
		assertThat(replication.checkpoint("t")).isNotNull();
	}

	/** The state letter of {@code /proc/<pid>/stat}: {@code T} when stopped by a signal. */
	private static char processState(long pid) throws Exception {
		String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
		return stat.charAt(stat.lastIndexOf(')') + 2);
	}

}
