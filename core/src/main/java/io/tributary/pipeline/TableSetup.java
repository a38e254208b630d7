package io.tributary.pipeline;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.ApplyException;
import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.ParallelApplier;
import io.tributary.apply.TargetTables;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.copy.Copier;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.SchemaException;
import io.tributary.schema.TableLayout;
import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;
import io.tributary.source.Position;
import io.tributary.source.binlog.ResumeCheck;
import io.tributary.source.binlog.StartPoints;
import io.tributary.status.TableStatus.Phase;
import io.tributary.subscription.BufferedSubscription;

/**
 * Readies one table to replicate: reads its layout, prepares its target table and applier, and
 * decides from its checkpoint whether it resumes, streams from the head or is snapshotted. Used at
 * start for every table, and again for one table when it is restarted or resnapshotted.
 */
final class TableSetup {

	private static final Logger logger = LoggerFactory.getLogger(TableSetup.class);

	private final PipelineRuntime runtime;

	TableSetup(PipelineRuntime runtime) {
		this.runtime = runtime;
	}

	/**
	 * Prepares a table; the caller subscribes the reader to its layout when the table is to take
	 * changes. On return the table's phase is {@link Phase#SNAPSHOTTING} with a copier, or
	 * {@link Phase#CATCHING_UP}.
	 * @param table the table
	 * @param checkpoint its saved checkpoint, or {@code null}
	 * @param binaryLogs the source's binary logs and their sizes, to tell whether a checkpoint can
	 * still be read; unused when {@code snapshot}
	 * @param snapshot whether to snapshot the table whatever its checkpoint says
	 * @return the position the stream must be read from for this table, or {@code null} when any
	 * position from the current head on will do
	 * @throws SQLException when a database cannot be reached
	 * @throws RuntimeException when the table cannot be replicated (layout, target or checkpoint
	 * problems); the message says why and what to do
	 */
	Position prepare(TableRuntime table, TableCheckpoint checkpoint, LinkedHashMap<String, Long> binaryLogs,
			boolean snapshot) throws SQLException {
		TableMapping mapping = table.mapping;
		PipelineSettings settings = this.runtime.settings;
		TableLayout layout;
		try (Connection connection = this.runtime.source.getConnection()) {
			layout = LayoutReader.read(connection, mapping.source(), mapping.key(), settings.settingNames());
		}
		table.wiring.layoutRead(layout);
		Copier.TargetKeys targetKeys = null;
		boolean targetMissing = false;
		if (mapping.hasSink()) {
			// No target table: each drain is one call of the sink, serialized per table.
			table.wiring.writeTo(layout, mapping.sink().open(layout));
		}
		else {
			refuseCopyOntoItself(mapping);
			targetMissing = !TargetTables.exists(this.runtime.target, mapping.target());
			boolean targetHadRows = TargetTables.prepare(this.runtime.source, this.runtime.target, layout,
					mapping.target(), "the target of " + mapping.source() + " in " + settings.settingNames().of(Setting.TABLES),
					mapping.slice());
			JdbcReplaceApplier statements = new JdbcReplaceApplier(this.runtime.target, mapping.target(), layout,
					layout.columns().size(), settings.batchRows(), settings.batchBytes(), this.runtime.fence,
					mapping.slice());
			table.wiring.writeTo(layout, statements,
					ParallelApplier.create(statements, this.runtime.applyWorkers, settings.applyConcurrency()));
			targetKeys = targetHadRows ? statements::keysIn : null;
		}
		boolean usable = !snapshot && mapping.snapshot() != SnapshotMode.ALWAYS && checkpoint != null
				&& checkpoint.position() != null && checkpoint.target().equals(mapping.destination());
		if (usable && targetMissing) {
			// A checkpoint describes rows that are no longer there: the new, empty target needs a copy.
			logger.warn("Target {} of {} was missing and has been created; snapshotting the table again instead of "
					+ "resuming from checkpoint {}", mapping.target(), mapping.source(), checkpoint.position());
			usable = false;
		}
		if (usable && checkpoint.ended() && checkpoint.snapshotDone() && mapping.snapshot() == SnapshotMode.ONLY) {
			// Copied once before: it stays where it ended, whatever the binlog holds now.
			table.takeChangesInto(buffer(layout));
			table.copied(checkpoint.position(), "copied once (snapshot only) before; its target equals the source "
					+ "table at " + checkpoint.position());
			logger.info("Table {} was copied once and stays so (snapshot only), at {}", mapping.source(),
					checkpoint.position());
			return null;
		}
		String unavailable = usable ? ResumeCheck.unavailable(checkpoint.position(), binaryLogs, this.runtime.source,
				this.runtime.server().serverId(), settings.source().gtidPositioning()) : null;
		if (unavailable != null) {
			if (settings.invalidCheckpointBehavior() == InvalidCheckpointBehavior.ERROR) {
				throw new SchemaException("The checkpoint of " + mapping.source() + " is at " + checkpoint.position()
						+ ", but " + unavailable + ". Changes made since cannot be read. Either set "
						+ settings.settingNames().of(Setting.INVALID_CHECKPOINT_BEHAVIOR)
						+ "=restart to snapshot the table again automatically, or "
						+ "resnapshot the table (the resnapshot action) to copy it again");
			}
			logger.warn("The checkpoint of {} is at {}, but {}; snapshotting the table again", mapping.source(),
					checkpoint.position(), unavailable);
			usable = false;
		}
		Position resumeFrom = null;
		if (usable && checkpoint.snapshotDone()) {
			table.startStreaming(checkpoint.position());
			resumeFrom = checkpoint.position();
			logger.info("Table {} resumes from checkpoint {}", mapping.source(), checkpoint.position());
		}
		else if (!snapshot && mapping.snapshot() == SnapshotMode.NEVER && !usable) {
			// Rows that exist already are not copied.
			resumeFrom = startPoint(mapping, binaryLogs);
			table.startStreaming(resumeFrom);
			logger.info("Table {} is not snapshotted (snapshot mode never); it streams from {}", mapping.source(),
					(resumeFrom != null) ? resumeFrom + " (start " + mapping.start() + ")" : "the source's head");
		}
		else {
			Copier copy = copier(table, layout, targetKeys);
			if (usable && checkpoint.copiedUpTo() != null) {
				// A copy cut short: continue after its last landed chunk, streaming from its position.
				copy.resumeAfter(checkpoint.copiedUpTo());
				resumeFrom = checkpoint.position();
			}
			table.startCopy(copy, resumeFrom);
		}
		table.takeChangesInto(buffer(layout));
		if (mapping.snapshot() == SnapshotMode.ONLY) {
			table.intake.endsOnce();
		}
		return resumeFrom;
	}

	private BufferedSubscription buffer(TableLayout layout) {
		PipelineSettings settings = this.runtime.settings;
		return new BufferedSubscription(layout, settings.bufferSoftLimitBytes(), settings.flushMaxChanges(),
				this.runtime::wake, this.runtime.bufferBudget);
	}

	/** Returns where a table that is not copied starts streaming, or {@code null} for the head. */
	private Position startPoint(TableMapping mapping, LinkedHashMap<String, Long> binaryLogs) throws SQLException {
		if (mapping.start() == null) {
			return null;
		}
		PipelineSettings settings = this.runtime.settings;
		String refusal;
		try {
			Position at = new StartPoints(this.runtime.source, settings.source(), settings.settingNames(),
					this.runtime.server().serverId()).resolve(mapping.start(), binaryLogs);
			refusal = (at != null) ? ResumeCheck.unavailable(at, binaryLogs, this.runtime.source,
					this.runtime.server().serverId(), settings.source().gtidPositioning()) : null;
			if (refusal == null) {
				return at;
			}
		}
		catch (IllegalArgumentException ex) {
			refusal = ex.getMessage();
		}
		catch (IOException ex) {
			refusal = "its binary log could not be read: " + ex.getMessage();
		}
		throw new SchemaException("Table " + mapping.source() + " is to start streaming at " + mapping.start()
				+ ", but " + refusal + ". Give another start point (now, gtid:<set>, <file>:<offset> or "
				+ "timestamp:<instant>), or copy the table (snapshot auto)");
	}

	private void refuseCopyOntoItself(TableMapping mapping) throws SQLException {
		if (mapping.source().toString().equalsIgnoreCase(mapping.target().toString())
				&& TargetTables.sameServer(this.runtime.source, this.runtime.target)) {
			SettingNames names = this.runtime.settings.settingNames();
			throw new SchemaException("Table " + mapping.source() + " would be copied onto itself: its target in "
					+ names.of(Setting.TABLES) + " is the same table on the same server. Set "
					+ names.of(Setting.TABLE_TARGET) + " to another schema or table, or point "
					+ names.of(Setting.TARGET_URL) + " at another server");
		}
	}

	private Copier copier(TableRuntime table, TableLayout layout, Copier.TargetKeys targetKeys) {
		Copier copier = new Copier(this.runtime.source, layout, table.wiring.applier(), this.runtime.settings.copy(),
				targetKeys);
		if (table.mapping.hasSink()) {
			// A sink that fails is given the chunk again, however long it takes; the snapshot never
			// moves past rows the sink has not accepted.
			copier.retryFailedWrites(new Copier.WriteRetries() {

				@Override
				public void failed(ApplyException failure, Duration pause) {
					table.notePassingError("Snapshot chunk not delivered, retrying in " + pause.toMillis() + " ms: "
							+ failure.getMessage());
				}

				@Override
				public void recovered() {
					table.notePassingError(null);
				}

			});
		}
		Copier.ChunkObserver observer = this.runtime.observers.chunks();
		if (observer != null) {
			copier.observe(observer);
		}
		return copier;
	}

}
