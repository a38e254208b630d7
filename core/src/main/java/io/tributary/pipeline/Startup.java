package io.tributary.pipeline;

import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.SinkUnavailableException;
import io.tributary.apply.TargetTables;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.ha.Leadership;
import io.tributary.jdbc.RetryPolicy;
import io.tributary.name.TableId;
import io.tributary.source.Position;
import io.tributary.source.binlog.Preflight;
import io.tributary.source.binlog.ServerInfo;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.Causes;
import io.tributary.status.TableStatus.Phase;

/**
 * Gets a pipeline ready to stream: checks the source, loads the checkpoints, prepares every table
 * and chooses where the binlog is read from: the oldest checkpoint of a resuming table, or the head
 * read before any snapshot starts when none resumes. Unreachable databases and server settings
 * that a {@code SET GLOBAL} fixes are retried with a growing pause; a problem of one table stops
 * only that table.
 */
final class Startup {

	private static final Logger logger = LoggerFactory.getLogger(Startup.class);

	/** Pauses between attempts to prepare: from 500 ms up to 30 s, for as long as it takes. */
	private static final RetryPolicy PREPARING = RetryPolicy.untilStopped(Duration.ofMillis(500),
			Duration.ofSeconds(30));

	private final PipelineRuntime runtime;

	private final TableSetup tableSetup;

	private final TableArrivals arrivals;

	Startup(PipelineRuntime runtime, TableSetup tableSetup, TableArrivals arrivals) {
		this.runtime = runtime;
		this.tableSetup = tableSetup;
		this.arrivals = arrivals;
	}

	/**
	 * Prepares tables and finds the start position, retrying while the databases are unreachable.
	 * @return where to start reading, or {@code null} when the pipeline was stopped, or lost its
	 * leadership, first
	 */
	Position prepareWithRetry() {
		int failures = 0;
		while (!this.runtime.stopRequested() && !this.runtime.leadershipLost()) {
			try {
				Position from = prepare();
				this.runtime.prepared();
				return from;
			}
			catch (SQLException | RuntimeException ex) {
				// Unreachable databases and missing privileges heal without a restart; keep trying.
				this.runtime.preparingFailed("Cannot prepare replication: " + Causes.describe(ex));
				Duration pause = PREPARING.pause(++failures);
				logger.warn("{}; retrying in {} ms", this.runtime.lastError(), pause.toMillis());
				this.runtime.awaitSignal(pause);
			}
		}
		return null;
	}

	private Position prepare() throws SQLException {
		PipelineSettings settings = this.runtime.settings;
		if (!settings.rules().isEmpty()) {
			takeTablesByRule(settings);
		}
		Set<TableId> keyed = this.runtime.tables().stream().map((t) -> t.mapping).filter((t) -> !t.key().isEmpty())
				.map(TableMapping::source).collect(Collectors.toSet());
		ServerInfo info = Preflight.check(this.runtime.source, settings.source(),
				this.runtime.tables().stream().map((t) -> t.mapping.source()).toList(), keyed, settings.settingNames());
		this.runtime.serverFound(info);
		// Server-wide problems are retried like an unreachable server: a SET GLOBAL fixes most of them.
		info.requireUsable();
		logger.info("Source {} is {} {} (GTID mode {})", settings.source(), info.flavor(), info.version(),
				info.gtidMode());
		this.runtime.checkpoints.initialize();
		Map<TableId, TableCheckpoint> saved = this.runtime.checkpoints.load();
		LinkedHashMap<String, Long> binaryLogs = SourceQueries.binaryLogs(this.runtime.source);
		Position resumeFrom = null;
		int snapshots = 0;
		for (TableRuntime table : this.runtime.tables()) {
			TableId id = table.mapping.source();
			if (!info.accepts(id)) {
				table.fail(info.tableProblems().get(id));
				logger.error("Table {} cannot be replicated: {}", id, table.lastError());
				continue;
			}
			try {
				resumeFrom = Position.min(resumeFrom, this.tableSetup.prepare(table, saved.get(id), binaryLogs, false));
				if (table.phase() != Phase.COPIED) {
					this.runtime.reader().subscribe(table.wiring.layout());
				}
				if (table.phase() == Phase.SNAPSHOTTING) {
					snapshots++;
				}
			}
			catch (SinkUnavailableException ex) {
				// Like an unreachable database: the whole preparation is tried again.
				throw ex;
			}
			catch (RuntimeException ex) {
				// Schema problems stop this table only.
				table.fail(ex.getMessage());
				logger.error("Table {} cannot be replicated: {}", id, ex.getMessage());
			}
		}
		// Read from this server: a table that starts here checkpoints a place in its binary log.
		Position head = SourceQueries.head(this.runtime.source).onServer(info.serverId());
		for (TableRuntime table : this.runtime.tables()) {
			if (table.phase() == Phase.CATCHING_UP) {
				table.catchUpTo(head);
			}
			table.startsAt((resumeFrom != null) ? resumeFrom : head);
		}
		if (!settings.rules().isEmpty()) {
			// Tables created since the rules took theirs, before the head the reader starts from.
			SourceQueries.baseTables(this.runtime.source).forEach(this.arrivals::appeared);
		}
		Position from = (resumeFrom != null) ? resumeFrom : head;
		logger.info("Pipeline {} starts reading {} at {}; {} of {} table(s) to snapshot", settings.name(),
				settings.source(), from, snapshots, this.runtime.tables().size());
		return from;
	}

	/**
	 * Adds the tables the rules take now. Tributary's own tables are never taken, nor, when source
	 * and target are one server, the targets, so that a rule does not take the copies it writes.
	 */
	private void takeTablesByRule(PipelineSettings settings) throws SQLException {
		List<TableId> present = SourceQueries.baseTables(this.runtime.source);
		Set<TableId> reserved = new HashSet<>();
		if (settings.checkpointTable() != null) {
			reserved.add(settings.checkpointTable());
			reserved.add(Leadership.tableNextTo(settings.checkpointTable()));
		}
		List<TableMapping> tables = TableRules.resolve(settings.tables(), settings.rules(), present, reserved);
		boolean sameServer = this.runtime.target != null && !settings.listenerMode()
				&& TargetTables.sameServer(this.runtime.source, this.runtime.target);
		if (sameServer) {
			reserved.addAll(TableRules.targets(tables));
			tables = TableRules.resolve(settings.tables(), settings.rules(), present, reserved);
		}
		this.arrivals.reserve(reserved, sameServer);
		for (TableRule rule : settings.rules()) {
			long taken = tables.stream().filter((t) -> rule.name().equals(t.rule())).count();
			logger.info("Rule {} ({}) takes {} table(s)", rule.name(), rule.include(), taken);
		}
		for (TableMapping mapping : tables) {
			this.runtime.addTable(mapping);
		}
	}

}
