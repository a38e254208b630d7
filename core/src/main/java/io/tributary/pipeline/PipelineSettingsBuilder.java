package io.tributary.pipeline;

import java.time.Duration;
import java.util.List;

import io.tributary.apply.ChangeListener;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.ha.HaSettings;
import io.tributary.name.TableId;
import io.tributary.settings.SettingNames;
import io.tributary.source.SourceSettings;

/**
 * Builds {@link PipelineSettings}, starting from the {@link PipelineSettings.Defaults}; each method sets the
 * record component of its name.
 */
public final class PipelineSettingsBuilder {

	private String name = PipelineSettings.Defaults.NAME;

	private SourceSettings source;

	private List<TableMapping> tables;

	private Duration flushInterval = PipelineSettings.Defaults.FLUSH_INTERVAL;

	private TableId checkpointTable;

	private Duration checkpointInterval = PipelineSettings.Defaults.CHECKPOINT_INTERVAL;

	private CopySizing copy = CopySizing.DEFAULTS;

	private int batchRows = PipelineSettings.Defaults.BATCH_ROWS;

	private long batchBytes = PipelineSettings.Defaults.BATCH_BYTES;

	private InvalidCheckpointBehavior invalidCheckpointBehavior = PipelineSettings.Defaults.INVALID_CHECKPOINT_BEHAVIOR;

	private long bufferSoftLimitBytes = PipelineSettings.Defaults.BUFFER_SOFT_LIMIT_BYTES;

	private long bufferBudgetBytes = PipelineSettings.Defaults.BUFFER_BUDGET_BYTES;

	private int flushMaxChanges = PipelineSettings.Defaults.FLUSH_MAX_CHANGES;

	private int applyConcurrency = PipelineSettings.Defaults.APPLY_CONCURRENCY;

	private ChecksumSettings checksum = ChecksumSettings.DEFAULTS;

	private ChangeListener listener;

	private HaSettings ha = HaSettings.OFF;

	private boolean flushWhenIdle = PipelineSettings.Defaults.FLUSH_WHEN_IDLE;

	private SettingNames settingNames = SettingNames.ENGINE;

	private List<TableRule> rules = List.of();

	PipelineSettingsBuilder(SourceSettings source, List<TableMapping> tables, TableId checkpointTable) {
		this.source = source;
		this.tables = tables;
		this.checkpointTable = checkpointTable;
	}

	PipelineSettingsBuilder(PipelineSettings settings) {
		this.name = settings.name();
		this.source = settings.source();
		this.tables = settings.tables();
		this.flushInterval = settings.flushInterval();
		this.checkpointTable = settings.checkpointTable();
		this.checkpointInterval = settings.checkpointInterval();
		this.copy = settings.copy();
		this.batchRows = settings.batchRows();
		this.batchBytes = settings.batchBytes();
		this.invalidCheckpointBehavior = settings.invalidCheckpointBehavior();
		this.bufferSoftLimitBytes = settings.bufferSoftLimitBytes();
		this.bufferBudgetBytes = settings.bufferBudgetBytes();
		this.flushMaxChanges = settings.flushMaxChanges();
		this.applyConcurrency = settings.applyConcurrency();
		this.checksum = settings.checksum();
		this.listener = settings.listener();
		this.ha = settings.ha();
		this.flushWhenIdle = settings.flushWhenIdle();
		this.settingNames = settings.settingNames();
		this.rules = settings.rules();
	}

	public PipelineSettingsBuilder name(String value) {
		this.name = value;
		return this;
	}

	public PipelineSettingsBuilder source(SourceSettings value) {
		this.source = value;
		return this;
	}

	public PipelineSettingsBuilder tables(List<TableMapping> value) {
		this.tables = value;
		return this;
	}

	public PipelineSettingsBuilder flushInterval(Duration value) {
		this.flushInterval = value;
		return this;
	}

	public PipelineSettingsBuilder checkpointTable(TableId value) {
		this.checkpointTable = value;
		return this;
	}

	public PipelineSettingsBuilder checkpointInterval(Duration value) {
		this.checkpointInterval = value;
		return this;
	}

	public PipelineSettingsBuilder copy(CopySizing value) {
		this.copy = value;
		return this;
	}

	public PipelineSettingsBuilder batchRows(int value) {
		this.batchRows = value;
		return this;
	}

	public PipelineSettingsBuilder batchBytes(long value) {
		this.batchBytes = value;
		return this;
	}

	public PipelineSettingsBuilder invalidCheckpointBehavior(InvalidCheckpointBehavior value) {
		this.invalidCheckpointBehavior = value;
		return this;
	}

	/** Sets the buffer's soft limit; negative for none. */
	public PipelineSettingsBuilder bufferSoftLimitBytes(long value) {
		this.bufferSoftLimitBytes = value;
		return this;
	}

	/** Sets the budget of all the pipeline's buffers together; negative for none. */
	public PipelineSettingsBuilder bufferBudgetBytes(long value) {
		this.bufferBudgetBytes = value;
		return this;
	}

	public PipelineSettingsBuilder flushMaxChanges(int value) {
		this.flushMaxChanges = value;
		return this;
	}

	public PipelineSettingsBuilder applyConcurrency(int value) {
		this.applyConcurrency = value;
		return this;
	}

	public PipelineSettingsBuilder checksum(ChecksumSettings value) {
		this.checksum = value;
		return this;
	}

	/** Sets the listener that receives every table's changes, or {@code null} to write target tables. */
	public PipelineSettingsBuilder listener(ChangeListener value) {
		this.listener = value;
		return this;
	}

	public PipelineSettingsBuilder ha(HaSettings value) {
		this.ha = value;
		return this;
	}

	public PipelineSettingsBuilder flushWhenIdle(boolean value) {
		this.flushWhenIdle = value;
		return this;
	}

	/** Sets how messages name the settings, as for settings built from a configuration of another kind. */
	public PipelineSettingsBuilder settingNames(SettingNames value) {
		this.settingNames = value;
		return this;
	}

	/** Sets the rules that take tables by pattern. */
	public PipelineSettingsBuilder rules(List<TableRule> value) {
		this.rules = value;
		return this;
	}

	/**
	 * Returns the settings.
	 * @throws IllegalArgumentException when a value is out of range, or no table is listed
	 */
	public PipelineSettings build() {
		return new PipelineSettings(this.name, this.source, this.tables, this.flushInterval, this.checkpointTable,
				this.checkpointInterval, this.copy, this.batchRows, this.batchBytes, this.invalidCheckpointBehavior,
				this.bufferSoftLimitBytes, this.bufferBudgetBytes, this.flushMaxChanges, this.applyConcurrency, this.checksum,
				this.listener, this.ha, this.flushWhenIdle, this.settingNames, this.rules);
	}

}
