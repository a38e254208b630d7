package io.tributary.copy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tributary.apply.Applier;
import io.tributary.apply.ApplyException;
import io.tributary.apply.SinkRefusedException;
import io.tributary.jdbc.RetryPolicy;
import io.tributary.schema.TableLayout;

/**
 * Writes the rows of a copy's chunks to the target. A failed write fails the copy, unless the
 * copier was told to retry failed writes (see {@link Copier#retryFailedWrites}): then the write is
 * tried again after a jittered pause that doubles from at most 100 ms up to at most 30 s, until it
 * succeeds or the copy gives the chunk up. Called from the copy workers, several at once.
 */
final class ChunkWriter {

	// Logs as the copier, whose chunks these are, so one logger setting covers the snapshot's messages.
	private static final Logger logger = LoggerFactory.getLogger(Copier.class);

	/** Failed writes, when retried: pauses from 100 ms up to 30 s until the write succeeds or is given up. */
	private static final RetryPolicy FAILED_WRITES = RetryPolicy.untilStopped(Duration.ofMillis(100),
			Duration.ofSeconds(30));

	private static final long GIVE_UP_CHECK_NANOS = 50_000_000L;

	/** Writes that keep meeting lock contention: ten attempts before the write counts as failed. */
	private static final RetryPolicy CONTENTION = RetryPolicy.contention(10);

	private final Applier applier;

	private final TableLayout layout;

	private volatile Copier.WriteRetries writeRetries;

	ChunkWriter(Applier applier, TableLayout layout) {
		this.applier = applier;
		this.layout = layout;
	}

	/** Retries failed writes from now on, telling {@code retries} about failures and recoveries. */
	void retryFailedWrites(Copier.WriteRetries retries) {
		this.writeRetries = retries;
	}

	/**
	 * Writes a chunk's rows, retrying failed writes when asked to.
	 * @param giveUp polled while pausing between attempts; when true the chunk is given up
	 * @return whether the rows were written; {@code false} when given up because of {@code giveUp}
	 * @throws ApplyException when the write fails and failed writes are not retried
	 */
	boolean write(List<Object[]> rows, BooleanSupplier giveUp) {
		int failures = 0;
		while (true) {
			try {
				rerunOnContention(() -> this.applier.upsertChunk(rows), this.layout);
				if (failures > 0) {
					this.writeRetries.recovered();
				}
				return true;
			}
			catch (ApplyException ex) {
				Copier.WriteRetries retries = this.writeRetries;
				// A sink that refused the rows for good refuses them again: the snapshot fails instead.
				if (retries == null || ex instanceof SinkRefusedException) {
					throw ex;
				}
				failures++;
				long pauseMillis = FAILED_WRITES.pause(failures).toMillis();
				retries.failed(ex, Duration.ofMillis(pauseMillis));
				logger.warn("Writing a snapshot chunk of {} ({} rows) failed, retrying in {} ms: {}",
						this.layout.table(), rows.size(), pauseMillis, ex.getMessage());
				if (!pause(pauseMillis, giveUp)) {
					logger.info("Snapshot of {} gave up a failing chunk as it stops; it is copied again on the "
							+ "next start", this.layout.table());
					return false;
				}
			}
		}
	}

	/**
	 * Runs a write of the copy again while it fails on a deadlock or a lock wait timeout against the
	 * pipeline's own apply, at most ten times in all, after growing pauses. The server rolled the
	 * write back, and a chunk's upsert or delete is idempotent. A target table written by one
	 * statement is not retried by the applier itself, whose contention the streaming side handles.
	 */
	static void rerunOnContention(Runnable write, TableLayout layout) {
		CONTENTION.rerunOnContention("A snapshot write of " + layout.table(), () -> {
			write.run();
			return null;
		});
	}

	/** Waits, checking {@code giveUp} every 50 ms; returns false when it said to give up. */
	private static boolean pause(long millis, BooleanSupplier giveUp) {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
		try {
			while (!giveUp.getAsBoolean()) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return true;
				}
				TimeUnit.NANOSECONDS.sleep(Math.min(left, GIVE_UP_CHECK_NANOS));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return false;
	}

}
