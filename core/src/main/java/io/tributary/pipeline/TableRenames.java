package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.TargetTables;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;
import io.tributary.status.TableEvent;
import io.tributary.status.TableStatus.Phase;

/**
 * Follows a table renamed on the source to a name a rule takes: the same table, with its buffer,
 * position and phase, goes on under its new name, and its target is renamed to the one the rule
 * names for it, at the rename's place in the stream and under the table's flush lock, so that
 * every change before the rename lands in the target under its old name and every change after
 * under its new one. Nothing is copied again.
 *
 * <p>A rename is followed only where that is safe without a copy; otherwise the table stops as
 * {@code DROPPED} and the new name, when a rule takes it, is copied as a table of its own: while
 * the table is being copied or checksummed (both read the old name), when its changes go to a
 * sink (a listener or a topic is named after the table and cannot be renamed), when the new
 * target exists already, and with HA, where a rename on the target could not be refused to an
 * instance that has stopped leading.
 */
final class TableRenames {

	private static final Logger logger = LoggerFactory.getLogger(TableRenames.class);

	private final PipelineRuntime runtime;

	private final TableArrivals arrivals;

	TableRenames(PipelineRuntime runtime, TableArrivals arrivals) {
		this.runtime = runtime;
		this.arrivals = arrivals;
	}

	/**
	 * Follows the rename of {@code from} to {@code to} when it can; on the reader thread.
	 * @return the table's layout under its new name, or {@code null} when it is not followed
	 * @throws IllegalStateException when the target could not be renamed; the table then stops
	 */
	TableLayout follow(TableId from, TableId to, TableLayout layout, String statement) {
		TableRuntime table = this.runtime.table(from);
		TableMapping renamed = (table != null) ? followable(table, to) : null;
		if (renamed == null) {
			return null;
		}
		TableId oldTarget = table.mapping.target();
		TableId newTarget = renamed.target();
		TableLayout next = new TableLayout(to, layout.columns(), layout.keyColumns());
		PipelineSettings settings = this.runtime.settings;
		table.flushLock.lock();
		try {
			if (!newTarget.equals(oldTarget)) {
				renameTarget(oldTarget, newTarget);
			}
			table.relayout(next, new JdbcReplaceApplier(this.runtime.target, newTarget, next,
					table.wiring.statements().width(), settings.batchRows(), settings.batchBytes(), this.runtime.fence,
					renamed.slice()));
			table.renamed(renamed);
			this.runtime.renameTable(from, to);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot rename target " + oldTarget + " to " + newTarget + ": "
					+ ex.getMessage(), ex);
		}
		finally {
			table.flushLock.unlock();
		}
		String what = "Renamed on the source to " + to + " (" + statement + "); followed under its new name"
				+ (newTarget.equals(oldTarget) ? ", its target kept" : ", its target renamed to " + newTarget);
		table.timeline.add(TableEvent.Kind.SCHEMA, what, null);
		table.recordAction("renamed", what, null);
		logger.info("Table {}: {}", from, what);
		return next;
	}

	/** Returns the table's mapping under its new name, or {@code null} when the rename is not followed. */
	private TableMapping followable(TableRuntime table, TableId to) {
		boolean settled = (table.phase() == Phase.STREAMING || table.phase() == Phase.CATCHING_UP)
				&& (table.wiring.copier() == null || table.wiring.copier().isDone()) && !table.checksums.running();
		if (!settled || table.mapping.hasSink() || table.wiring.statements() == null || this.runtime.fence.active()
				|| this.runtime.settings.rules().isEmpty() || this.runtime.table(to) != null) {
			return null;
		}
		List<TableMapping> others = this.runtime.tables().stream().filter((t) -> t != table).map((t) -> t.mapping)
			.toList();
		TableMapping renamed;
		try {
			renamed = TableRules.resolve(others, this.runtime.settings.rules(), List.of(to),
					this.arrivals.reserved(others)).stream().filter((t) -> t.source().equals(to)).findFirst().orElse(null);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
		if (renamed == null || !(renamed.destination() instanceof Destination.Table)
				|| !renamed.key().equals(table.mapping.key())) {
			return null;
		}
		try {
			boolean sameTarget = renamed.target().equals(table.mapping.target());
			return (sameTarget || !TargetTables.exists(this.runtime.target, renamed.target())) ? renamed : null;
		}
		catch (SQLException ex) {
			return null;
		}
	}

	private void renameTarget(TableId from, TableId to) throws SQLException {
		try (Connection connection = this.runtime.target.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE IF NOT EXISTS " + TableId.quote(to.schema()));
			statement.execute("RENAME TABLE " + from.quoted() + " TO " + to.quoted());
		}
	}

}
