package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.ha.HaSettings;
import io.tributary.ha.StallingDataSource;
import io.tributary.source.Position;
import io.tributary.status.PipelineStatus;
import io.tributary.status.PipelineStatus.State;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;
import io.tributary.test.Workload;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of one pipeline in one JVM, each with a pool of its own to the target, as two
 * replicas of an application: one leads and the other waits as a standby, the standby takes over
 * when the leader stops or loses its lock, and a leader that stalled with a batch in flight writes
 * nothing once the other has taken over.
 */
@ExtendWith(DatabaseExtension.class)
class HighAvailabilityIT {

	private static final Logger logger = LoggerFactory.getLogger(HighAvailabilityIT.class);

	private static final HaSettings FAST = HaSettings.enabled(Duration.ofSeconds(3), Duration.ofMillis(200));

	private final List<HikariDataSource> pools = new ArrayList<>();

	@AfterEach
	void closePools() {
		this.pools.forEach(HikariDataSource::close);
	}

	@Test
	void theStandbyTakesOverWhenTheLeaderStopsAndResumesFromItsCheckpoint(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "takeover").replicating("orders")
			.withSettings((s) -> s.withHa(FAST));
		replication.createOrdersTable(2_000);
		Workload workload = replication.workload("orders").threads(2).ratePerSecond(200).seed(12).build();
		try (RunningPipeline first = replication.start(pool(db), (p) -> {
		}); RunningPipeline second = replication.start(pool(db), (p) -> {
		})) {
			RunningPipeline leader = awaitLeader(first, second);
			RunningPipeline standby = (leader == first) ? second : first;
			PipelineStatus waiting = standby.status();
			assertThat(waiting.state()).isEqualTo(State.STANDBY);
			assertThat(waiting.source().connected()).as("a standby reads no binlog").isFalse();
			assertThat(waiting.tables()).allMatch((t) -> t.phase() == Phase.STARTING && t.rowsCopied() == 0);
			assertThat(waiting.leadership().leaderInstance()).isEqualTo(leader.status().leadership().instance());
			workload.start();
			leader.awaitTable("orders", (t) -> t.phase() == Phase.STREAMING);
			leader.awaitCaughtUp();
			long epoch = leader.status().leadership().epoch();
			leader.close();
			long stopped = System.nanoTime();
			standby.awaitStatus("leading", (s) -> s.state() == State.RUNNING && s.leadership().leader(),
					Replication.WAIT);
			Duration takeover = Duration.ofNanos(System.nanoTime() - stopped);
			logger.info("Takeover after the leader stopped: {} ms", takeover.toMillis());
			assertThat(takeover).isLessThan(FAST.pollInterval().plusSeconds(5));
			assertThat(standby.status().leadership().epoch()).isEqualTo(epoch + 1);
			standby.awaitTable("orders", (t) -> t.phase() == Phase.STREAMING);
			workload.stop();
			standby.awaitCaughtUp();
			replication.assertEqual("orders");
			assertThat(standby.table("orders").rowsCopied()).as("resumed from the checkpoint, not copied again")
				.isZero();
		}
		finally {
			workload.stop();
		}
	}

	@Test
	void aLeaderWhoseLockSessionIsKilledBecomesStandbyAndTheOtherTakesOver(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "killed").replicating("orders")
			.withSettings((s) -> s.withHa(FAST));
		replication.createOrdersTable(500);
		Workload workload = replication.workload("orders").threads(2).ratePerSecond(200).seed(13).build();
		try (RunningPipeline first = replication.start(pool(db), (p) -> {
		}); RunningPipeline second = replication.start(pool(db), (p) -> {
		})) {
			RunningPipeline leader = awaitLeader(first, second);
			RunningPipeline standby = (leader == first) ? second : first;
			leader.awaitTable("orders", (t) -> t.phase() == Phase.STREAMING);
			workload.start();
			long epoch = leader.status().leadership().epoch();
			long killed = System.nanoTime();
			execute(replication, "KILL CONNECTION " + replication.queryString("SELECT lock_session FROM "
					+ replication.targetTable("tributary_checkpoint_leader") + " WHERE pipeline = 'default'"));
			standby.awaitStatus("leading", (s) -> s.state() == State.RUNNING && s.leadership().leader(),
					Replication.WAIT);
			logger.info("Takeover after the leader's lock session was killed: {} ms",
					Duration.ofNanos(System.nanoTime() - killed).toMillis());
			PipelineStatus demoted = leader.awaitStatus("standby", (s) -> s.state() == State.STANDBY,
					Replication.WAIT);
			assertThat(demoted.lastError()).contains("Leadership lost at epoch " + epoch);
			assertThat(demoted.source().connected()).isFalse();
			assertThat(standby.status().leadership().epoch()).isEqualTo(epoch + 1);
			standby.awaitTable("orders", (t) -> t.phase() == Phase.STREAMING);
			workload.stop();
			standby.awaitCaughtUp();
			replication.assertEqual("orders");
			assertThat(leader.status().state()).as("the other stays standby").isEqualTo(State.STANDBY);
			// The demoted instance names the new leader once it has looked again.
			String newLeader = standby.status().leadership().instance();
			leader.awaitStatus("naming the new leader", (s) -> newLeader.equals(s.leadership().leaderInstance()),
					Replication.WAIT);
		}
		finally {
			workload.stop();
		}
	}

	@Test
	void aLeaderStalledWithABatchInFlightWritesNothingOnceAnotherLeads(TestDatabase db) throws Exception {
		Replication replication = Replication.of(db, "stalled").withSettings((s) -> s.withHa(FAST));
		replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO t VALUES (1, 0), (2, 0)");
		ApplyHold hold = new ApplyHold();
		DataSource staleTarget = pool(db);
		StallingDataSource staleLock = new StallingDataSource(pool(db));
		try (RunningPipeline stale = replication.start(staleTarget, (p) -> {
			p.observeApplies(hold);
			p.holdLeaderLockOn(staleLock);
		})) {
			stale.awaitPhase(Phase.STREAMING);
			assertThat(stale.status().leadership().leader()).isTrue();
			try (RunningPipeline next = replication.start(pool(db), (p) -> {
			})) {
				next.awaitStatus("standby", (s) -> s.state() == State.STANDBY, Replication.WAIT);
				countWrites(replication);
				hold.arm();
				replication.onSource("UPDATE t SET v = 1 WHERE id = 1");
				hold.awaitHeld(Replication.WAIT);
				// The leader stalls with the older image in hand: its lease renewals no longer arrive.
				staleLock.stall();
				long stalled = System.nanoTime();
				replication.onSource("UPDATE t SET v = 2 WHERE id = 1");
				next.awaitStatus("leading", (s) -> s.state() == State.RUNNING && s.leadership().leader(),
						Replication.WAIT);
				logger.info("Takeover from a stalled leader (lease {} ms): {} ms", FAST.lease().toMillis(),
						Duration.ofNanos(System.nanoTime() - stalled).toMillis());
				next.awaitCaughtUp();
				assertThat(targetValue(replication, 1)).isEqualTo("2");
				String writes = writes(replication);
				Position checkpoint = replication.checkpoint("t");
				// The stale leader wakes and writes its batch, still unaware another instance leads.
				Instant released = Instant.now();
				hold.release();
				stale.awaitStatus("the held batch written or refused",
						(s) -> s.state() == State.STANDBY || flushedSince(s, released), Replication.WAIT);
				assertThat(targetValue(replication, 1)).as("the newer image stays").isEqualTo("2");
				assertThat(writes(replication)).as("rows written to the target since the takeover").isEqualTo(writes);
				PipelineStatus demoted = stale.awaitStatus("standby", (s) -> s.state() == State.STANDBY,
						Duration.ofSeconds(10));
				staleLock.resume();
				assertThat(demoted.lastError()).contains("Leadership lost");
				assertThat(replication.checkpoint("t")).as("checkpoint not moved back")
					.isGreaterThanOrEqualTo(checkpoint);
				replication.onSource("UPDATE t SET v = 3 WHERE id = 2");
				next.awaitCaughtUp();
				replication.assertEqual("t");
			}
		}
		finally {
			hold.release();
			staleLock.resume();
		}
	}

	private static RunningPipeline awaitLeader(RunningPipeline first, RunningPipeline second) throws Exception {
		Await.until("one instance leads", Replication.WAIT, () -> leads(first) || leads(second));
		RunningPipeline leader = leads(first) ? first : second;
		RunningPipeline standby = (leader == first) ? second : first;
		// A standby names the leader once it has polled.
		standby.awaitStatus("standby", (s) -> s.state() == State.STANDBY && s.leadership().leaderInstance() != null,
				Replication.WAIT);
		assertThat(leads(standby)).isFalse();
		return leader;
	}

	private static boolean flushedSince(PipelineStatus status, Instant since) {
		TableStatus.Flush flush = status.tables().get(0).lastFlush();
		return flush != null && flush.at().isAfter(since);
	}

	private static boolean leads(RunningPipeline pipeline) {
		PipelineStatus status = pipeline.status();
		return status.state() == State.RUNNING && status.leadership().leader();
	}

	/** Counts every row the target table {@code t} gains or loses, in a table beside it. */
	private static void countWrites(Replication replication) {
		replication.onTarget("CREATE TABLE writes (n INT NOT NULL)", "INSERT INTO writes VALUES (0)",
				"CREATE TRIGGER t_written AFTER INSERT ON t FOR EACH ROW UPDATE writes SET n = n + 1",
				"CREATE TRIGGER t_updated AFTER UPDATE ON t FOR EACH ROW UPDATE writes SET n = n + 1",
				"CREATE TRIGGER t_deleted AFTER DELETE ON t FOR EACH ROW UPDATE writes SET n = n + 1");
	}

	private static String writes(Replication replication) throws Exception {
		return replication.queryString("SELECT n FROM " + replication.targetTable("writes"));
	}

	private static String targetValue(Replication replication, int id) throws Exception {
		return replication.queryString("SELECT v FROM " + replication.targetTable("t") + " WHERE id = " + id);
	}

	private static void execute(Replication replication, String sql) throws Exception {
		try (Connection connection = replication.pool().getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/** A pool of one instance's own, sized for a pipeline's threads and its leader lock. */
	private HikariDataSource pool(TestDatabase db) {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(db.jdbcUrl(null));
		pool.setUsername(db.server().username());
		pool.setPassword(db.server().password());
		pool.setMaximumPoolSize(12);
		pool.setMinimumIdle(0);
		this.pools.add(pool);
		return pool;
	}

}
