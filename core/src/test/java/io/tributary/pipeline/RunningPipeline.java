package io.tributary.pipeline;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;
import io.tributary.test.Await;

/**
 * A pipeline a {@link Replication} started, with the waits a test needs to watch it: for a table's
 * status, a phase, the whole pipeline's status, or every change being applied. Waits without a
 * timeout wait {@link Replication#WAIT}; a wait that runs out fails with the pipeline's status.
 * Closing it stops the pipeline gracefully.
 *
 * <pre>{@code
 * try (RunningPipeline pipeline = replication.startStreaming()) {
 *     replication.onSource("DROP TABLE t");
 *     pipeline.awaitPhase(Phase.FAILED);
 *     assertThat(pipeline.table().lastError()).contains("was dropped");
 * }
 * }</pre>
 */
public final class RunningPipeline implements AutoCloseable {

	private final Replication replication;

	private final Pipeline pipeline;

	RunningPipeline(Replication replication, Pipeline pipeline) {
		this.replication = replication;
		this.pipeline = pipeline;
	}

	/** The pipeline itself, for the calls an application makes: flush, checksum, status. */
	public Pipeline pipeline() {
		return this.pipeline;
	}

	/** The pipeline's status now. */
	public PipelineStatus status() {
		return this.pipeline.status();
	}

	/** The status of the first (usually the only) table now. */
	public TableStatus table() {
		return this.pipeline.status().tables().get(0);
	}

	/** The status of the source schema's {@code table} now. */
	public TableStatus table(String table) {
		return named(this.pipeline.status(), table);
	}

	/** Waits until the first table's status meets {@code condition}, and returns that status. */
	public TableStatus awaitTable(Predicate<TableStatus> condition) throws Exception {
		return awaitTable(condition, Replication.WAIT);
	}

	/** Waits until the first table's status meets {@code condition}, and returns that status. */
	public TableStatus awaitTable(Predicate<TableStatus> condition, Duration timeout) throws Exception {
		return awaitStatus("a condition on the first table", (status) -> condition.test(status.tables().get(0)),
				timeout).tables().get(0);
	}

	/** Waits until the status of the source schema's {@code table} meets {@code condition}. */
	public TableStatus awaitTable(String table, Predicate<TableStatus> condition) throws Exception {
		return named(awaitStatus("a condition on " + table, (status) -> condition.test(named(status, table)),
				Replication.WAIT), table);
	}

	/** Waits until the first table is in {@code phase}. */
	public TableStatus awaitPhase(Phase phase) throws Exception {
		return awaitPhase(phase, Replication.WAIT);
	}

	/** Waits until the first table is in {@code phase}. */
	public TableStatus awaitPhase(Phase phase, Duration timeout) throws Exception {
		return awaitStatus("first table " + phase, (status) -> status.tables().get(0).phase() == phase, timeout)
			.tables()
			.get(0);
	}

	/** Waits until the pipeline's status meets {@code condition}, and returns that status. */
	public PipelineStatus awaitStatus(String what, Predicate<PipelineStatus> condition, Duration timeout)
			throws Exception {
		return Await.value(what, timeout, this.pipeline::status, condition);
	}

	/** Waits until every change the source had written when called is applied ({@link Pipeline#awaitCaughtUp}). */
	public void awaitCaughtUp() throws Exception {
		awaitCaughtUp(Replication.WAIT);
	}

	/** Waits until every change the source had written when called is applied ({@link Pipeline#awaitCaughtUp}). */
	public void awaitCaughtUp(Duration timeout) throws Exception {
		this.pipeline.awaitCaughtUp(timeout);
	}

	/** Runs a checksum of the source schema's {@code table} and waits for its result. */
	public TableStatus.Checksum checksum(String table, Duration timeout) throws Exception {
		return this.pipeline.checksum(this.replication.mapping(table).source())
			.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	private TableStatus named(PipelineStatus status, String table) {
		String name = this.replication.mapping(table).source().toString();
		return status.tables()
			.stream()
			.filter((t) -> t.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(name + " is not replicated: " + status));
	}

	/** Stops the pipeline gracefully. */
	@Override
	public void close() {
		this.pipeline.close();
	}

}
