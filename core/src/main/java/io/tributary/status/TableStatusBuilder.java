package io.tributary.status;

import io.tributary.name.Destination;
import io.tributary.status.TableStatus.Phase;

/**
 * Builds a {@link TableStatus} by name, from {@link TableStatus#builder} (a table that has copied,
 * buffered and flushed nothing, with no soft limit, an idle checksum and no events) or from
 * {@link TableStatus#toBuilder} (another status). A counter is set on its own, as
 * {@code bufferedKeys(12)}, or with its group, as {@code buffer(new TableStatus.Buffer(...))}.
 *
 * <pre>{@code
 * TableStatus status = TableStatus.builder("shop.orders", "replica.orders", Phase.STREAMING)
 *         .bufferedKeys(12)
 *         .changesApplied(4_000)
 *         .build();
 * }</pre>
 */
public final class TableStatusBuilder {

	private String name;

	private Destination destination;

	private String rule;

	private Phase phase;

	private long rowsCopied;

	private long rowsEstimated;

	private long chunksCopied;

	private double copyRowsPerSecond;

	private Long copyEtaSeconds;

	private boolean snapshotDone;

	private long bufferedKeys;

	private long bufferedBytes;

	private long bufferSoftLimitBytes = -1;

	private long keysAdded;

	private long droppedAboveHighWatermark;

	private long deferredInFlight;

	private long parkEvents;

	private long parkedMillis;

	private long budgetParkEvents;

	private long changesApplied;

	private boolean allChangesFlushed;

	private String confirmedPosition;

	private TableStatus.Flush lastFlush;

	private TableStatus.Flushes flushes;

	private TableStatus.Apply apply;

	private TableStatus.Checksum checksum = TableStatus.Checksum.IDLE;

	private TableStatus.Action lastAction;

	private TableStatus.Events events = TableStatus.Events.NONE;

	private String lastError;

	private SinkStatus sink;

	TableStatusBuilder(String name, Destination destination, Phase phase) {
		this.name = name;
		this.destination = destination;
		this.phase = phase;
	}

	TableStatusBuilder(TableStatus status) {
		this(status.name(), status.destination(), status.phase());
		this.rule = status.rule();
		copy(status.copy());
		buffer(status.buffer());
		flushing(status.flushing());
		this.apply = status.apply();
		this.checksum = status.checksum();
		this.lastAction = status.lastAction();
		this.events = status.events();
		this.lastError = status.lastError();
		this.sink = status.sink();
	}

	/** Sets the source table, {@code schema.table}. */
	public TableStatusBuilder name(String value) {
		this.name = value;
		return this;
	}

	/** Sets the rule that took the table, or {@code null} for a table listed on its own. */
	public TableStatusBuilder rule(String value) {
		this.rule = value;
		return this;
	}

	/** Sets where the table's changes go. */
	public TableStatusBuilder destination(Destination value) {
		this.destination = value;
		return this;
	}

	/** Sets where the table is in its life. */
	public TableStatusBuilder phase(Phase value) {
		this.phase = value;
		return this;
	}

	/** Sets the snapshot's progress, every counter of the group. */
	public TableStatusBuilder copy(TableStatus.Copy value) {
		this.rowsCopied = value.rowsCopied();
		this.rowsEstimated = value.rowsEstimated();
		this.chunksCopied = value.chunksCopied();
		this.copyRowsPerSecond = value.rowsPerSecond();
		this.copyEtaSeconds = value.etaSeconds();
		this.snapshotDone = value.done();
		return this;
	}

	/** Sets the buffer's counters, every counter of the group. */
	public TableStatusBuilder buffer(TableStatus.Buffer value) {
		this.bufferedKeys = value.keys();
		this.bufferedBytes = value.bytes();
		this.bufferSoftLimitBytes = value.softLimitBytes();
		this.keysAdded = value.keysAdded();
		this.droppedAboveHighWatermark = value.droppedAboveHighWatermark();
		this.deferredInFlight = value.deferredInFlight();
		this.parkEvents = value.parkEvents();
		this.parkedMillis = value.parkedMillis();
		this.budgetParkEvents = value.budgetParkEvents();
		return this;
	}

	/** Sets what was applied and confirmed, every counter of the group. */
	public TableStatusBuilder flushing(TableStatus.Flushing value) {
		this.changesApplied = value.changesApplied();
		this.allChangesFlushed = value.allChangesFlushed();
		this.confirmedPosition = value.confirmedPosition();
		this.lastFlush = value.lastFlush();
		this.flushes = value.flushes();
		return this;
	}

	/** Sets rows copied by the snapshot so far. */
	public TableStatusBuilder rowsCopied(long value) {
		this.rowsCopied = value;
		return this;
	}

	/** Sets estimated rows of the source table. */
	public TableStatusBuilder rowsEstimated(long value) {
		this.rowsEstimated = value;
		return this;
	}

	/** Sets snapshot chunks copied. */
	public TableStatusBuilder chunksCopied(long value) {
		this.chunksCopied = value;
		return this;
	}

	/** Sets rows the snapshot copied per second lately. */
	public TableStatusBuilder copyRowsPerSecond(double value) {
		this.copyRowsPerSecond = value;
		return this;
	}

	/** Sets seconds until the snapshot is done, or {@code null} when unknown. */
	public TableStatusBuilder copyEtaSeconds(Long value) {
		this.copyEtaSeconds = value;
		return this;
	}

	/** Sets whether the existing rows have all been copied. */
	public TableStatusBuilder snapshotDone(boolean value) {
		this.snapshotDone = value;
		return this;
	}

	/** Sets changes held in the buffer now. */
	public TableStatusBuilder bufferedKeys(long value) {
		this.bufferedKeys = value;
		return this;
	}

	/** Sets estimated bytes of the changes held now. */
	public TableStatusBuilder bufferedBytes(long value) {
		this.bufferedBytes = value;
		return this;
	}

	/** Sets the buffer's soft limit, negative for none. */
	public TableStatusBuilder bufferSoftLimitBytes(long value) {
		this.bufferSoftLimitBytes = value;
		return this;
	}

	/** Sets changes added to the buffer since start. */
	public TableStatusBuilder keysAdded(long value) {
		this.keysAdded = value;
		return this;
	}

	/** Sets changes dropped because the snapshot will read them. */
	public TableStatusBuilder droppedAboveHighWatermark(long value) {
		this.droppedAboveHighWatermark = value;
		return this;
	}

	/** Sets times a change waited for its chunk to land. */
	public TableStatusBuilder deferredInFlight(long value) {
		this.deferredInFlight = value;
		return this;
	}

	/** Sets times the reader waited for room, under the soft limit or the pipeline's budget. */
	public TableStatusBuilder parkEvents(long value) {
		this.parkEvents = value;
		return this;
	}

	/** Sets total time the reader waited for room. */
	public TableStatusBuilder parkedMillis(long value) {
		this.parkedMillis = value;
		return this;
	}

	/** Sets times the reader waited for room under the pipeline's budget. */
	public TableStatusBuilder budgetParkEvents(long value) {
		this.budgetParkEvents = value;
		return this;
	}

	/** Sets row images and deletes applied since start. */
	public TableStatusBuilder changesApplied(long value) {
		this.changesApplied = value;
		return this;
	}

	/** Sets whether nothing is buffered and the table is at the delivered position. */
	public TableStatusBuilder allChangesFlushed(boolean value) {
		this.allChangesFlushed = value;
		return this;
	}

	/** Sets position this table would resume from. */
	public TableStatusBuilder confirmedPosition(String value) {
		this.confirmedPosition = value;
		return this;
	}

	/** Sets the most recent flush. */
	public TableStatusBuilder lastFlush(TableStatus.Flush value) {
		this.lastFlush = value;
		return this;
	}

	/** Sets flushes since start, by outcome. */
	public TableStatusBuilder flushes(TableStatus.Flushes value) {
		this.flushes = value;
		return this;
	}

	/** Sets counters of the statements that applied changes, {@code null} before the table has a writer. */
	public TableStatusBuilder apply(TableStatus.Apply value) {
		this.apply = value;
		return this;
	}

	/** Sets the latest comparison of source and target. */
	public TableStatusBuilder checksum(TableStatus.Checksum value) {
		this.checksum = value;
		return this;
	}

	/** Sets the latest operator action on the table. */
	public TableStatusBuilder lastAction(TableStatus.Action value) {
		this.lastAction = value;
		return this;
	}

	/** Sets row changes read from the binlog since start, by kind. */
	public TableStatusBuilder events(TableStatus.Events value) {
		this.events = value;
		return this;
	}

	/** Sets why the table failed or the last flush failed. */
	public TableStatusBuilder lastError(String value) {
		this.lastError = value;
		return this;
	}

	/** Sets what the table's sink reports, or {@code null}. */
	public TableStatusBuilder sink(SinkStatus value) {
		this.sink = value;
		return this;
	}

	/** Returns the status. */
	public TableStatus build() {
		return new TableStatus(this.name, this.destination, this.rule, this.phase,
				new TableStatus.Copy(this.rowsCopied, this.rowsEstimated, this.chunksCopied, this.copyRowsPerSecond,
						this.copyEtaSeconds, this.snapshotDone),
				new TableStatus.Buffer(this.bufferedKeys, this.bufferedBytes, this.bufferSoftLimitBytes, this.keysAdded,
						this.droppedAboveHighWatermark, this.deferredInFlight, this.parkEvents, this.parkedMillis,
						this.budgetParkEvents),
				new TableStatus.Flushing(this.changesApplied, this.allChangesFlushed, this.confirmedPosition,
						this.lastFlush, this.flushes),
				this.apply, this.checksum, this.lastAction, this.events, this.lastError, this.sink);
	}

}
