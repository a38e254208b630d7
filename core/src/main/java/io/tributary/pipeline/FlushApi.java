package io.tributary.pipeline;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import io.tributary.name.TableId;
import io.tributary.settings.Setting;
import io.tributary.source.Position;
import io.tributary.source.binlog.SourceQueries;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.status.TableStatus.Phase;

/**
 * Waits that callers use to know their changes are applied: until caught up with a source head,
 * until a whole cycle has run, and the flush under a source table lock for cutovers. Each wait
 * ends on a condition with a deadline, never on time alone.
 */
final class FlushApi {

	private final PipelineRuntime runtime;

	FlushApi(PipelineRuntime runtime) {
		this.runtime = runtime;
	}

	/** See {@link Pipeline#awaitCaughtUp(Duration)}. */
	void awaitCaughtUp(Duration timeout) throws TimeoutException, SQLException, InterruptedException {
		awaitConfirmed(SourceQueries.headFileOffset(this.runtime.source), (table) -> true, timeout, false);
	}

	/**
	 * Waits until the given tables have confirmed {@code head}: every change the source had written
	 * up to it is applied. Only a cycle that starts after the head was read, with the reader
	 * positioned, can confirm it.
	 * @param drive whether to start a cycle at every poll rather than let cycles come at the flush
	 * interval; driving shortens the wait but splits a backlog into more, smaller flushes
	 */
	private void awaitConfirmed(Position head, Predicate<TableRuntime> which, Duration timeout, boolean drive)
			throws TimeoutException, InterruptedException {
		long cyclesBefore = this.runtime.positionedCycles();
		this.runtime.wake();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			List<TableRuntime> selected = this.runtime.tables()
				.stream()
				.filter(which)
				.filter((t) -> !t.phase().isStopped() && t.phase() != Phase.PAUSED)
				.toList();
			boolean snapshotting = selected.stream().anyMatch((t) -> t.phase() == Phase.SNAPSHOTTING);
			boolean confirmed = selected.stream()
				.allMatch((t) -> t.confirmed() != null && t.confirmed().compareTo(head) >= 0);
			if (!snapshotting && this.runtime.positionedCycles() > cyclesBefore + 1 && confirmed) {
				return;
			}
			PipelineStatus.State state = this.runtime.state();
			if (state == PipelineStatus.State.FAILED || state == PipelineStatus.State.STOPPED
					|| state == PipelineStatus.State.STANDBY) {
				throw new IllegalStateException("Pipeline is " + state + ": " + this.runtime.lastError());
			}
			if (System.nanoTime() > deadline) {
				throw new TimeoutException(
						"Not caught up to " + head + " within " + timeout + "; confirmed " + this.runtime.confirmed());
			}
			if (drive) {
				this.runtime.wake();
			}
			Thread.sleep(20);
		}
	}

	/** See {@link Pipeline#flush(Duration)}. */
	void flush(Duration timeout) throws TimeoutException, InterruptedException {
		// The second full cycle from now started after this call: it took everything buffered now.
		long wanted = this.runtime.fullCycles() + 2;
		long deadline = System.nanoTime() + timeout.toNanos();
		while (this.runtime.fullCycles() < wanted) {
			this.runtime.requireRunning("flush");
			if (System.nanoTime() > deadline) {
				throw new TimeoutException("No flush completed within " + timeout);
			}
			this.runtime.wake();
			Thread.sleep(5);
		}
	}

	/** See {@link Pipeline#flush(Duration, String)}. */
	void flush(Duration timeout, String requestedBy) throws TimeoutException, InterruptedException {
		flush(timeout);
		for (TableRuntime table : this.runtime.tables()) {
			if (table.isActive()) {
				table.recordAction("flush", "applied what the pipeline buffered", requestedBy);
			}
		}
	}

	/** See {@link Pipeline#allChangesFlushed()}. */
	boolean allChangesFlushed() {
		Position delivered = this.runtime.reader().delivered();
		return this.runtime.tables()
			.stream()
			.filter((t) -> !t.phase().isStopped() && t.phase() != Phase.PAUSED)
			.map((t) -> TableReport.status(t, delivered, this.runtime.reader().rowEvents(t.mapping.source())))
			.allMatch(TableStatus::allChangesFlushed);
	}

	/** See {@link Pipeline#flushUnderLock(TableId, Duration, Callable)}. */
	<T> T flushUnderLock(TableId id, Duration timeout, Callable<T> whileLocked) throws Exception {
		TableRuntime table = this.runtime.table(id);
		if (table == null || !table.isActive() || table.phase() == Phase.SNAPSHOTTING) {
			throw new IllegalStateException("Table " + id + " is not streaming"
					+ ((table != null) ? " (" + table.phase() + ")"
							: "; it is not in " + this.runtime.settings.settingNames().of(Setting.TABLES)));
		}
		awaitConfirmed(SourceQueries.headFileOffset(this.runtime.source), (t) -> t == table, timeout, false);
		try (Connection connection = this.runtime.source.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("LOCK TABLES " + id.quoted() + " READ");
			try {
				// Under the lock every millisecond counts: drive the cycles.
				awaitConfirmed(SourceQueries.headFileOffset(this.runtime.source), (t) -> t == table, timeout, true);
				return whileLocked.call();
			}
			finally {
				statement.execute("UNLOCK TABLES");
			}
		}
	}

}
