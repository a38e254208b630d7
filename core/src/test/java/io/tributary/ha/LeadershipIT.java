package io.tributary.ha;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.tributary.apply.ApplyException;
import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.checkpoint.JdbcCheckpointStore;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.TableLayout;
import io.tributary.source.Position;
import io.tributary.test.Await;
import io.tributary.test.DatabaseExtension;
import io.tributary.test.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two instances of one pipeline compete for leadership on the real target: the lock, the lease on
 * the target's clock, the takeover from a stalled leader, and the epoch that refuses the writes of
 * a term that was lost. Each instance has a pool of its own, as separate processes would.
 */
@ExtendWith(DatabaseExtension.class)
class LeadershipIT {

	private static final HaSettings FAST = HaSettings.enabled(Duration.ofSeconds(2), Duration.ofMillis(200));

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final List<HikariDataSource> pools = new ArrayList<>();

	private final List<LeaderTerm> terms = new ArrayList<>();

	private TestDatabase db;

	private String schema;

	private TableId checkpoints;

	/** The first leader's pool, which a test stalls as a process stopped at that instant would be. */
	private StallingDataSource stalling;

	/** The pool the first leader writes rows and checkpoints with. */
	private HikariDataSource writers;

	/** The term of the first leader, which the standby takes over from. */
	private LeaderTerm firstTerm;

	private Leadership standby;

	@BeforeEach
	void schema(TestDatabase database) {
		this.db = database;
		this.schema = database.schema("ha");
		this.checkpoints = new TableId(this.schema, "cp_" + Long.toHexString(System.nanoTime()));
	}

	@AfterEach
	void close() {
		this.terms.forEach(LeaderTerm::close);
		this.pools.forEach(HikariDataSource::close);
	}

	@Test
	void oneInstanceLeadsAndAnotherTakesOverOnceItGivesUp() throws Exception {
		Leadership first = instance(pool());
		Leadership second = instance(pool());
		LeaderTerm leading = lead(first, WAIT);
		assertThat(leading.epoch()).isEqualTo(1);
		// Two leases: the leader renews, so the standby neither gets the lock nor ends the session.
		assertThat(second.acquire(deadline(FAST.lease().multipliedBy(2)))).isNull();
		assertThat(second.leaderSeen()).isEqualTo(first.instance());
		assertThat(leading.lost()).isFalse();
		leading.close();
		long started = System.nanoTime();
		LeaderTerm next = lead(second, WAIT);
		Duration takeover = Duration.ofNanos(System.nanoTime() - started);
		assertThat(next.epoch()).isEqualTo(2);
		assertThat(takeover).as("takeover after the leader gave up").isLessThan(FAST.pollInterval().plusSeconds(2));
		assertThat(leading.lost()).isTrue();
		assertThat(holder()).isEqualTo(second.instance());
	}

	@Test
	void aStalledLeaderIsTakenOverOnceItsLeaseLapsesOnTheTargetsClock() throws Exception {
		leaderAndStandby();
		LeaderTerm stale = this.firstTerm;
		this.stalling.stall();
		long started = System.nanoTime();
		LeaderTerm next = lead(this.standby, WAIT);
		Duration takeover = Duration.ofNanos(System.nanoTime() - started);
		// The lease lapses a lease after the last renewal, which came at most a third of it before the stall.
		assertThat(takeover).isGreaterThan(FAST.lease().minus(FAST.renewEvery()).minusMillis(200))
			.isLessThan(FAST.lease().plus(FAST.pollInterval()).plusSeconds(3));
		assertThat(next.epoch()).isEqualTo(stale.epoch() + 1);
		assertThat(stale.lost()).as("the stalled leader cannot know yet").isFalse();
		this.stalling.resume();
		Await.until("the stalled leader notices", WAIT, stale::lost);
		assertThat(stale.lossReason()).contains("connection holding the leader lock is gone");
		assertThat(next.lost()).isFalse();
	}

	@Test
	void writesOfALostTermAreRefusedAtCommit() throws Exception {
		leaderAndStandby();
		TableId table = table("t");
		LeaderTerm stale = this.firstTerm;
		JdbcReplaceApplier staleRows = applier(this.writers, table, stale);
		JdbcCheckpointStore staleCheckpoints = checkpointStore(this.writers).fencedBy(stale);
		staleRows.upsert(List.<Object[]>of(new Object[] { 1, 1 }));
		staleCheckpoints.save(List.of(checkpoint(table, 100)));
		try (Connection connection = this.writers.getConnection()) {
			connection.setAutoCommit(true);
			assertThatThrownBy(() -> FencedTransaction.run(connection, stale, (c) -> {
				try (Statement statement = c.createStatement()) {
					statement.executeUpdate("REPLACE INTO " + table.quoted() + " VALUES (2, 1)");
				}
				// The leader stalls here, with its transaction open; another instance takes over
				// without ending this writer's session, as when it may not.
				this.stalling.stall();
				this.db.server().execute(this.schema, "UPDATE " + LeaderTable.tableFor(this.checkpoints).table()
						+ " SET writer_sessions = NULL");
				lead(this.standby, WAIT);
			})).isInstanceOf(FencedOutException.class).hasMessageContaining("no longer leads");
		}
		assertThat(value(table, 2)).as("row written by the stale transaction").isNull();
		LeaderTerm next = this.terms.get(this.terms.size() - 1);
		applier(pool(), table, next).upsert(List.<Object[]>of(new Object[] { 1, 2 }));
		assertThatThrownBy(() -> staleRows.upsert(List.<Object[]>of(new Object[] { 1, 1 })))
			.isInstanceOf(ApplyException.class).hasRootCauseInstanceOf(FencedOutException.class);
		assertThatThrownBy(() -> staleCheckpoints.save(List.of(checkpoint(table, 50))))
			.hasRootCauseInstanceOf(FencedOutException.class);
		assertThat(value(table, 1)).as("the newer image").isEqualTo(2);
		assertThat(checkpointStore(this.writers).load().get(table).position()).isEqualTo(Position.of("b.000001", 100));
		this.stalling.resume();
	}

	@Test
	void aTakeoverEndsTheOpenTransactionOfAStalledLeaderSoItsRowLocksGo() throws Exception {
		leaderAndStandby();
		TableId table = table("u", "(1, 0)");
		CountDownLatch written = new CountDownLatch(1);
		CountDownLatch wake = new CountDownLatch(1);
		CompletableFuture<Void> staleWrite = updateRowOne(table, this.firstTerm, () -> {
			written.countDown();
			awaitQuietly(wake);
		});
		assertThat(written.await(30, TimeUnit.SECONDS)).isTrue();
		this.stalling.stall();
		LeaderTerm next = lead(this.standby, WAIT);
		long started = System.nanoTime();
		applier(pool(), table, next).upsert(List.<Object[]>of(new Object[] { 1, 2 }));
		assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the new leader's write of the locked row")
			.isLessThan(Duration.ofSeconds(10));
		wake.countDown();
		// Its session was ended: the transaction fails on its next statement, rolled back by the server.
		assertThatThrownBy(() -> staleWrite.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
			.satisfies((ex) -> assertThat(causes(ex)).anyMatch(SQLException.class::isInstance));
		assertThat(value(table, 1)).isEqualTo(2);
		this.stalling.resume();
	}

	@Test
	void aStandbyTakesOverFromALeaderStalledBetweenProvingItsTermAndCommitting() throws Exception {
		leaderAndStandby();
		TableId table = table("w", "(1, 0)");
		LeaderTerm stale = this.firstTerm;
		CountDownLatch verified = new CountDownLatch(1);
		CountDownLatch wake = new CountDownLatch(1);
		// The leader's writer proves its term, which holds a shared lock on the leader row until the
		// commit, and stalls before committing, as a process stopped at that instant would.
		TargetFence stallsAfterVerify = new TargetFence() {

			@Override
			public boolean active() {
				return true;
			}

			@Override
			public void enter(Connection connection) throws SQLException {
				stale.enter(connection);
			}

			@Override
			public void verify(Connection connection) throws SQLException {
				stale.verify(connection);
				verified.countDown();
				awaitQuietly(wake);
			}

			@Override
			public boolean lost() {
				return stale.lost();
			}

		};
		CompletableFuture<Void> staleWrite = updateRowOne(table, stallsAfterVerify, () -> {
		});
		assertThat(verified.await(30, TimeUnit.SECONDS)).isTrue();
		this.stalling.stall();
		long started = System.nanoTime();
		LeaderTerm next = lead(this.standby, WAIT);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).as("takeover")
			.isLessThan(FAST.lease().plus(FAST.pollInterval()).plusSeconds(5));
		applier(pool(), table, next).upsert(List.<Object[]>of(new Object[] { 1, 2 }));
		wake.countDown();
		assertThatThrownBy(() -> staleWrite.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
		assertThat(value(table, 1)).isEqualTo(2);
		this.stalling.resume();
	}

	/** Makes the first instance lead on a pool that can be stalled, with a second one as its standby. */
	private void leaderAndStandby() {
		this.stalling = new StallingDataSource(pool());
		this.writers = pool();
		this.firstTerm = lead(instance(this.stalling), WAIT);
		this.standby = instance(pool());
	}

	/** Creates a table {@code (id, v)} in the test's schema holding {@code rows}, such as {@code "(1, 0)"}. */
	private TableId table(String name, String... rows) {
		List<String> statements = new ArrayList<>();
		statements.add("CREATE TABLE " + name + " (id INT PRIMARY KEY, v INT NOT NULL)");
		for (String row : rows) {
			statements.add("INSERT INTO " + name + " VALUES " + row);
		}
		this.db.server().execute(this.schema, statements.toArray(String[]::new));
		return new TableId(this.schema, name);
	}

	/**
	 * Sets {@code v = 1} in row 1 on a writer connection, in one transaction fenced by {@code fence},
	 * on another thread; {@code afterUpdate} runs inside the transaction after the update.
	 */
	private CompletableFuture<Void> updateRowOne(TableId table, TargetFence fence, Runnable afterUpdate) {
		return CompletableFuture.runAsync(() -> {
			try (Connection connection = this.writers.getConnection()) {
				connection.setAutoCommit(true);
				FencedTransaction.run(connection, fence, (c) -> {
					try (Statement statement = c.createStatement()) {
						statement.executeUpdate("UPDATE " + table.quoted() + " SET v = 1 WHERE id = 1");
					}
					afterUpdate.run();
				});
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	private Leadership instance(DataSource pool) {
		return new Leadership(pool, this.checkpoints, "orders", FAST);
	}

	private LeaderTerm lead(Leadership leadership, Duration timeout) {
		LeaderTerm term = leadership.acquire(deadline(timeout));
		assertThat(term).as("leadership within %s: %s", timeout, leadership.lastError()).isNotNull();
		this.terms.add(term);
		return term;
	}

	private static BooleanSupplier deadline(Duration timeout) {
		Instant end = Instant.now().plus(timeout);
		return () -> Instant.now().isAfter(end);
	}

	private HikariDataSource pool() {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(this.db.jdbcUrl(null));
		pool.setUsername(this.db.server().username());
		pool.setPassword(this.db.server().password());
		pool.setMaximumPoolSize(4);
		pool.setMinimumIdle(0);
		this.pools.add(pool);
		return pool;
	}

	private JdbcReplaceApplier applier(DataSource pool, TableId table, TargetFence fence) throws SQLException {
		TableLayout layout;
		try (Connection connection = pool.getConnection()) {
			layout = LayoutReader.read(connection, table);
		}
		return new JdbcReplaceApplier(pool, table, layout, layout.columns().size(), 100, 1 << 20, fence);
	}

	private JdbcCheckpointStore checkpointStore(DataSource pool) {
		JdbcCheckpointStore store = new JdbcCheckpointStore(pool, this.checkpoints, "orders");
		store.initialize();
		return store;
	}

	private static TableCheckpoint checkpoint(TableId table, long offset) {
		return new TableCheckpoint(table, new Destination.Table(table), true,
				Position.of("b.000001", offset), null, Instant.now());
	}

	private String holder() throws SQLException {
		try (Connection connection = pool().getConnection(); Statement statement = connection.createStatement();
				var rs = statement.executeQuery("SELECT holder FROM " + LeaderTable.tableFor(this.checkpoints).quoted()
						+ " WHERE pipeline = 'orders'")) {
			return rs.next() ? rs.getString(1) : null;
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(2, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static List<Throwable> causes(Throwable error) {
		List<Throwable> chain = new ArrayList<>();
		for (Throwable current = error; current != null && chain.size() < 20; current = current.getCause()) {
			chain.add(current);
		}
		return chain;
	}

	private Integer value(TableId table, int id) throws SQLException {
		try (Connection connection = pool().getConnection(); Statement statement = connection.createStatement();
				var rs = statement.executeQuery("SELECT v FROM " + table.quoted() + " WHERE id = " + id)) {
			return rs.next() ? rs.getInt(1) : null;
		}
	}

}
