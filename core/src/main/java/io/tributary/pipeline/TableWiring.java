package io.tributary.pipeline;

import java.sql.SQLException;

import io.tributary.apply.Applier;
import io.tributary.apply.JdbcReplaceApplier;
import io.tributary.apply.ParallelApplier;
import io.tributary.apply.SinkApplier;
import io.tributary.copy.Copier;
import io.tributary.schema.TableLayout;
import io.tributary.subscription.BufferedSubscription;

/**
 * What one table writes with and reads from: its layout, its buffer, the appliers of its target
 * table or its sink, and its copier. They change together when a table is set up (again) or its
 * layout changes, through the methods here; the catch-up loop, the reader and status read them.
 */
final class TableWiring {

	private volatile TableLayout layout;

	private volatile BufferedSubscription subscription;

	/**
	 * Writes the table's changes: a {@code JdbcReplaceApplier} into the target table, or the
	 * {@link #sink} of a table going to one.
	 */
	private volatile Applier applier;

	/**
	 * Applies drained changes with parallel statements; wraps {@link #applier}. {@code null} for a
	 * table going to a sink, where each drain is one call of the sink.
	 */
	private volatile ParallelApplier writer;

	/** The applier of a table going to a sink (equal to {@link #applier}), or {@code null}. */
	private volatile SinkApplier sink;

	/** The JDBC applier of a table copied into a target table (equal to {@link #applier}), or {@code null}. */
	private volatile JdbcReplaceApplier statements;

	private volatile Copier copier;

	TableLayout layout() {
		return this.layout;
	}

	BufferedSubscription subscription() {
		return this.subscription;
	}

	Applier applier() {
		return this.applier;
	}

	ParallelApplier writer() {
		return this.writer;
	}

	SinkApplier sink() {
		return this.sink;
	}

	JdbcReplaceApplier statements() {
		return this.statements;
	}

	Copier copier() {
		return this.copier;
	}

	/** Sets the table up to write into its target table with {@code statements}, in parallel through {@code writer}. */
	void writeTo(TableLayout layout, JdbcReplaceApplier statements, ParallelApplier writer) {
		this.layout = layout;
		this.applier = statements;
		this.statements = statements;
		this.writer = writer;
		this.sink = null;
	}

	/** Sets the table up to hand its changes to {@code sink}, one call per drain. */
	void writeTo(TableLayout layout, SinkApplier sink) {
		this.layout = layout;
		this.applier = sink;
		this.sink = sink;
		this.statements = null;
		this.writer = null;
	}

	/** Notes the layout just read from the source, before the table is set up to write it. */
	void layoutRead(TableLayout read) {
		this.layout = read;
	}

	/**
	 * Gives the table the buffer the reader fills from now on. The one it replaces is retired, so
	 * that a change the reader still added to it gives its room in the pipeline's budget back.
	 */
	void bufferInto(BufferedSubscription buffer) {
		BufferedSubscription previous = this.subscription;
		this.subscription = buffer;
		if (previous != null && previous != buffer) {
			previous.retire();
		}
	}

	/** Gives the table the copier of its snapshot, or {@code null} when it is not copied. */
	void copyWith(Copier copy) {
		this.copier = copy;
	}

	/**
	 * Takes a layout the source changed to, with the statements that write it; the caller holds the
	 * table's flush lock.
	 * @param next the new layout
	 * @param nextStatements the statements for it, or {@code null} for a table going to a sink,
	 * whose sink takes the new column list
	 * @throws SQLException when the target's unique indexes cannot be read for the new statements
	 */
	void relayout(TableLayout next, JdbcReplaceApplier nextStatements) throws SQLException {
		if (nextStatements == null) {
			this.sink = this.sink.withLayout(next);
			this.applier = this.sink;
		}
		else {
			// Read before anything changes, so a failure leaves the table as it was.
			ParallelApplier nextWriter = this.writer.withStatements(nextStatements);
			this.applier = nextStatements;
			this.statements = nextStatements;
			this.writer = nextWriter;
		}
		this.layout = next;
	}

}
