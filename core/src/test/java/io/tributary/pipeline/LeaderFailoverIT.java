package io.tributary.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.ha.HaSettings;
import io.tributary.status.PipelineStatus.State;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Instances of one pipeline in separate JVMs, as replicas of an application: the leader is killed
 * with SIGKILL again and again under a workload, a standby takes over each time, a fresh instance
 * replaces the dead one, and in the end the target equals the source row by row.
 *
 * <p>Each takeover is timed twice from the SIGKILL: until a standby reports that it leads and runs,
 * and until it has applied a change written to the source after the kill. The figures go to
 * {@code target/ha-takeover-<server>.md}. System properties: {@code tributary.failover.kills}
 * (10) and {@code tributary.failover.seed} (random, printed), which picks how long each leader
 * applies before it is killed.
 */
@ExtendWith(DatabaseExtension.class)
class LeaderFailoverIT {

	/** A short lease: a killed leader's lock is freed by the server at once, so the poll interval counts. */
	static final HaSettings HA = HaSettings.enabled(Duration.ofSeconds(2), Duration.ofMillis(200));

	private static final Duration WAIT = Duration.ofMinutes(2);

	/** One takeover: the epoch it raised to and its two times, in milliseconds from the SIGKILL. */
	record Takeover(int round, long epoch, long leadingMillis, long appliedMillis) {

	}

	@Test
	void aStandbyTakesOverEveryTimeTheLeaderIsKilled(TestDatabase db) throws Exception {
		int kills = Integer.getInteger("tributary.failover.kills", 10);
		long seed = Long.getLong("tributary.failover.seed", ThreadLocalRandom.current().nextLong());
		System.out.printf("Leader failover on %s: %d kills, -Dtributary.failover.seed=%d%n", db.server().flavor(),
				kills, seed);
		SplittableRandom random = new SplittableRandom(seed);
		Replication replication = Replication.of(db, "failover").replicating("orders", "hot", "marker")
			.withSettings((s) -> s.withHa(HA).withFlushInterval(Duration.ofMillis(100))
				.withCheckpointInterval(Duration.ofMillis(200)));
		replication.createOrdersTable(5_000);
		Workload.createOrdersTable(replication.pool(), replication.sourceTable("hot"), 40);
		replication.onSource("CREATE TABLE marker (id INT PRIMARY KEY, round INT NOT NULL)",
				"INSERT INTO marker VALUES (1, 0)");
		Workload orders = replication.workload("orders").threads(2).ratePerSecond(200).mix(30, 50, 10, 10)
			.transactionSize(3).seed(random.nextLong()).build();
		Workload hot = replication.workload("hot").threads(2).ratePerSecond(100).mix(15, 65, 15, 5)
			.transactionSize(5).seed(random.nextLong()).build();
		List<ChildPipeline> children = new ArrayList<>();
		List<Takeover> takeovers = new ArrayList<>();
		try {
			children.add(ChildPipeline.start(db, replication.settings()));
			children.add(ChildPipeline.start(db, replication.settings()));
			orders.start();
			hot.start();
			ChildPipeline leader = awaitLeader(children);
			leader.awaitStatus("every table streaming", ChildStatus::allStreaming, WAIT);
			for (int round = 1; round <= kills; round++) {
				long epoch = awaitStandbys(children, leader);
				long flushes = leader.status().table("hot").flushesOk() + 1 + random.nextInt(8);
				leader.awaitStatus("applying under the workload", (s) -> s.table("hot").flushesOk() >= flushes, WAIT);
				long killed = System.nanoTime();
				leader.kill();
				replication.onSource("UPDATE marker SET round = " + round + " WHERE id = 1");
				children.remove(leader);
				leader.close();
				ChildPipeline next = awaitLeader(children);
				long leading = millisSince(killed);
				String marker = replication.targetTable("marker");
				int expected = round;
				Await.until("round " + round + " applied by the new leader", WAIT,
						() -> String.valueOf(expected).equals(replication.queryString("SELECT round FROM " + marker)));
				long applied = millisSince(killed);
				assertThat(next.status().epoch()).as("the epoch of the takeover").isEqualTo(epoch + 1);
				Takeover takeover = new Takeover(round, epoch + 1, leading, applied);
				System.out.println("Leader failover on " + db.server().flavor() + ": " + takeover);
				takeovers.add(takeover);
				children.add(ChildPipeline.start(db, replication.settings()));
				leader = next;
			}
			orders.stop();
			hot.stop();
			for (String table : new String[] { "orders", "hot", "marker" }) {
				replication.awaitEqual(table, WAIT);
				replication.assertEqual(table);
			}
			assertThat(children).allMatch(ChildPipeline::isAlive);
		}
		finally {
			stopQuietly(orders);
			stopQuietly(hot);
			for (ChildPipeline child : children) {
				child.close();
			}
			report(db.server().flavor(), seed, takeovers);
		}
		assertThat(takeovers).hasSize(kills);
	}

	/** Waits until one of {@code children} leads and runs, and returns it. */
	private static ChildPipeline awaitLeader(List<ChildPipeline> children) throws Exception {
		return Await.value("one instance leading", WAIT, () -> {
			for (ChildPipeline child : children) {
				if (!child.isAlive()) {
					throw new AssertionError("Instance " + child.pid() + " died; its log: " + child.log());
				}
				ChildStatus status = child.status();
				if (status != null && status.leading()) {
					return child;
				}
			}
			return null;
		}, (found) -> found != null);
	}

	/**
	 * Waits until every other child stands by and has seen the leader's epoch, so each kill finds a
	 * standby ready; returns that epoch.
	 */
	private static long awaitStandbys(List<ChildPipeline> children, ChildPipeline leader) throws Exception {
		long epoch = leader.status().epoch();
		for (ChildPipeline child : children) {
			if (child != leader) {
				child.awaitStatus("standby at epoch " + epoch, (s) -> s.state() == State.STANDBY && s.epoch() == epoch,
						WAIT);
			}
		}
		assertThat(leader.status().leading()).as("the leader still leads").isTrue();
		return epoch;
	}

	private static void stopQuietly(Workload workload) {
		try {
			workload.stop();
		}
		catch (RuntimeException ex) {
			// Only on the way out of a run that failed already; the stop before the comparison reports it.
		}
	}

	private static long millisSince(long nanos) {
		return (System.nanoTime() - nanos) / 1_000_000;
	}

	private static void report(String server, long seed, List<Takeover> takeovers) throws IOException {
		if (takeovers.isEmpty()) {
			return;
		}
		StringBuilder md = new StringBuilder("# Leader takeover after SIGKILL on " + server + "\n\n")
			.append("Lease ").append(HA.lease().toMillis()).append(" ms, poll ").append(HA.pollInterval().toMillis())
			.append(" ms, ").append(takeovers.size()).append(" kills, seed ").append(seed).append(".\n\n")
			.append("| from the SIGKILL until | p50 ms | max ms |\n| --- | ---: | ---: |\n")
			.append("| a standby leads and runs | ").append(percentile(takeovers, true, 50)).append(" | ")
			.append(percentile(takeovers, true, 100)).append(" |\n")
			.append("| it applied a change written after the kill | ").append(percentile(takeovers, false, 50))
			.append(" | ").append(percentile(takeovers, false, 100)).append(" |\n\n")
			.append("| kill | epoch | leads ms | applied ms |\n| ---: | ---: | ---: | ---: |\n");
		for (Takeover t : takeovers) {
			md.append("| ").append(t.round()).append(" | ").append(t.epoch()).append(" | ").append(t.leadingMillis())
				.append(" | ").append(t.appliedMillis()).append(" |\n");
		}
		Path file = Path.of("target", "ha-takeover-" + server + ".md");
		Files.createDirectories(file.getParent());
		Files.writeString(file, md, StandardCharsets.UTF_8);
		System.out.println(md);
	}

	/** The nearest-rank percentile of one of the two times. */
	private static long percentile(List<Takeover> takeovers, boolean leading, int percent) {
		long[] sorted = takeovers.stream()
			.mapToLong((t) -> leading ? t.leadingMillis() : t.appliedMillis())
			.sorted()
			.toArray();
		int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
		return sorted[Math.max(0, rank - 1)];
	}

}
