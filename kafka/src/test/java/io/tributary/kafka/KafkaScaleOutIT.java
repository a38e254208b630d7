package io.tributary.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.ha.HaSettings;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.status.PipelineStatus;
import io.tributary.status.PipelineStatus.State;
import io.tributary.status.SinkStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scale-out of docs/kafka.md: two sources (two schemas of the test server, each read by a
 * pipeline of its own name and server id) publish to topics of their own, and replicas of one
 * application each run both pipelines with HA, their checkpoints and leader locks in one shared
 * coordination schema. Each pipeline is led by one replica at a time; when the replica leading one
 * stops, or crashes, another takes the pipeline over, and under a workload spanning both takeovers
 * every topic still rebuilds its source table row for row.
 *
 * <p>A replica here is what one application process holds: a connection pool of its own to the
 * coordination database, a Kafka producer of its own and an instance of each pipeline.
 */
@ExtendWith(DatabaseExtension.class)
class KafkaScaleOutIT {

	/** A short lease, as in the core HA tests: a dead leader's lock is freed at once, the poll counts. */
	private static final HaSettings HA = HaSettings.enabled(Duration.ofSeconds(2), Duration.ofMillis(200));

	private static final Duration WAIT = Duration.ofMinutes(2);

	private static KraftBroker broker;

	@BeforeAll
	static void startBroker() throws Exception {
		broker = KraftBroker.start();
	}

	@AfterAll
	static void stopBroker() {
		if (broker != null) {
			broker.close();
		}
	}

	@Test
	void eachSourceIsLedByOneReplicaAndAnotherTakesItOverWhenItsLeaderGoes(TestDatabase db) throws Exception {
		Map<String, KafkaReplication> sources = new LinkedHashMap<>();
		sources.put("eu", new KafkaReplication(db, "scale_eu", broker));
		sources.put("us", new KafkaReplication(db, "scale_us", broker));
		TableId checkpoints = new TableId(db.schema("scale_coordination"), "tributary_checkpoint");
		List<Workload> workloads = new ArrayList<>();
		for (KafkaReplication source : sources.values()) {
			source.createOrdersTable(2_000);
			workloads.add(source.workload("orders").threads(1).ratePerSecond(150).mix(3, 5, 2, 1).build());
		}
		Cluster cluster = new Cluster(db, sources, checkpoints);
		try {
			cluster.add("a");
			cluster.add("b");
			workloads.forEach(Workload::start);
			for (String pipeline : sources.keySet()) {
				cluster.awaitOneLeaderAndStandbys(pipeline).awaitStreaming(pipeline);
			}

			// A replica stops as in a rolling update: its pipelines stop gracefully and free their locks.
			Replica euLeader = cluster.awaitOneLeaderAndStandbys("eu");
			long euEpoch = euLeader.leadership("eu").epoch();
			cluster.remove(euLeader).close();
			Replica euNext = cluster.awaitOneLeaderAndStandbys("eu");
			assertThat(euNext.leadership("eu").epoch()).as("the epoch of the takeover of eu").isEqualTo(euEpoch + 1);
			euNext.awaitRecordsSentAfterTakeover("eu");
			cluster.add("c");

			// A replica crashes: records it had not sent are gone, and its connections with its locks.
			Replica usLeader = cluster.awaitOneLeaderAndStandbys("us");
			long usEpoch = usLeader.leadership("us").epoch();
			cluster.remove(usLeader).crash();
			Replica usNext = cluster.awaitOneLeaderAndStandbys("us");
			assertThat(usNext.leadership("us").epoch()).as("the epoch of the takeover of us").isEqualTo(usEpoch + 1);
			usNext.awaitRecordsSentAfterTakeover("us");

			for (Workload workload : workloads) {
				workload.stop();
			}
			for (Map.Entry<String, KafkaReplication> source : sources.entrySet()) {
				cluster.awaitOneLeaderAndStandbys(source.getKey()).pipelines.get(source.getKey()).awaitCaughtUp(WAIT);
				source.getValue().assertTopicEqualsSource("orders", topic(source.getKey()));
			}
			cluster.assertOneInstancePerTerm();
		}
		finally {
			for (Workload workload : workloads) {
				stopQuietly(workload);
			}
			cluster.close();
		}
	}

	private static String topic(String pipeline) {
		return pipeline + ".shop.orders";
	}

	private static void stopQuietly(Workload workload) {
		try {
			workload.stop();
		}
		catch (RuntimeException ex) {
			// Only on the way out of a run that failed already; the stop before the comparison reports it.
		}
	}

	/**
	 * The replicas of the application, and a watch on them: every 20 ms it notes, for each
	 * pipeline, which instances report that they lead and at which epoch.
	 */
	static final class Cluster implements AutoCloseable {

		private final TestDatabase db;

		private final Map<String, KafkaReplication> sources;

		private final TableId checkpoints;

		private final List<Replica> replicas = new CopyOnWriteArrayList<>();

		/** By pipeline and epoch, the instances seen leading in that term. */
		private final Map<String, Map<Long, Set<String>>> leadersByTerm = new ConcurrentHashMap<>();

		private final AtomicBoolean watching = new AtomicBoolean(true);

		private final Thread watch;

		Cluster(TestDatabase db, Map<String, KafkaReplication> sources, TableId checkpoints) {
			this.db = db;
			this.sources = sources;
			this.checkpoints = checkpoints;
			this.watch = new Thread(this::watchLeaders, "leader-watch");
			this.watch.setDaemon(true);
			this.watch.start();
		}

		void add(String name) {
			this.replicas.add(new Replica(name, this.db, this.sources, this.checkpoints));
		}

		Replica remove(Replica replica) {
			this.replicas.remove(replica);
			return replica;
		}

		/**
		 * Waits until one replica leads the pipeline and runs it while every other stands by at its
		 * epoch, and returns the leader.
		 */
		Replica awaitOneLeaderAndStandbys(String pipeline) throws Exception {
			return Await.value("one replica leading " + pipeline + ", the others standing by", WAIT, () -> {
				List<Replica> leaders = new ArrayList<>();
				for (Replica replica : this.replicas) {
					if (replica.leadership(pipeline).leader()) {
						leaders.add(replica);
					}
				}
				if (leaders.size() != 1 || leaders.get(0).status(pipeline).state() != State.RUNNING) {
					return null;
				}
				long epoch = leaders.get(0).leadership(pipeline).epoch();
				for (Replica replica : this.replicas) {
					PipelineStatus status = replica.status(pipeline);
					if (replica != leaders.get(0)
							&& (status.state() != State.STANDBY || status.leadership().epoch() != epoch)) {
						return null;
					}
				}
				return leaders.get(0);
			}, (leader) -> leader != null);
		}

		/** Asserts that no two instances ever led one pipeline in the same term. */
		void assertOneInstancePerTerm() {
			assertThat(this.leadersByTerm).as("pipelines seen led").containsOnlyKeys(this.sources.keySet());
			this.leadersByTerm.forEach((pipeline, terms) -> {
				assertThat(terms.size()).as("terms of %s", pipeline).isGreaterThanOrEqualTo(2);
				terms.forEach((epoch, leaders) -> assertThat(leaders).as("leaders of %s at epoch %d", pipeline, epoch)
					.hasSize(1));
			});
		}

		private void watchLeaders() {
			while (this.watching.get()) {
				for (Replica replica : this.replicas) {
					for (String pipeline : this.sources.keySet()) {
						PipelineStatus.Leadership leadership = replica.leadership(pipeline);
						if (leadership.leader()) {
							this.leadersByTerm.computeIfAbsent(pipeline, (key) -> new ConcurrentHashMap<>())
								.computeIfAbsent(leadership.epoch(), (key) -> ConcurrentHashMap.newKeySet())
								.add(leadership.instance());
						}
					}
				}
				// Samples the replicas' statuses; nothing waits on this thread.
				LockSupport.parkNanos(20_000_000);
			}
		}

		@Override
		public void close() throws InterruptedException {
			this.watching.set(false);
			this.watch.join(5_000);
			for (Replica replica : this.replicas) {
				replica.close();
			}
		}

	}

	/**
	 * One replica of the application: its own pool to the coordination database, its own Kafka
	 * producer, and an instance of each source's pipeline, with HA.
	 */
	static final class Replica implements AutoCloseable {

		private final String name;

		private final HikariDataSource coordination;

		private final KafkaSinks sinks;

		private final Map<String, Pipeline> pipelines = new LinkedHashMap<>();

		Replica(String name, TestDatabase db, Map<String, KafkaReplication> sources, TableId checkpoints) {
			this.name = name;
			this.coordination = new HikariDataSource();
			this.coordination.setJdbcUrl(db.jdbcUrl(null));
			this.coordination.setUsername(db.server().username());
			this.coordination.setPassword(db.server().password());
			this.coordination.setMaximumPoolSize(6);
			this.coordination.setMinimumIdle(0);
			this.coordination.setPoolName("replica-" + name);
			KafkaReplication first = sources.values().iterator().next();
			this.sinks = first.sinks(new TopicCreation(true, 3, null));
			sources.forEach((pipeline, source) -> {
				Pipeline instance = new Pipeline(source.settings(this.sinks, Map.of("orders", topic(pipeline)), checkpoints)
					.withName(pipeline)
					.withHa(HA), source.pool(), this.coordination);
				instance.start();
				this.pipelines.put(pipeline, instance);
			});
		}

		PipelineStatus status(String pipeline) {
			return this.pipelines.get(pipeline).status();
		}

		PipelineStatus.Leadership leadership(String pipeline) {
			return status(pipeline).leadership();
		}

		void awaitStreaming(String pipeline) throws Exception {
			Await.until(pipeline + " streaming on replica " + this.name, WAIT, () -> status(pipeline).tables().stream()
				.allMatch((t) -> t.phase() == TableStatus.Phase.STREAMING));
		}

		/** Waits until this replica, leading the pipeline now, had records of its own acknowledged. */
		void awaitRecordsSentAfterTakeover(String pipeline) throws Exception {
			Await.until(pipeline + " publishing from replica " + this.name, WAIT, () -> {
				SinkStatus sink = status(pipeline).tables().get(0).sink();
				return sink != null && sink.recordsSent() > 0;
			});
		}

		/**
		 * Ends the replica as a crash would: the producer drops what it has not sent, the pool's
		 * connections are cut (the server frees the leader locks held on them), and only then are
		 * the pipelines told to stop, with nothing left to write through.
		 */
		void crash() {
			this.sinks.producer().close(Duration.ZERO);
			this.coordination.close();
			close();
		}

		@Override
		public void close() {
			for (Pipeline pipeline : this.pipelines.values()) {
				pipeline.close(Duration.ofSeconds(20));
			}
			this.sinks.close();
			this.coordination.close();
		}

		@Override
		public String toString() {
			return "replica " + this.name;
		}

	}

}
