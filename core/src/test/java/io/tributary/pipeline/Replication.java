package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import javax.sql.DataSource;

import io.tributary.apply.TargetDriverProperties;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.name.TableId;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.SchemaPair;
import io.tributary.test.TestDatabase;
import io.tributary.test.TestDatabaseServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fixture of a replication test: a source and a target schema on the shared test server (see
 * {@link SchemaPair} for the statements, queries and row-by-row comparison) and the settings of a
 * pipeline between them, which the test starts as a {@link RunningPipeline} and watches.
 *
 * <pre>{@code
 * @ExtendWith(DatabaseExtension.class)
 * class SomeRaceIT {
 *
 *     @Test
 *     void changeDuringTheRaceConverges(TestDatabase db) throws Exception {
 *         Replication replication = Replication.of(db, "race").withSettings((s) -> s.withChunkRows(1_000));
 *         replication.onSource("CREATE TABLE t (id INT PRIMARY KEY, v INT)", "INSERT INTO t VALUES (1, 0)");
 *         try (RunningPipeline pipeline = replication.startStreaming()) {
 *             replication.onSource("UPDATE t SET v = 1 WHERE id = 1");
 *             pipeline.awaitTable((t) -> t.keysAdded() > 0);
 *             pipeline.awaitCaughtUp();
 *             replication.assertEqual("t");
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Source and target are on the shared server, or the source on a server the test started for
 * itself ({@link #of(TestDatabase, String, TestDatabaseServer)}), which it may stop, kill or fail
 * over to a replica ({@link #withSourceServer}) while the target stays reachable.
 *
 * <p>It replicates {@code <name>_src.t} to {@code <name>_dst.t} unless {@link #replicating} names
 * other tables, with the checkpoint table {@code tributary_checkpoint} in the target schema, a
 * random replica server id, and a checksum after each snapshot that reports differences but
 * never repairs them: a repair must not hide a loss a test looks for. Like Spring Boot's
 * {@code ApplicationContextRunner} it is immutable: {@code replicating} and the {@code with}
 * methods return a new instance over the same schemas and the same replica server id, so one
 * test can stop a pipeline and start another that resumes from its checkpoint.
 */
public final class Replication extends SchemaPair {

	/** How long the waits without an explicit timeout wait. */
	public static final Duration WAIT = Duration.ofMinutes(1);

	private final String name;

	private final PipelineSettings settings;

	/** Another pool than the source server's for the pipeline to read the source with, or null. */
	private final DataSource readerPool;

	private Replication(TestDatabase database, String name) {
		super(database, name);
		this.name = name;
		this.settings = defaults(database.server(), source(), target());
		this.readerPool = null;
	}

	private Replication(TestDatabase database, String name, TestDatabaseServer sourceServer) {
		super(database, name, sourceServer);
		this.name = name;
		this.settings = defaults(sourceServer, source(), target());
		this.readerPool = null;
	}

	private Replication(Replication other, TestDatabaseServer sourceServer, PipelineSettings settings,
			DataSource readerPool) {
		super(other, sourceServer);
		this.name = other.name;
		this.settings = settings;
		this.readerPool = readerPool;
	}

	/**
	 * Replicates table {@code t} from the schema {@code <name>_src} to {@code <name>_dst}, which are
	 * created empty the first time the test class names them.
	 */
	public static Replication of(TestDatabase database, String name) {
		return new Replication(database, name);
	}

	/**
	 * Replicates table {@code t} from the schema {@code <name>_src} on {@code sourceServer}, a server
	 * the test started for itself and may stop, kill or fail over, where it is created empty, to
	 * {@code <name>_dst} on the shared server.
	 */
	public static Replication of(TestDatabase database, String name, TestDatabaseServer sourceServer) {
		return new Replication(database, name, sourceServer);
	}

	private static PipelineSettings defaults(TestDatabaseServer sourceServer, String source, String target) {
		SourceSettings server = new SourceSettings(sourceServer.host(), sourceServer.port(), sourceServer.username(),
				sourceServer.password(), 10_000 + ThreadLocalRandom.current().nextInt(1_000_000), Duration.ofSeconds(10),
				Duration.ofSeconds(1));
		return PipelineSettings
			.of(server, List.of(new TableMapping(new TableId(source, "t"), new TableId(target, "t"))),
					new TableId(target, "tributary_checkpoint"))
			.withChecksum(ChecksumSettings.DEFAULTS.withFixDifferences(false));
	}

	/** Replicates these tables of the source schema, each to the table of the same name in the target. */
	public Replication replicating(String... tables) {
		return withSettings((s) -> s.withTables(Arrays.stream(tables).map(this::mapping).toList()));
	}

	/** Replicates with settings changed, for example {@code withSettings((s) -> s.withChunkRows(1_000))}. */
	public Replication withSettings(UnaryOperator<PipelineSettings> change) {
		return new Replication(this, sourceServer(), change.apply(this.settings), this.readerPool);
	}

	/** Reads the source through another pool, for example one that logs in as another account. */
	public Replication withSourcePool(DataSource pool) {
		return new Replication(this, sourceServer(), this.settings, pool);
	}

	/**
	 * Replicates the same schemas from another server that holds the source schema already, such as
	 * a promoted replica: the pipeline's host and port change, everything else stays, as when an
	 * application's configuration is pointed at the new primary. Nothing is created.
	 */
	public Replication withSourceServer(TestDatabaseServer server) {
		SourceSettings moved = this.settings.source().withAddress(server.host(), server.port());
		return new Replication(this, server, this.settings.withSource(moved), null);
	}

	/** The settings a started pipeline gets. */
	public PipelineSettings settings() {
		return this.settings;
	}

	/** Maps the source schema's {@code table} to the target schema's table of that name. */
	public TableMapping mapping(String table) {
		return new TableMapping(new TableId(source(), table), new TableId(target(), table));
	}

	/** Starts a pipeline; close it to stop it gracefully. */
	public RunningPipeline start() {
		return start((pipeline) -> {
		});
	}

	/**
	 * Starts a pipeline after {@code beforeStart} has seen it, for instance to install a test hook
	 * such as {@code observeChunks} that must be in place before the copy begins. Its target pool
	 * streams snapshot chunks as Tributary's own pool does by default
	 * ({@link TargetDriverProperties#streamedLoads()}): a server with {@code local_infile=ON}
	 * (MariaDB's default) gets them loaded, one with it off (MySQL 8.0's default) as statements,
	 * so the tests of the copy cover both paths.
	 */
	public RunningPipeline start(Consumer<Pipeline> beforeStart) {
		return start(database().server().dataSource(null, TargetDriverProperties.streamedLoads()), beforeStart);
	}

	/**
	 * Starts a pipeline that writes through {@code target}, as another instance of the application
	 * with a pool of its own would, after {@code beforeStart} has seen it. A source on the shared
	 * server is read through {@code target} too, so that each instance reads through its own pool.
	 */
	public RunningPipeline start(DataSource target, Consumer<Pipeline> beforeStart) {
		DataSource reader = (this.readerPool != null) ? this.readerPool
				: (sourceServer() == database().server()) ? target : sourcePool();
		Pipeline pipeline = new Pipeline(this.settings, reader, target);
		beforeStart.accept(pipeline);
		pipeline.start();
		return new RunningPipeline(this, pipeline);
	}

	/** Starts a pipeline and waits up to {@link #WAIT} for its first table to stream. */
	public RunningPipeline startStreaming() throws Exception {
		return startStreaming(WAIT);
	}

	/** Starts a pipeline and waits for its first table to stream; stops it again if that fails. */
	public RunningPipeline startStreaming(Duration timeout) throws Exception {
		RunningPipeline running = start();
		try {
			running.awaitPhase(Phase.STREAMING, timeout);
			return running;
		}
		catch (Exception | Error ex) {
			running.close();
			throw ex;
		}
	}

	/**
	 * Runs a pipeline until its first table streams and every change is applied, then stops it, so
	 * the next pipeline resumes from a checkpoint; each wait gets {@link #WAIT}.
	 */
	public void runUntilCaughtUp() throws Exception {
		runUntilCaughtUp(WAIT);
	}

	/** {@link #runUntilCaughtUp()} with another timeout for each wait. */
	public void runUntilCaughtUp(Duration timeout) throws Exception {
		try (RunningPipeline pipeline = startStreaming(timeout)) {
			pipeline.awaitCaughtUp(timeout);
		}
	}

	/**
	 * Runs a pipeline until its copy is about to dispatch the chunk after key {@code key} of the
	 * first table (a single integer key), holds the copy there, stops the pipeline gracefully while
	 * it is held, and returns the rows the copy landed.
	 */
	public long stopCopyAt(long key) throws Exception {
		CopyHold hold = CopyHold.atKey(key);
		RunningPipeline first = start((pipeline) -> pipeline.observeChunks(hold));
		hold.awaitHeld(Duration.ofMinutes(2));
		Thread stopping = new Thread(first::close);
		stopping.start();
		first.awaitStatus("stopping", (status) -> status.state() == PipelineStatus.State.STOPPING, WAIT);
		hold.release();
		stopping.join(120_000);
		assertThat(first.status().state()).isEqualTo(PipelineStatus.State.STOPPED);
		return first.table().rowsCopied();
	}

	/** The position the checkpoint table holds for the source schema's {@code table}. */
	public Position checkpoint(String table) throws Exception {
		String name = mapping(table).source().toString();
		String position = null;
		// The name is bound, not spliced into the statement: a table's name may hold quotes.
		try (Connection connection = pool().getConnection();
				PreparedStatement statement = connection.prepareStatement("SELECT binlog_position FROM "
						+ new TableId(target(), "tributary_checkpoint").quoted() + " WHERE source_table = ?")) {
			statement.setString(1, name);
			try (ResultSet rs = statement.executeQuery()) {
				position = rs.next() ? rs.getString(1) : null;
			}
		}
		assertThat(position).as("checkpoint of %s", name).isNotNull();
		return Position.parse(position);
	}
}
