package io.tributary.subscription;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import io.tributary.schema.RowKey;
import io.tributary.schema.TableLayout;
import io.tributary.schema.Values;
import io.tributary.source.Position;
import io.tributary.source.RowChange;

/**
 * The changes of one table that have been read but not yet applied, merged by key: for each key
 * only the last row image the binlog delivered (or the fact that it was deleted). Applying that
 * final state is idempotent, so a change read twice is harmless and a key updated a thousand
 * times costs one write.
 *
 * <p>Each entry remembers the transaction boundary a reader would have to restart from to see it
 * again. {@link #oldestPending()} is the smallest such boundary over every entry still held, and
 * the confirm bound of the catch-up loop is never past it.
 *
 * <p>Memory is bounded by a soft limit: an add of a new key waits while the buffer already holds
 * the limit or more, and asks for a flush. The check is made before the add, so a single row larger
 * than the limit is still admitted, and replacing the change of a key already held never waits (it
 * frees the old image as it adds the new one). Each wait is counted.
 *
 * <p>Thread safety: the binlog reader adds while the catch-up loop drains and requeues; one lock
 * guards the map, the byte count and the pending-position index.
 */
public final class BufferedSubscription {

	private final TableLayout layout;

	private final Object lock = new Object();

	private final Map<RowKey, Entry> entries = new HashMap<>();

	/** Multiset of the resume positions of buffered entries, for the oldest in O(log n). */
	private final TreeMap<Position, Integer> pending = new TreeMap<>();

	private long bytes;

	private long keysAdded;

	private long droppedAboveHighWatermark;

	private long deferredInFlight;

	private final long softLimitBytes;

	private final Runnable flushRequest;

	private long parks;

	private long parkedNanos;

	private boolean closed;

	private final long flushAtKeys;

	private boolean flushRequested;

	/** Creates a buffer without a memory limit. */
	public BufferedSubscription(TableLayout layout) {
		this(layout, -1, Long.MAX_VALUE, () -> {
		});
	}

	/**
	 * Creates a buffer.
	 * @param layout the table's layout
	 * @param softLimitBytes bytes at or above which adds of new keys wait; negative for no limit
	 * @param flushAtKeys number of buffered keys at which a flush is requested without waiting for
	 * the next interval
	 * @param flushRequest asks the catch-up loop to flush soon; called when an add starts waiting
	 * or the buffer reaches {@code flushAtKeys}
	 */
	public BufferedSubscription(TableLayout layout, long softLimitBytes, long flushAtKeys, Runnable flushRequest) {
		this.layout = layout;
		this.softLimitBytes = softLimitBytes;
		this.flushAtKeys = flushAtKeys;
		this.flushRequest = flushRequest;
	}

	public TableLayout layout() {
		return this.layout;
	}

	/**
	 * Buffers a change, replacing any change already held for its key.
	 * @param change the change
	 * @param resumeFrom the boundary to reread from to see the change again
	 */
	public void add(RowChange change, Position resumeFrom) {
		Entry entry = new Entry(new RowKey(change.key()), change.image(), resumeFrom,
				Values.sizeOf(change.key()) + Values.sizeOf(change.image()) + 96);
		synchronized (this.lock) {
			awaitRoom(entry.key());
			Entry previous = this.entries.put(entry.key(), entry);
			if (previous != null) {
				forget(previous);
			}
			remember(entry);
			this.keysAdded++;
			if (!this.flushRequested && this.entries.size() >= this.flushAtKeys) {
				this.flushRequested = true;
				this.flushRequest.run();
			}
		}
	}

	/** Waits, holding no entry back, while the buffer is at or over its limit and the key is new. */
	private void awaitRoom(RowKey key) {
		if (this.softLimitBytes < 0 || this.bytes < this.softLimitBytes || this.closed
				|| this.entries.containsKey(key)) {
			return;
		}
		this.parks++;
		long started = System.nanoTime();
		try {
			while (this.bytes >= this.softLimitBytes && !this.closed) {
				this.flushRequest.run();
				this.lock.wait(100);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.parkedNanos += System.nanoTime() - started;
		}
	}

	/**
	 * Stops waiting for room: adds from now on never wait. Called when the pipeline stops, so a
	 * reader waiting in {@link #add} can finish its change (which is kept, not lost) and end.
	 */
	public void close() {
		synchronized (this.lock) {
			this.closed = true;
			this.lock.notifyAll();
		}
	}

	/**
	 * Takes out every change that may be applied now.
	 *
	 * <p>The copier position is read while holding the buffer's lock, so it is read after every
	 * add whose change this drain judges. Reading it earlier could judge a key "not yet
	 * dispatched" after its chunk had been read without the change, and drop it.
	 * @param copierPosition supplies the copier's current watermarks
	 * @return the changes to apply, and counts of what stayed and what was dropped
	 */
	public Drain drain(Supplier<Watermarks> copierPosition) {
		synchronized (this.lock) {
			Watermarks watermarks = copierPosition.get();
			List<Entry> upserts = new ArrayList<>();
			List<Entry> deletes = new ArrayList<>();
			int deferred = 0;
			int dropped = 0;
			var iterator = this.entries.values().iterator();
			while (iterator.hasNext()) {
				Entry entry = iterator.next();
				Verdict verdict = watermarks.classify(entry.key());
				if (verdict == Verdict.DEFER) {
					deferred++;
					continue;
				}
				iterator.remove();
				forget(entry);
				if (verdict == Verdict.DROP) {
					dropped++;
				}
				else if (entry.isDelete()) {
					deletes.add(entry);
				}
				else {
					upserts.add(entry);
				}
			}
			this.droppedAboveHighWatermark += dropped;
			this.deferredInFlight += deferred;
			this.flushRequested = false;
			this.lock.notifyAll();
			return new Drain(upserts, deletes, deferred, dropped);
		}
	}

	/**
	 * Puts back changes whose apply failed. A key that received a newer change meanwhile keeps
	 * the newer one.
	 */
	public void requeue(Collection<Entry> failed) {
		synchronized (this.lock) {
			for (Entry entry : failed) {
				if (this.entries.putIfAbsent(entry.key(), entry) == null) {
					remember(entry);
				}
			}
		}
	}

	/** Returns the oldest resume position over the buffered entries, or {@code null} if none. */
	public Position oldestPending() {
		synchronized (this.lock) {
			return this.pending.isEmpty() ? null : this.pending.firstKey();
		}
	}

	/** Drops every buffered change (the table is being snapshotted again or has failed). */
	public void clear() {
		synchronized (this.lock) {
			this.entries.clear();
			this.pending.clear();
			this.bytes = 0;
			this.lock.notifyAll();
		}
	}

	public Counters counters() {
		synchronized (this.lock) {
			return new Counters(this.entries.size(), this.bytes, this.keysAdded, this.droppedAboveHighWatermark,
					this.deferredInFlight, this.parks, this.parkedNanos / 1_000_000, this.softLimitBytes);
		}
	}

	private void remember(Entry entry) {
		this.pending.merge(entry.resumeFrom(), 1, Integer::sum);
		this.bytes += entry.size();
	}

	private void forget(Entry entry) {
		this.pending.computeIfPresent(entry.resumeFrom(), (position, count) -> (count == 1) ? null : count - 1);
		this.bytes -= entry.size();
	}

	/**
	 * One buffered change.
	 *
	 * @param key the row key
	 * @param image the full row, or {@code null} for a delete
	 * @param resumeFrom the boundary to reread from to see this change again
	 * @param size estimated heap bytes
	 */
	public record Entry(RowKey key, Object[] image, Position resumeFrom, long size) {

		public boolean isDelete() {
			return this.image == null;
		}

	}

	/**
	 * What one drain took out.
	 *
	 * @param upserts changes carrying a row image
	 * @param deletes changes deleting a key
	 * @param deferred how many changes stayed because their chunk is in flight
	 * @param dropped how many changes were dropped above the high watermark
	 */
	public record Drain(List<Entry> upserts, List<Entry> deletes, int deferred, int dropped) {

		public boolean isEmpty() {
			return this.upserts.isEmpty() && this.deletes.isEmpty();
		}

		public int size() {
			return this.upserts.size() + this.deletes.size();
		}

	}

	/**
	 * Counters of one subscription.
	 *
	 * @param bufferedKeys keys currently held
	 * @param bufferedBytes estimated heap bytes currently held
	 * @param keysAdded changes added since start
	 * @param droppedAboveHighWatermark changes dropped because the copier will read them
	 * @param deferredInFlight times a change was kept back because its chunk was in flight
	 * @param parks times an add waited for room under the soft limit
	 * @param parkedMillis total time adds waited
	 * @param softLimitBytes the soft limit, negative when there is none
	 */
	public record Counters(long bufferedKeys, long bufferedBytes, long keysAdded, long droppedAboveHighWatermark,
			long deferredInFlight, long parks, long parkedMillis, long softLimitBytes) {

	}

}
