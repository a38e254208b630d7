package io.tributary.pipeline;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.TargetTables;
import io.tributary.checkpoint.TableCheckpoint;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.source.Position;
import io.tributary.source.binlog.ResumeCheck;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.TableStatus.Phase;

/**
 * Acts on one table while the others keep streaming: pause, resume, resnapshot and restart.
 *
 * <p>A paused table leaves the shared reader alone: it drops its buffer and stops taking changes,
 * so it can never hold the reader at its soft limit, and it keeps its confirmed position. Resuming
 * (and restarting a failed table from its checkpoint) rewinds the shared reader to that position;
 * the tables that are ahead skip what they already hold, so only the resumed table sees the replay.
 * A table becomes active again only at the rewind itself, after the reader's delivered position
 * went back, so no cycle can confirm a position the replay has not reached.
 *
 * <p>Actions run one at a time and are refused with a message when they make no sense. Who asked
 * for one, when known, is named in the table's last action and the log line.
 */
final class TableControl {

	private static final Logger logger = LoggerFactory.getLogger(TableControl.class);

	private final PipelineRuntime runtime;

	private final TableSetup setup;

	private final SnapshotQueue snapshots;

	TableControl(PipelineRuntime runtime, TableSetup setup, SnapshotQueue snapshots) {
		this.runtime = runtime;
		this.setup = setup;
		this.snapshots = snapshots;
	}

	synchronized void pause(TableId id, String requestedBy) {
		TableRuntime table = actionable(id, "pause");
		switch (table.phase()) {
			case PAUSED -> throw refused(id, "pause", "it is already paused; resume it to apply its changes again");
			case FAILED -> throw refused(id, "pause", "it has failed; fix the cause and restart it");
			case SNAPSHOTTING -> throw refused(id, "pause", "it is being snapshotted; pause it once the snapshot is "
					+ "done, or let the snapshot finish");
			default -> {
			}
		}
		// Noted first, so the timeline reads as asked, then done.
		String detail = "nothing is applied; resume reads again from " + table.confirmed();
		table.recordAction("pause", detail, requestedBy);
		table.pause();
		this.runtime.reader().unsubscribe(id);
		logger.info("Table {} paused: {}{}", id, detail, by(requestedBy));
	}

	synchronized void resume(TableId id, String requestedBy) throws SQLException {
		TableRuntime table = actionable(id, "resume");
		if (table.phase() != Phase.PAUSED) {
			throw refused(id, "resume", "it is " + table.phase() + ", not paused");
		}
		Position from = table.confirmed();
		String unavailable = ResumeCheck.unavailable(from, SourceQueries.binaryLogs(this.runtime.source),
				this.runtime.source, this.runtime.server().serverId(), this.runtime.settings.source().gtidPositioning());
		if (unavailable != null) {
			throw refused(id, "resume", "it was paused at " + from + ", but " + unavailable
					+ "; the changes since cannot be read. Resnapshot it instead");
		}
		Position head = SourceQueries.headFileOffset(this.runtime.source);
		String detail = "reading again from " + from;
		table.recordAction("resume", detail, requestedBy);
		// A change may have slipped in while the pause took effect; the replay brings it again.
		replayFrom(table, from, () -> table.catchUpAfterReplay(head));
		logger.info("Table {} resumes: {}{}", id, detail, by(requestedBy));
	}

	synchronized void resnapshot(TableId id, String requestedBy) throws SQLException {
		TableRuntime table = actionable(id, "resnapshot");
		if (table.mapping.hasSink()) {
			throw refused(id, "resnapshot", "its changes go to " + table.mapping.destination().describe()
					+ ", which could not be told of rows deleted meanwhile; delete its row from the checkpoint table and "
					+ "restart the application instead");
		}
		if (table.phase() == Phase.SNAPSHOTTING) {
			throw refused(id, "resnapshot", "it is being snapshotted already");
		}
		copyAgain(table, "resnapshot", "", requestedBy);
	}

	/** Adds a table an operator asked for; see {@link Pipeline#addTable}. */
	void addOnRequest(TableId source, TableId target, String requestedBy) throws SQLException {
		PipelineSettings settings = this.runtime.settings;
		if (settings.listenerMode() != (target == null)) {
			throw new IllegalArgumentException("Cannot add " + source + ": " + (settings.listenerMode()
					? "the ChangeListener takes its changes; name no target" : "name its target table"));
		}
		if (this.runtime.table(source) != null) {
			throw refused(source, "add", "it is replicated already");
		}
		if (target != null) {
			boolean taken = target.equals(settings.checkpointTable()) || this.runtime.tables().stream()
				.anyMatch((t) -> t.mapping.destination().equals(new Destination.Table(target)));
			if (taken) {
				throw refused(source, "add", "its target " + target + " is taken by another table or the checkpoints");
			}
		}
		if (!TargetTables.exists(this.runtime.source, source)) {
			throw new IllegalArgumentException("Cannot add " + source + ": the source has no such table");
		}
		add(new TableMapping(source, (target != null) ? target : source), "added on request", requestedBy);
	}

	/**
	 * Adds a table to the running pipeline and copies it while it streams, like a resnapshot.
	 * @param mapping the table and where it goes
	 * @param why why it is added, for its timeline and the log
	 * @param requestedBy who asked, or {@code null}
	 * @throws IllegalStateException when the pipeline is not running or the table is replicated already
	 * @throws SQLException when the source or the target cannot be read; the table is then failed
	 */
	synchronized void add(TableMapping mapping, String why, String requestedBy) throws SQLException {
		TableId id = mapping.source();
		this.runtime.requireRunning("add " + id);
		if (!this.runtime.addTable(mapping)) {
			throw refused(id, "add", "it is replicated already");
		}
		copyWhileStreaming(this.runtime.requireTable(id), "add", "copying it while streaming from ", "; " + why,
				requestedBy);
	}

	/** Copies a dropped table again that appeared on the source anew. */
	private synchronized void copyAppearedAgain(TableRuntime table) {
		try {
			if (TargetTables.exists(this.runtime.source, table.mapping.source())) {
				copyAgain(table, "add", "; it appeared on the source again", null);
			}
		}
		catch (SQLException | RuntimeException ex) {
			logger.error("Table {} appeared on the source again, but could not be copied: {}", table.mapping.source(),
					ex.getMessage());
		}
	}

	/**
	 * Adds the tables that appeared on the source since the last call and a rule takes. A table no
	 * rule takes is left alone; one the rules cannot take without ambiguity is logged and left
	 * alone too, as is one whose setup failed (it shows as failed).
	 */
	void addAppeared(TableArrivals arrivals) {
		for (TableId id : arrivals.take()) {
			TableRuntime known = this.runtime.table(id);
			if (this.runtime.stopRequested()) {
				return;
			}
			if (known != null) {
				if (known.phase() == Phase.DROPPED) {
					copyAppearedAgain(known);
				}
				continue;
			}
			List<TableMapping> current = this.runtime.tables().stream().map((t) -> t.mapping).toList();
			TableMapping mapping;
			try {
				mapping = TableRules.resolve(current, this.runtime.settings.rules(), List.of(id), arrivals.reserved(current))
					.stream().filter((t) -> t.source().equals(id)).findFirst().orElse(null);
			}
			catch (IllegalArgumentException ex) {
				logger.error("Table {} appeared on the source and is not replicated: {}", id, ex.getMessage());
				continue;
			}
			if (mapping == null) {
				continue;
			}
			try {
				if (!TargetTables.exists(this.runtime.source, id)) {
					if (!arrivals.unseen(id)) {
						// Created and dropped again before the reader got here, or a replay of an old creation.
						logger.info("Table {} appeared on the source and is gone again; not added", id);
					}
					continue;
				}
				arrivals.seen(id);
				add(mapping, "it appeared on the source and rule " + mapping.rule() + " takes it", null);
			}
			catch (SQLException | RuntimeException ex) {
				logger.error("Table {} appeared on the source, but could not be added: {}", id, ex.getMessage());
			}
		}
	}

	/** Sets the table up again from the source and copies it while it streams. */
	private void copyAgain(TableRuntime table, String action, String why, String requestedBy) throws SQLException {
		copyWhileStreaming(table, action, "copying again while streaming from ", why, requestedBy);
	}

	private void copyWhileStreaming(TableRuntime table, String action, String what, String why, String requestedBy)
			throws SQLException {
		Position delivered = this.runtime.reader().delivered();
		table.hold();
		try {
			this.setup.prepare(table, null, null, true);
		}
		catch (SQLException | RuntimeException ex) {
			failHeld(table, action, ex, requestedBy);
			throw ex;
		}
		// The copy reads every row after this point, so changes before it need not be replayed.
		table.confirm(delivered);
		table.clearError();
		this.runtime.reader().subscribe(table.wiring.layout());
		activate(table);
		this.snapshots.submit(table);
		this.runtime.requestCheckpoint();
		this.runtime.wake();
		String detail = what + delivered + why;
		table.recordAction(action, detail, requestedBy);
		logger.info("Table {} {}: {}{}", table.mapping.source(), action.equals("add") ? "is added" : "is snapshotted again",
				detail, by(requestedBy));
	}

	synchronized void restart(TableId id, String requestedBy) throws SQLException {
		TableRuntime table = actionable(id, "restart");
		if (!table.phase().isStopped()) {
			throw refused(id, "restart", "it is " + table.phase() + "; only a failed or dropped table can be restarted");
		}
		if (table.copyOnRestart() && !table.mapping.hasSink()) {
			// Its changes since the checkpoint were logged with the old layout and cannot be replayed.
			copyAgain(table, "restart", "; its layout had changed: " + table.lastError(), requestedBy);
			return;
		}
		TableCheckpoint checkpoint = this.runtime.checkpoints.load().get(id);
		LinkedHashMap<String, Long> binaryLogs = SourceQueries.binaryLogs(this.runtime.source);
		Position delivered = this.runtime.reader().delivered();
		String failure = table.lastError();
		table.hold();
		Position from;
		try {
			from = this.setup.prepare(table, checkpoint, binaryLogs, false);
		}
		catch (SQLException | RuntimeException ex) {
			failHeld(table, "restart", ex, requestedBy);
			throw ex;
		}
		table.clearError();
		if (table.phase() == Phase.COPIED) {
			// Copied once already (snapshot only): it stays where it ended.
			table.intake.activate(this.runtime.nextActivation());
			table.recordAction("restart", "it was copied once already and stays at " + table.confirmed(), requestedBy);
			return;
		}
		table.catchUpTo(SourceQueries.headFileOffset(this.runtime.source));
		String detail;
		if (from == null) {
			table.confirm(delivered);
			this.runtime.reader().subscribe(table.wiring.layout());
			activate(table);
			startCopy(table);
			detail = (table.phase() == Phase.SNAPSHOTTING) ? "snapshotting from scratch" : "streaming from " + delivered;
		}
		else {
			replayFrom(table, from, () -> startCopy(table));
			detail = ((table.phase() == Phase.SNAPSHOTTING) ? "continuing its snapshot and reading again from "
					: "reading again from ") + from;
		}
		table.recordAction("restart", detail + "; it had failed: " + failure, requestedBy);
		logger.info("Table {} restarted: {}{}", id, detail, by(requestedBy));
	}

	private void startCopy(TableRuntime table) {
		if (table.phase() == Phase.SNAPSHOTTING) {
			this.snapshots.submit(table);
		}
	}

	/**
	 * Rewinds the shared reader to {@code from} for this table; {@code activation} runs on the
	 * reader's thread at the rewind, and the table takes changes from then on.
	 */
	private void replayFrom(TableRuntime table, Position from, Runnable activation) {
		table.intake.activateAtRewind(activation);
		this.runtime.reader().rewind(from, List.of(table.wiring.layout()));
	}

	private void activate(TableRuntime table) {
		table.intake.activate(this.runtime.nextActivation());
	}

	private void failHeld(TableRuntime table, String action, Exception ex, String requestedBy) {
		table.failHeld(ex.getMessage());
		table.recordAction(action, "failed: " + ex.getMessage(), requestedBy);
		logger.error("Table {} could not {}: {}", table.mapping.source(), action, ex.getMessage());
	}

	private TableRuntime actionable(TableId id, String action) {
		TableRuntime table = this.runtime.requireTable(id);
		this.runtime.requireRunning(action + " " + id);
		if (table.intake.isBusy()) {
			throw refused(id, action, "an earlier action on it is still under way");
		}
		if (table.phase() == Phase.STARTING) {
			throw refused(id, action, "it has not started yet");
		}
		return table;
	}

	/** Names who asked for an action, for its detail; empty when unknown. */
	private static String by(String requestedBy) {
		return (requestedBy != null && !requestedBy.isBlank()) ? " (by " + requestedBy + ")" : "";
	}

	private static IllegalStateException refused(TableId id, String action, String why) {
		return new IllegalStateException("Cannot " + action + " " + id + ": " + why);
	}

}
