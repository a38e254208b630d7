package io.tributary.autoconfigure.metrics;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * The status of one pipeline, found by name at each read and read again once the last reading is
 * older than {@link #MAX_AGE_NANOS}. A status takes the buffer lock of every table, so the dozens of
 * meters of one scrape share one reading rather than take each lock dozens of times.
 */
final class RecentStatus implements Supplier<PipelineStatus> {

	/** How long a reading serves; far below any scrape interval, far above the time a scrape takes. */
	static final long MAX_AGE_NANOS = 1_000_000_000L;

	private final Function<String, PipelineStatus> statuses;

	private final String name;

	private final long maxAgeNanos;

	private final Consumer<PipelineStatus> fresh;

	private volatile Reading last;

	/**
	 * Creates the readings of one pipeline.
	 * @param statuses reads a pipeline's status by name, {@code null} when there is none
	 * @param maxAgeNanos how long a reading serves, {@link #MAX_AGE_NANOS} but in tests
	 * @param fresh told of every status read anew, as the place to notice tables that joined, or
	 * that need attention
	 */
	RecentStatus(Function<String, PipelineStatus> statuses, String name, long maxAgeNanos,
			Consumer<PipelineStatus> fresh) {
		this.statuses = statuses;
		this.name = name;
		this.maxAgeNanos = maxAgeNanos;
		this.fresh = fresh;
	}

	/** Returns the pipeline's status, or {@code null} when there is no pipeline of that name. */
	@Override
	public PipelineStatus get() {
		long now = System.nanoTime();
		Reading reading = this.last;
		if (reading == null || now - reading.at() >= this.maxAgeNanos) {
			reading = new Reading(this.statuses.apply(this.name), now);
			this.last = reading;
			if (reading.status() != null) {
				this.fresh.accept(reading.status());
			}
		}
		return reading.status();
	}

	/**
	 * Returns the status of one of the pipeline's tables, found by its source name at each read from
	 * this pipeline's recent status; it reads {@code null} when the pipeline or the table is gone.
	 */
	Supplier<TableStatus> table(String table) {
		return () -> {
			PipelineStatus status = get();
			if (status == null) {
				return null;
			}
			for (TableStatus candidate : status.tables()) {
				if (candidate.name().equals(table)) {
					return candidate;
				}
			}
			return null;
		};
	}

	private record Reading(PipelineStatus status, long at) {

	}

}
