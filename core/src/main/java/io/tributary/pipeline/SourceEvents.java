package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.ApplyException;
import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.SinkApplier;
import io.tributary.apply.TargetTables;
import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.schema.SchemaException;
import io.tributary.schema.TableLayout;
import io.tributary.source.ChangeHandler;
import io.tributary.source.Position;
import io.tributary.source.RowChange;
import io.tributary.status.TableEvent;
import io.tributary.status.TableStatus.Phase;

/**
 * Routes what the binlog reader sees to the tables: row changes into their buffers, and schema
 * changes (ALTER, TRUNCATE) to the table they concern, under its flush lock so they never meet a
 * half-applied drain. A change the pipeline cannot follow fails that table only.
 */
final class SourceEvents implements ChangeHandler {

	private static final Logger logger = LoggerFactory.getLogger(SourceEvents.class);

	private final PipelineRuntime runtime;

	private final TableArrivals arrivals;

	private final TableRenames renames;

	SourceEvents(PipelineRuntime runtime, TableArrivals arrivals) {
		this.runtime = runtime;
		this.arrivals = arrivals;
		this.renames = new TableRenames(runtime, arrivals);
	}

	/** A table appeared on the source: the control thread sees, at its next cycle, whether a rule takes it. */
	@Override
	public void onTableAppeared(TableId table) {
		TableRuntime known = this.runtime.table(table);
		boolean dropped = known != null && known.phase() == Phase.DROPPED;
		if (dropped || (!this.runtime.settings.rules().isEmpty() && known == null)) {
			this.arrivals.appeared(table);
			this.runtime.wake();
		}
	}

	@Override
	public void onChange(RowChange change, Position resumeFrom) {
		TableRuntime table = this.runtime.table(change.table());
		if (table != null && table.isActive() && table.intake.takes(resumeFrom)) {
			table.wiring.subscription().add(change, resumeFrom);
		}
	}

	@Override
	public TableLayout onAlter(TableId id, TableLayout current, String statement) {
		TableRuntime table = this.runtime.table(id);
		if (table.phase() == Phase.SNAPSHOTTING) {
			throw new SchemaException("Table " + id + " was altered during its snapshot (" + statement
					+ "); resnapshot the table to copy it with its new definition");
		}
		try {
			TableLayout next;
			try (Connection connection = this.runtime.source.getConnection()) {
				next = LayoutReader.readAfterChange(connection, id, table.mapping.key(),
						this.runtime.settings.settingNames());
			}
			String change = SchemaChanges.incompatibility(current, next);
			table.timeline.add(TableEvent.Kind.SCHEMA, "Altered on the source: " + statement
					+ ((change != null) ? "; cannot be followed: " + change
							: "; followed, " + next.columns().size() + " columns (was " + current.columns().size() + ")"),
					null);
			if (change != null) {
				throw new SchemaException("Table " + id + " was altered on the source in a way Tributary cannot "
						+ "follow (" + statement + "): " + change + ". Bring the target table to the new definition "
						+ "(or drop it, and it is created again), then resnapshot the table");
			}
			if (table.wiring.sink() != null) {
				// Changes from here on carry the new column list.
				table.relayout(next, null);
				if (next.columns().size() != current.columns().size()) {
					logger.info("Table {} gained {} column(s); changes for {} carry them from now on", id,
							next.columns().size() - current.columns().size(), table.mapping.destination().describe());
				}
				return next;
			}
			if (next.columns().size() == current.columns().size()) {
				return next;
			}
			List<String[]> targetColumns = TargetTables.columns(this.runtime.target, table.mapping.target());
			int width = SchemaChanges.writableWidth(next, targetColumns, current.columns().size());
			if (width < next.columns().size()) {
				logger.warn("Columns added to {} at the end are not in target {} and are not replicated; add them "
						+ "to the target (same names and types) and they will be from the next change on", id,
						table.mapping.target());
			}
			else {
				logger.info("Table {} gained {} column(s); replicating them into {}", id,
						next.columns().size() - current.columns().size(), table.mapping.target());
			}
			table.relayout(next, new JdbcReplaceApplier(this.runtime.target, table.mapping.target(), next, width,
					this.runtime.settings.batchRows(), this.runtime.settings.batchBytes(), this.runtime.fence,
					table.mapping.slice()));
			return next;
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot re-read the layout of " + id + " after " + statement + ": "
					+ ex.getMessage(), ex);
		}
	}

	@Override
	public void onTruncate(TableId id) {
		TableRuntime table = this.runtime.table(id);
		if (table.phase() == Phase.SNAPSHOTTING) {
			throw new SchemaException("Table " + id + " was truncated during its snapshot; resnapshot the table");
		}
		table.timeline.add(TableEvent.Kind.SCHEMA,
				"Truncated on the source; its buffered changes were dropped and the truncation passed on", null);
		table.flushLock.lock();
		try {
			table.wiring.subscription().clear();
			if (table.wiring.sink() != null) {
				truncateForSink(table, table.wiring.sink());
			}
			else {
				table.wiring.statements().truncate();
				logger.info("Table {} was truncated on the source; truncated {}", id, table.mapping.target());
			}
		}
		finally {
			table.flushLock.unlock();
		}
	}

	/**
	 * Hands a TRUNCATE to the table's sink. One it cannot handle stops the table (the reader fails
	 * it on the exception) with its checkpoint before the truncation, so that a restart with a
	 * fixed sink reads the truncation again.
	 */
	private void truncateForSink(TableRuntime table, SinkApplier sink) {
		TableId id = table.mapping.source();
		try {
			sink.truncate();
			logger.info("Table {} was truncated on the source; {} was told", id, table.mapping.destination().describe());
		}
		catch (ApplyException ex) {
			throw new SchemaException("Table " + id + " was truncated on the source: " + ex.getMessage());
		}
	}

	/**
	 * The reader went back to an earlier position for the tables waiting for it (a resume or a
	 * restart): they become active now, before the first replayed event. Every other table already
	 * holds the changes before {@code replayUntil} and skips them.
	 */
	@Override
	public void onRewind(Position replayUntil) {
		List<TableRuntime> waiting = new ArrayList<>();
		for (TableRuntime table : this.runtime.tables()) {
			if (table.intake.waitsForRewind()) {
				waiting.add(table);
			}
			else {
				table.intake.skipReplayUntil(replayUntil);
			}
		}
		for (TableRuntime table : waiting) {
			table.intake.rewound(this.runtime::nextActivation);
			logger.info("Table {} reads again from {}", table.mapping.source(), table.confirmed());
		}
	}

	@Override
	public void onCaughtUp() {
		this.runtime.readerIdle();
	}

	@Override
	public TableLayout onTableRenamed(TableId from, TableId to, TableLayout layout, String statement) {
		return this.renames.follow(from, to, layout, statement);
	}

	@Override
	public void onTableDropped(TableId id, String what) {
		TableRuntime table = this.runtime.table(id);
		if (table != null && !table.phase().isStopped()) {
			table.drop(what);
		}
	}

	@Override
	public void onTableFailed(TableId id, RuntimeException error) {
		TableRuntime table = this.runtime.table(id);
		if (table != null) {
			// What the reader cannot follow is a change of layout: the table must be copied again.
			table.failUnfollowable(error.getMessage());
		}
	}

}
