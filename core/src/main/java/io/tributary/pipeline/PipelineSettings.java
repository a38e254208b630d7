package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.tributary.apply.ChangeListener;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.ha.HaSettings;
import io.tributary.name.TableId;
import io.tributary.source.SourceSettings;

/**
 * Everything a {@link Pipeline} needs to know besides its connection pools.
 *
 * @param name name under which the pipeline's checkpoints are stored
 * @param source the source server
 * @param tables tables to replicate
 * @param flushInterval how often buffered changes are applied and the position confirmed
 * @param checkpointTable table in the target holding checkpoints
 * @param checkpointInterval least time between two checkpoint writes while streaming
 * @param copy snapshot threads and chunk sizing
 * @param batchRows most rows per apply statement
 * @param batchBytes approximate most bytes of values per apply statement
 * @param invalidCheckpointBehavior what to do with a checkpoint the source can no longer serve
 * @param bufferSoftLimitBytes bytes of buffered changes per table at or above which the reader
 * waits; negative for no limit
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
 */
public record PipelineSettings(String name, SourceSettings source, List<TableMapping> tables, Duration flushInterval,
		TableId checkpointTable, Duration checkpointInterval, CopySizing copy, int batchRows, long batchBytes,
		InvalidCheckpointBehavior invalidCheckpointBehavior, long bufferSoftLimitBytes, int flushMaxChanges,
		int applyConcurrency, ChecksumSettings checksum, ChangeListener listener, HaSettings ha, boolean flushWhenIdle) {

	public PipelineSettings {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(source, "source");
		tables = List.copyOf(tables);
		Objects.requireNonNull(checkpointTable, "checkpointTable");
		Objects.requireNonNull(invalidCheckpointBehavior, "invalidCheckpointBehavior");
		if (tables.isEmpty()) {
			throw new IllegalArgumentException("No tables to replicate: list at least one under cdc.tables");
		}
		if (flushInterval.isNegative() || flushInterval.isZero()) {
			throw new IllegalArgumentException("Flush interval must be positive, was " + flushInterval);
		}
		Objects.requireNonNull(copy, "copy");
		Objects.requireNonNull(checksum, "checksum");
		Objects.requireNonNull(ha, "ha");
		if (batchRows < 1 || batchBytes < 1 || flushMaxChanges < 1 || applyConcurrency < 1) {
			throw new IllegalArgumentException("Chunk and batch sizes must be positive");
		}
		if (tables.stream().map(TableMapping::source).distinct().count() != tables.size()) {
			throw new IllegalArgumentException("A source table is listed twice under cdc.tables");
		}
	}

	/** Creates settings that apply changes as soon as the reader is idle. */
	public PipelineSettings(String name, SourceSettings source, List<TableMapping> tables, Duration flushInterval,
			TableId checkpointTable, Duration checkpointInterval, CopySizing copy, int batchRows, long batchBytes,
			InvalidCheckpointBehavior invalidCheckpointBehavior, long bufferSoftLimitBytes, int flushMaxChanges,
			int applyConcurrency, ChecksumSettings checksum, ChangeListener listener, HaSettings ha) {
		this(name, source, tables, flushInterval, checkpointTable, checkpointInterval, copy, batchRows, batchBytes,
				invalidCheckpointBehavior, bufferSoftLimitBytes, flushMaxChanges, applyConcurrency, checksum, listener,
				ha, true);
	}

	/** Creates settings of a pipeline that runs as a single instance (no HA). */
	public PipelineSettings(String name, SourceSettings source, List<TableMapping> tables, Duration flushInterval,
			TableId checkpointTable, Duration checkpointInterval, CopySizing copy, int batchRows, long batchBytes,
			InvalidCheckpointBehavior invalidCheckpointBehavior, long bufferSoftLimitBytes, int flushMaxChanges,
			int applyConcurrency, ChecksumSettings checksum, ChangeListener listener) {
		this(name, source, tables, flushInterval, checkpointTable, checkpointInterval, copy, batchRows, batchBytes,
				invalidCheckpointBehavior, bufferSoftLimitBytes, flushMaxChanges, applyConcurrency, checksum, listener,
				HaSettings.OFF);
	}

	/** Creates settings that write changes to the tables' targets, with the default checksum settings. */
	public PipelineSettings(String name, SourceSettings source, List<TableMapping> tables, Duration flushInterval,
			TableId checkpointTable, Duration checkpointInterval, CopySizing copy, int batchRows, long batchBytes,
			InvalidCheckpointBehavior invalidCheckpointBehavior, long bufferSoftLimitBytes, int flushMaxChanges,
			int applyConcurrency) {
		this(name, source, tables, flushInterval, checkpointTable, checkpointInterval, copy, batchRows, batchBytes,
				invalidCheckpointBehavior, bufferSoftLimitBytes, flushMaxChanges, applyConcurrency, ChecksumSettings.DEFAULTS,
				null);
	}

	/** Returns whether changes go to a {@link ChangeListener} rather than to target tables. */
	public boolean listenerMode() {
		return this.listener != null;
	}

	/** Returns settings with the defaults for everything but the source and the tables. */
	public static PipelineSettings of(SourceSettings source, List<TableMapping> tables, TableId checkpointTable) {
		return new PipelineSettings("default", source, tables, Duration.ofMillis(250), checkpointTable,
				Duration.ofSeconds(1), new CopySizing(4, 5_000, 1_000, 100_000, Duration.ofMillis(500)), 1_000,
				1024 * 1024, InvalidCheckpointBehavior.ERROR, 256L * 1024 * 1024,
				10_000, 4);
	}

	/**
	 * Returns settings under another name, as for one of several sources whose pipelines share a
	 * checkpoint table: each keeps its checkpoints, and with HA its leader lock, under its name.
	 */
	public PipelineSettings withName(String other) {
		return new PipelineSettings(other, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener,
				this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withFlushInterval(Duration interval) {
		return new PipelineSettings(this.name, this.source, this.tables, interval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withCopy(CopySizing sizing) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, sizing, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	/** Returns settings whose snapshots use chunks of exactly {@code rows} rows. */
	public PipelineSettings withChunkRows(int rows) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, new CopySizing(this.copy.threads(), rows, rows, rows, this.copy.targetChunkTime()),
				this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	/** Returns settings whose apply statements take at most {@code rows} rows. */
	public PipelineSettings withBatchRows(int rows) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, rows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withInvalidCheckpointBehavior(InvalidCheckpointBehavior behavior) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, behavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withSource(SourceSettings other) {
		return new PipelineSettings(this.name, other, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withTables(List<TableMapping> other) {
		return new PipelineSettings(this.name, this.source, other, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withBufferSoftLimitBytes(long bytes) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				bytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withFlushMaxChanges(int changes) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, changes, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withApplyConcurrency(int concurrency) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, concurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withCheckpointInterval(Duration interval) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				interval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener, this.ha, this.flushWhenIdle);
	}

	/**
	 * Returns settings that deliver every table's changes to {@code listener} instead of writing
	 * target tables: no target table is created or checked, and the target pool holds only the
	 * checkpoint table. {@code null} writes target tables again.
	 */
	public PipelineSettings withListener(ChangeListener other) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, other, this.ha, this.flushWhenIdle);
	}

	public PipelineSettings withChecksum(ChecksumSettings settings) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, settings, this.listener, this.ha, this.flushWhenIdle);
	}

	/** Returns settings that apply buffered changes when the reader is idle ({@code true}) or only at the interval. */
	public PipelineSettings withFlushWhenIdle(boolean whenIdle) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener,
				this.ha, whenIdle);
	}

	/**
	 * Returns settings under which the pipeline is one of several instances with the same settings:
	 * it waits as a standby while another leads, and its writes are fenced by its term.
	 */
	public PipelineSettings withHa(HaSettings other) {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum, this.listener,
				other, this.flushWhenIdle);
	}

}
