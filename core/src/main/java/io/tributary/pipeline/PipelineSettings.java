package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.tributary.apply.ChangeListener;
import io.tributary.apply.ParallelApplier;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.ha.HaSettings;
import io.tributary.name.TableId;
import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;
import io.tributary.source.SourceSettings;

/**
 * Everything a {@link Pipeline} needs to know besides its connection pools. Built with
 * {@link #builder}, which starts from the {@link Defaults}:
 *
 * <pre>{@code
 * PipelineSettings settings = PipelineSettings.builder(source, tables, checkpointTable)
 *         .flushInterval(Duration.ofMillis(100))
 *         .build();
 * }</pre>
 *
 * @param name name under which the pipeline's checkpoints are stored
 * @param source the source server
 * @param tables tables to replicate, each listed on its own
 * @param flushInterval how often buffered changes are applied and the position confirmed
 * @param checkpointTable table in the target holding checkpoints, or {@code null} when the pipeline
 * is given a {@code CheckpointStore} of its own and has no HA (whose leader table sits next to it)
 * @param checkpointInterval least time between two checkpoint writes while streaming
 * @param copy snapshot threads and chunk sizing
 * @param batchRows most rows per apply statement
 * @param batchBytes approximate most bytes of values per apply statement
 * @param invalidCheckpointBehavior what to do with a checkpoint the source can no longer serve
 * @param bufferSoftLimitBytes bytes of buffered changes per table at or above which the reader
 * waits; negative for no limit
 * @param bufferBudgetBytes bytes of buffered changes of all the pipeline's tables together at or
 * above which the reader waits, as under a table's soft limit; negative for no budget
 * @param flushMaxChanges buffered changes of one table at which a flush starts before the interval
 * is up
 * @param applyConcurrency most statements applying changes at once
 * @param checksum when and how tables are compared with their targets
 * @param listener receives every table's changes instead of target tables (listener mode), or
 * {@code null} to write them to the tables' targets; in listener mode the tables' targets are not
 * used and the target pool holds only the checkpoint table
 * @param ha whether the pipeline is one of several instances of which one leads, and its lease
 * @param flushWhenIdle whether buffered changes are applied as soon as the reader has read all the
 * source has sent, rather than at the next interval; a key changed again within an interval still
 * waits for the interval
 * @param settingNames how the pipeline's messages name the settings they point to; the names of
 * this API unless the settings were built from configuration of another kind
 * @param rules rules that take the source's tables by pattern, each of which is then replicated
 * like a table listed on its own; which tables they take is decided each time the pipeline
 * prepares
 */
public record PipelineSettings(String name, SourceSettings source, List<TableMapping> tables, Duration flushInterval,
		TableId checkpointTable, Duration checkpointInterval, CopySizing copy, int batchRows, long batchBytes,
		InvalidCheckpointBehavior invalidCheckpointBehavior, long bufferSoftLimitBytes, long bufferBudgetBytes,
		int flushMaxChanges,
		int applyConcurrency, ChecksumSettings checksum, ChangeListener listener, HaSettings ha, boolean flushWhenIdle,
		SettingNames settingNames, List<TableRule> rules) {

	public PipelineSettings {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(source, "source");
		tables = List.copyOf(tables);
		rules = (rules != null) ? List.copyOf(rules) : List.of();
		Objects.requireNonNull(invalidCheckpointBehavior, "invalidCheckpointBehavior");
		Objects.requireNonNull(settingNames, "settingNames");
		if (tables.isEmpty() && rules.isEmpty()) {
			throw new IllegalArgumentException("No tables to replicate: list at least one in " + settingNames.of(Setting.TABLES));
		}
		if (rules.stream().map(TableRule::name).distinct().count() != rules.size()) {
			throw new IllegalArgumentException("Two table rules have one name; name each rule apart");
		}
		if (flushInterval.isNegative() || flushInterval.isZero()) {
			throw new IllegalArgumentException("Flush interval must be positive, was " + flushInterval);
		}
		Objects.requireNonNull(copy, "copy");
		Objects.requireNonNull(checksum, "checksum");
		Objects.requireNonNull(ha, "ha");
		if (ha.enabled() && checkpointTable == null) {
			throw new IllegalArgumentException("HA needs a checkpoint table: its leader table sits next to it");
		}
		if (bufferBudgetBytes == 0) {
			throw new IllegalArgumentException("A buffer budget of 0 would stop the reader before every change of a new "
					+ "key; use a positive size, or a negative one for no budget");
		}
		if (batchRows < 1 || batchBytes < 1 || flushMaxChanges < 1 || applyConcurrency < 1) {
			throw new IllegalArgumentException("Chunk and batch sizes must be positive");
		}
		if (tables.stream().map(TableMapping::source).distinct().count() != tables.size()) {
			throw new IllegalArgumentException("A source table is listed twice in " + settingNames.of(Setting.TABLES));
		}
	}

	/**
	 * Starts settings for the given source, tables and checkpoint table, with the {@link Defaults}
	 * for everything else.
	 * @param source the source server
	 * @param tables tables to replicate
	 * @param checkpointTable table in the target holding checkpoints, or {@code null} (see the record)
	 * @return a builder
	 */
	public static PipelineSettingsBuilder builder(SourceSettings source, List<TableMapping> tables, TableId checkpointTable) {
		return new PipelineSettingsBuilder(source, tables, checkpointTable);
	}

	/** Returns settings with the {@link Defaults} for everything but the source and the tables. */
	public static PipelineSettings of(SourceSettings source, List<TableMapping> tables, TableId checkpointTable) {
		return builder(source, tables, checkpointTable).build();
	}

	/** Returns a builder that starts from these settings. */
	public PipelineSettingsBuilder toBuilder() {
		return new PipelineSettingsBuilder(this);
	}

	/** Returns whether changes go to a {@link ChangeListener} rather than to target tables. */
	public boolean listenerMode() {
		return this.listener != null;
	}

	/**
	 * Returns settings under another name, as for one of several sources whose pipelines share a
	 * checkpoint table: each keeps its checkpoints, and with HA its leader lock, under its name.
	 */
	public PipelineSettings withName(String other) {
		return toBuilder().name(other).build();
	}

	public PipelineSettings withFlushInterval(Duration interval) {
		return toBuilder().flushInterval(interval).build();
	}

	public PipelineSettings withCopy(CopySizing sizing) {
		return toBuilder().copy(sizing).build();
	}

	/** Returns settings whose snapshots use chunks of exactly {@code rows} rows. */
	public PipelineSettings withChunkRows(int rows) {
		return toBuilder().copy(new CopySizing(this.copy.threads(), rows, rows, rows, this.copy.targetChunkTime()))
			.build();
	}

	/** Returns settings whose apply statements take at most {@code rows} rows. */
	public PipelineSettings withBatchRows(int rows) {
		return toBuilder().batchRows(rows).build();
	}

	public PipelineSettings withInvalidCheckpointBehavior(InvalidCheckpointBehavior behavior) {
		return toBuilder().invalidCheckpointBehavior(behavior).build();
	}

	public PipelineSettings withSource(SourceSettings other) {
		return toBuilder().source(other).build();
	}

	public PipelineSettings withTables(List<TableMapping> other) {
		return toBuilder().tables(other).build();
	}

	public PipelineSettings withBufferSoftLimitBytes(long bytes) {
		return toBuilder().bufferSoftLimitBytes(bytes).build();
	}

	public PipelineSettings withBufferBudgetBytes(long bytes) {
		return toBuilder().bufferBudgetBytes(bytes).build();
	}

	public PipelineSettings withFlushMaxChanges(int changes) {
		return toBuilder().flushMaxChanges(changes).build();
	}

	public PipelineSettings withApplyConcurrency(int concurrency) {
		return toBuilder().applyConcurrency(concurrency).build();
	}

	public PipelineSettings withCheckpointInterval(Duration interval) {
		return toBuilder().checkpointInterval(interval).build();
	}

	/**
	 * Returns settings that deliver every table's changes to {@code listener} instead of writing
	 * target tables: no target table is created or checked, and the target pool holds only the
	 * checkpoint table. {@code null} writes target tables again.
	 */
	public PipelineSettings withListener(ChangeListener other) {
		return toBuilder().listener(other).build();
	}

	public PipelineSettings withChecksum(ChecksumSettings settings) {
		return toBuilder().checksum(settings).build();
	}

	/** Returns settings that apply buffered changes when the reader is idle ({@code true}) or only at the interval. */
	public PipelineSettings withFlushWhenIdle(boolean whenIdle) {
		return toBuilder().flushWhenIdle(whenIdle).build();
	}

	/**
	 * Returns settings under which the pipeline is one of several instances with the same settings:
	 * it waits as a standby while another leads, and its writes are fenced by its term.
	 */
	public PipelineSettings withHa(HaSettings other) {
		return toBuilder().ha(other).build();
	}

	/**
	 * What a pipeline does unless told otherwise. Each default is declared here or, for the settings
	 * of one part, by that part ({@link CopySizing#DEFAULTS}, {@link ChecksumSettings#DEFAULTS},
	 * {@link ParallelApplier#DEFAULT_CONCURRENCY}, {@link HaSettings#OFF}, {@link SettingNames#ENGINE});
	 * the Spring Boot properties start from these values too.
	 */
	public static final class Defaults {

		/** Name under which a single pipeline keeps its checkpoints. */
		public static final String NAME = "default";

		/** Short enough that a change reaches the target within a fraction of a second. */
		public static final Duration FLUSH_INTERVAL = Duration.ofMillis(250);

		/** Buffered changes are applied as soon as the reader has read all the source has sent. */
		public static final boolean FLUSH_WHEN_IDLE = true;

		/** Buffered changes of one table at which a flush starts before the interval is up. */
		public static final int FLUSH_MAX_CHANGES = 10_000;

		/** A crash replays at most about this much of the stream. */
		public static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

		/** Most rows per apply statement. */
		public static final int BATCH_ROWS = 1_000;

		/** Approximate most bytes of values per apply statement: 1 MiB. */
		public static final long BATCH_BYTES = 1024 * 1024;

		/** Bytes of buffered changes per table at which the reader waits: 256 MiB. */
		public static final long BUFFER_SOFT_LIMIT_BYTES = 256L * 1024 * 1024;

		/**
		 * Bytes of buffered changes of all of a pipeline's tables at which the reader waits: a
		 * quarter of the JVM's maximum heap. It follows {@code -Xmx} and a container's memory, which
		 * a fixed size cannot, and leaves three quarters for what the budget does not count: the
		 * estimate's error, snapshot chunks, statements being built, and the application itself.
		 */
		public static final long BUFFER_BUDGET_BYTES = Runtime.getRuntime().maxMemory() / 4;

		/** A checkpoint the source can no longer serve stops its table rather than copying it again. */
		public static final InvalidCheckpointBehavior INVALID_CHECKPOINT_BEHAVIOR = InvalidCheckpointBehavior.ERROR;

		/** Most statements applying changes at once. */
		public static final int APPLY_CONCURRENCY = ParallelApplier.DEFAULT_CONCURRENCY;

		private Defaults() {
		}

	}

}
