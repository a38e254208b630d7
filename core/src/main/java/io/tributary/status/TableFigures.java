package io.tributary.status;

/**
 * The counters of a {@link TableStatus} most readers want, each one step down its groups
 * ({@code rowsCopied()} for {@code copy().rowsCopied()}), so tests and pages read them flat.
 */
public sealed interface TableFigures permits TableStatus {

	/** The snapshot's progress. */
	TableStatus.Copy copy();

	/** The buffer's state and counters. */
	TableStatus.Buffer buffer();

	/** What has been applied, and the flushes. */
	TableStatus.Flushing flushing();

	/** Rows copied by the snapshot so far: {@code copy().rowsCopied()}. */
	default long rowsCopied() {
		return copy().rowsCopied();
	}

	/** Estimated rows of the source table: {@code copy().rowsEstimated()}. */
	default long rowsEstimated() {
		return copy().rowsEstimated();
	}

	/** Snapshot chunks copied: {@code copy().chunksCopied()}. */
	default long chunksCopied() {
		return copy().chunksCopied();
	}

	/** Rows the snapshot copied per second lately: {@code copy().rowsPerSecond()}. */
	default double copyRowsPerSecond() {
		return copy().rowsPerSecond();
	}

	/** Seconds until the snapshot is done, or {@code null}: {@code copy().etaSeconds()}. */
	default Long copyEtaSeconds() {
		return copy().etaSeconds();
	}

	/** Whether the existing rows have all been copied: {@code copy().done()}. */
	default boolean snapshotDone() {
		return copy().done();
	}

	/** Changes held in the buffer now: {@code buffer().keys()}. */
	default long bufferedKeys() {
		return buffer().keys();
	}

	/** Estimated bytes of the changes held now: {@code buffer().bytes()}. */
	default long bufferedBytes() {
		return buffer().bytes();
	}

	/** The buffer's soft limit, negative when there is none: {@code buffer().softLimitBytes()}. */
	default long bufferSoftLimitBytes() {
		return buffer().softLimitBytes();
	}

	/** Changes added to the buffer since start: {@code buffer().keysAdded()}. */
	default long keysAdded() {
		return buffer().keysAdded();
	}

	/** Changes dropped because the snapshot will read them: {@code buffer().droppedAboveHighWatermark()}. */
	default long droppedAboveHighWatermark() {
		return buffer().droppedAboveHighWatermark();
	}

	/** Times a change waited for its chunk to land: {@code buffer().deferredInFlight()}. */
	default long deferredInFlight() {
		return buffer().deferredInFlight();
	}

	/** Times the reader waited for room, under the soft limit or the budget: {@code buffer().parkEvents()}. */
	default long parkEvents() {
		return buffer().parkEvents();
	}

	/** Total time the reader waited for room: {@code buffer().parkedMillis()}. */
	default long parkedMillis() {
		return buffer().parkedMillis();
	}

	/** Of the park events, those under the pipeline's budget: {@code buffer().budgetParkEvents()}. */
	default long budgetParkEvents() {
		return buffer().budgetParkEvents();
	}

	/** Row images and deletes applied since start: {@code flushing().changesApplied()}. */
	default long changesApplied() {
		return flushing().changesApplied();
	}

	/** Whether nothing is buffered and the table is at the delivered position: {@code flushing().allChangesFlushed()}. */
	default boolean allChangesFlushed() {
		return flushing().allChangesFlushed();
	}

	/** Position this table would resume from: {@code flushing().confirmedPosition()}. */
	default String confirmedPosition() {
		return flushing().confirmedPosition();
	}

	/** The most recent flush, or {@code null}: {@code flushing().lastFlush()}. */
	default TableStatus.Flush lastFlush() {
		return flushing().lastFlush();
	}

	/** Flushes since start, by outcome: {@code flushing().flushes()}. */
	default TableStatus.Flushes flushes() {
		return flushing().flushes();
	}

}
