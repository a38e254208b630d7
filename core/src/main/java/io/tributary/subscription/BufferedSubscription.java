package io.tributary.subscription;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>Merging by key assumes that keys equal in memory are exactly the keys the server treats as
 * one row. Under a case- or accent-insensitive collation they are not: {@code 'A'} and
 * {@code 'a'} are two map entries but one row, and the order in which the map applies them is
 * not the order of the binlog. For such a table ({@link TableLayout#keyIsMemoryComparable()} is
 * false) the buffer keeps binlog order once the table's copy is over ({@link #endCopyPhase()}):
 * the map still holds what was added before, and is drained first; every later change is
 * appended to a queue, and a drain hands the queue out in order, as {@linkplain ChangeRun runs}
 * to apply one after another. During the copy the map is used all the same, since the copier's
 * reads cover races on the rows it copies.
 *
 * <p>Each entry remembers the transaction boundary a reader would have to restart from to see it
 * again. {@link #oldestPending()} is the smallest such boundary over every entry still held,
 * queued ones included, and the confirm bound of the catch-up loop is never past it.
 *
 * <p>Memory is bounded by a soft limit, and by the pipeline's {@link BufferBudget}, over the
 * changes buffered plus those drained whose apply has not ended ({@link #settle}); see
 * {@link BufferMemory}. An add that takes more room (a new key, or any change in binlog order)
 * waits while either is reached, and asks for a flush; the budget's wait holds no lock of this
 * buffer. The check is made before the add, so a row larger than the limit is still admitted, and
 * replacing the change of a key already held never waits. Each wait is counted.
 *
 * <p>Thread safety: the binlog reader adds while the catch-up loop drains and requeues; one lock
 * guards the map, the queue, the byte count and the pending-position index.
 */
public final class BufferedSubscription {

	private static final Logger logger = LoggerFactory.getLogger(BufferedSubscription.class);

	private final TableLayout layout;

	private final Object lock = new Object();

	private Map<RowKey, BufferedChange> entries = new HashMap<>();

	/** Changes added since the switch to binlog order, oldest first. */
	private final Deque<BufferedChange> queue = new ArrayDeque<>();

	private final KeyFold fold;

	private boolean inOrder;

	private final PendingPositions pending = new PendingPositions();

	private final HotKeys hot = new HotKeys();

	private final BufferMemory memory;

	private long keysAdded;

	private long droppedAboveHighWatermark;

	private long deferredInFlight;

	private final Runnable flushRequest;

	private final long flushAtKeys;

	private boolean flushRequested;

	/** Creates a buffer without a memory limit. */
	public BufferedSubscription(TableLayout layout) {
		this(layout, -1, Long.MAX_VALUE, () -> {
		});
	}

	/**
	 * Creates a buffer with a budget of its own, which never makes an add wait.
	 * @see #BufferedSubscription(TableLayout, long, long, Runnable, BufferBudget)
	 */
	public BufferedSubscription(TableLayout layout, long softLimitBytes, long flushAtKeys, Runnable flushRequest) {
		this(layout, softLimitBytes, flushAtKeys, flushRequest, BufferBudget.unlimited());
	}

	/**
	 * Creates a buffer.
	 * @param layout the table's layout
	 * @param softLimitBytes bytes at or above which adds of new keys wait; negative for no limit
	 * @param flushAtKeys number of buffered keys at which a flush is requested without waiting for
	 * the next interval
	 * @param flushRequest asks the catch-up loop to flush soon; called when an add starts waiting
	 * or the buffer reaches {@code flushAtKeys}
	 * @param budget the budget the pipeline's buffers share, which counts this one's bytes too
	 */
	public BufferedSubscription(TableLayout layout, long softLimitBytes, long flushAtKeys, Runnable flushRequest,
			BufferBudget budget) {
		this.layout = layout;
		this.memory = new BufferMemory(softLimitBytes, budget);
		this.flushAtKeys = flushAtKeys;
		this.flushRequest = flushRequest;
		this.fold = new KeyFold(layout);
	}

	public TableLayout layout() {
		return this.layout;
	}

	/**
	 * Tells the buffer that its table's copy is over, or that the table resumes without one. A
	 * table whose key is not memory-comparable keeps binlog order from now on: what the map holds
	 * is drained first, and later changes are queued. Calling it again has no effect.
	 * @return whether the buffer keeps binlog order
	 */
	public boolean endCopyPhase() {
		synchronized (this.lock) {
			if (!this.inOrder && !this.layout.keyIsMemoryComparable()) {
				this.inOrder = true;
				logger.info("Changes of {} are applied in binlog order from now on: its key column(s) {} are not "
						+ "memory-comparable, so differing key values can name one row", this.layout.table(),
						KeyFold.describeFolded(this.layout));
			}
			return this.inOrder;
		}
	}

	/** Returns whether changes are kept in binlog order rather than merged by key. */
	public boolean keepsBinlogOrder() {
		synchronized (this.lock) {
			return this.inOrder;
		}
	}

	/**
	 * Buffers a change, replacing any change already held for its key, or, when the buffer keeps
	 * binlog order, after every change already queued. A change that takes more room waits first
	 * while the buffer is at its soft limit, and while the pipeline's budget is spent.
	 * @param change the change
	 * @param resumeFrom the boundary to reread from to see the change again
	 */
	public void add(RowChange change, Position resumeFrom) {
		BufferedChange entry = new BufferedChange(new RowKey(change.key()), change.image(), resumeFrom,
				Values.sizeOf(change.key()) + Values.sizeOf(change.image()) + 96, change.sourceMillis());
		boolean waitedForBudget = false;
		long budgetWaitStarted = 0;
		while (true) {
			synchronized (this.lock) {
				if (waitedForBudget) {
					this.memory.budgetParkEnded(System.nanoTime() - budgetWaitStarted);
				}
				if (this.memory.full() && takesRoom(entry.key())) {
					this.memory.park(this.lock, this.flushRequest);
				}
				// One wait for the budget per add: it ends with room, or when the buffer is released.
				if (waitedForBudget || !this.memory.budgetSpent() || !takesRoom(entry.key())) {
					put(entry);
					return;
				}
				this.memory.budgetParkStarts();
				waitedForBudget = true;
				budgetWaitStarted = System.nanoTime();
			}
			// Without the lock, so this buffer's drains, settles and clears go on meanwhile.
			this.memory.awaitBudget(this.flushRequest);
		}
	}

	/** Whether a change of this key takes more room: its key is new, or the buffer keeps binlog order. */
	private boolean takesRoom(RowKey key) {
		return this.inOrder || !this.entries.containsKey(key);
	}

	private void put(BufferedChange entry) {
		if (this.inOrder) {
			this.queue.addLast(entry);
			remember(entry);
		}
		else {
			BufferedChange previous = this.entries.put(entry.key(), entry);
			if (previous != null) {
				this.pending.remove(previous.resumeFrom());
				this.pending.add(entry.resumeFrom());
				this.memory.replace(previous.size(), entry.size());
			}
			else {
				remember(entry);
			}
		}
		this.keysAdded++;
		if (!this.flushRequested && held() >= this.flushAtKeys) {
			this.flushRequested = true;
			this.flushRequest.run();
		}
	}

	/**
	 * Stops waiting for room: adds from now on never wait. Called when the pipeline stops, so a
	 * reader waiting in {@link #add} can finish its change (which is kept, not lost) and end.
	 */
	public void close() {
		synchronized (this.lock) {
			this.memory.close();
			this.lock.notifyAll();
		}
	}

	/**
	 * Lets the buffer go: it drops every buffered change, gives every byte it holds, buffered and in
	 * flight, back to the pipeline's budget, and never waits again. Called when the table takes
	 * another buffer, so that a change the reader added to this one meanwhile holds no room of the
	 * budget; a drain of it still in flight may be settled as usual.
	 */
	public void retire() {
		synchronized (this.lock) {
			dropAll();
			this.memory.retire();
			this.lock.notifyAll();
		}
	}

	/**
	 * Takes out every change that may be applied now: the merged changes of the map, and, once
	 * the map is empty, the queued ones in binlog order. The merged changes precede the queued ones
	 * in the binlog and must be applied first.
	 *
	 * <p>The copier position is read while holding the buffer's lock, so it is read after every
	 * add whose change this drain judges. Reading it earlier could judge a key "not yet
	 * dispatched" after its chunk had been read without the change, and drop it. Every drain must
	 * be {@linkplain #settle settled}, or its room stays taken and adds wait for it forever.
	 * @param copierPosition supplies the copier's current watermarks
	 * @return the changes to apply, and counts of what stayed and what was dropped
	 */
	public Drain drain(Supplier<Watermarks> copierPosition) {
		return drain(copierPosition, false);
	}

	/**
	 * Takes what can be applied now.
	 * @param copierPosition the copier's watermarks, which defer or drop changes of keys in flight
	 * @param early whether this is a flush ahead of the interval, because the reader is idle: keys
	 * written recently stay buffered until the flush at the interval ({@link HotKeys})
	 */
	public Drain drain(Supplier<Watermarks> copierPosition, boolean early) {
		List<BufferedChange> sequence = new ArrayList<>();
		Drain merged = drainMerged(copierPosition, early, sequence);
		if (sequence.isEmpty()) {
			return merged;
		}
		return new Drain(merged.upserts(), merged.deletes(), merged.deferred(), merged.dropped(),
				ChangeRun.split(sequence, this.fold), merged.bytes());
	}

	private Drain drainMerged(Supplier<Watermarks> copierPosition, boolean early, List<BufferedChange> sequence) {
		Map<RowKey, BufferedChange> all;
		long taken;
		synchronized (this.lock) {
			Watermarks watermarks = copierPosition.get();
			if (early || !watermarks.appliesAll() || !this.queue.isEmpty()) {
				return drainKeyByKey(watermarks, early, sequence);
			}
			// Everything goes: the map changes hands and is split after the lock, so an add waits
			// for a swap, not for a pass over every key.
			all = this.entries;
			// Sized for as many keys as the last interval brought, so the reader does not grow it again.
			this.entries = new HashMap<>(Math.max(16, (int) (all.size() / 0.75f) + 1));
			this.hot.intervalOver(all::containsKey);
			this.pending.clear();
			// The room stays taken until the drain is settled, so a waiting add is not woken.
			taken = this.memory.drainAll();
			this.flushRequested = false;
		}
		List<BufferedChange> upserts = new ArrayList<>(all.size());
		List<BufferedChange> deletes = new ArrayList<>();
		for (BufferedChange entry : all.values()) {
			(entry.isDelete() ? deletes : upserts).add(entry);
		}
		return new Drain(upserts, deletes, 0, 0, List.of(), taken);
	}

	private Drain drainKeyByKey(Watermarks watermarks, boolean early, List<BufferedChange> sequence) {
		synchronized (this.lock) {
			List<BufferedChange> upserts = new ArrayList<>();
			List<BufferedChange> deletes = new ArrayList<>();
			int deferred = 0;
			int dropped = 0;
			long taken = 0;
			var iterator = this.entries.values().iterator();
			while (iterator.hasNext()) {
				BufferedChange entry = iterator.next();
				Verdict verdict = watermarks.classify(entry.key());
				if (verdict == Verdict.DEFER) {
					deferred++;
					continue;
				}
				if (early && this.hot.holds(entry.key())) {
					continue;
				}
				iterator.remove();
				this.hot.written(entry.key(), early);
				if (verdict == Verdict.DROP) {
					forget(entry);
					dropped++;
					continue;
				}
				takeOut(entry);
				taken += entry.size();
				(entry.isDelete() ? deletes : upserts).add(entry);
			}
			if (!early) {
				this.hot.intervalOver();
			}
			this.droppedAboveHighWatermark += dropped;
			this.deferredInFlight += deferred;
			if (this.entries.isEmpty()) {
				for (BufferedChange entry : this.queue) {
					takeOut(entry);
					taken += entry.size();
					sequence.add(entry);
				}
				this.queue.clear();
			}
			this.flushRequested = false;
			// Dropped changes free room now; the others once the drain is settled.
			this.lock.notifyAll();
			return new Drain(upserts, deletes, deferred, dropped, List.of(), taken);
		}
	}

	/**
	 * Ends the apply of a drain, whatever its outcome, and frees the room its changes took against
	 * the soft limit. Call it exactly once per drain, after putting back what failed
	 * ({@link #requeue}, {@link #requeueAtFront}), which is then counted as buffered again.
	 */
	public void settle(Drain drain) {
		synchronized (this.lock) {
			this.memory.settled(drain.bytes());
			this.lock.notifyAll();
		}
	}

	/**
	 * Puts back merged changes ({@link Drain#upserts()}, {@link Drain#deletes()}) whose apply
	 * failed. A key that received a newer change meanwhile keeps the newer one.
	 */
	public void requeue(Collection<BufferedChange> failed) {
		synchronized (this.lock) {
			for (BufferedChange entry : failed) {
				if (this.entries.putIfAbsent(entry.key(), entry) == null) {
					remember(entry);
				}
			}
		}
	}

	/**
	 * Puts back queued changes that were drained but not applied (see
	 * {@link OrderedReplay#remaining()}), in front of everything queued since, keeping their order.
	 * @param notApplied the changes, in binlog order
	 */
	public void requeueAtFront(List<BufferedChange> notApplied) {
		synchronized (this.lock) {
			for (int i = notApplied.size() - 1; i >= 0; i--) {
				BufferedChange entry = notApplied.get(i);
				this.queue.addFirst(entry);
				remember(entry);
			}
		}
	}

	/** Returns the oldest resume position over the buffered entries, or {@code null} if none. */
	public Position oldestPending() {
		synchronized (this.lock) {
			return this.pending.oldest();
		}
	}

	/** Drops every buffered change (the table is being snapshotted again or has failed). */
	public void clear() {
		synchronized (this.lock) {
			dropAll();
			this.lock.notifyAll();
		}
	}

	private void dropAll() {
		this.entries.clear();
		this.queue.clear();
		this.pending.clear();
		this.hot.clear();
		this.memory.clear();
	}

	public SubscriptionCounters counters() {
		synchronized (this.lock) {
			return new SubscriptionCounters(held(), this.memory.bytes(), this.keysAdded, this.droppedAboveHighWatermark,
					this.deferredInFlight, this.memory.parks(), this.memory.parkedMillis(),
					this.memory.softLimitBytes(), this.memory.inFlightBytes(), this.memory.budgetParks());
		}
	}

	/** Returns how many changes are held, merged and queued. */
	private int held() {
		return this.entries.size() + this.queue.size();
	}

	private void remember(BufferedChange entry) {
		this.pending.add(entry.resumeFrom());
		this.memory.add(entry.size());
	}

	private void forget(BufferedChange entry) {
		this.pending.remove(entry.resumeFrom());
		this.memory.release(entry.size());
	}

	/** Takes a change out into a drain: it stays in memory, in flight, until the drain is settled. */
	private void takeOut(BufferedChange entry) {
		this.pending.remove(entry.resumeFrom());
		this.memory.drained(entry.size());
	}

}
