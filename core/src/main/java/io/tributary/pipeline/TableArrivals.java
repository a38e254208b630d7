package io.tributary.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.tributary.name.TableId;

/**
 * Tables that appeared on the source while the pipeline runs (created, or renamed to a new name),
 * waiting for the control thread to see whether a rule takes them; and what no rule may take.
 * The reader thread adds, the control thread takes: an arrival is never lost between the two.
 */
final class TableArrivals {

	/** How long a table that appeared in the binlog may stay unseen in the source's catalog. */
	static final long UNSEEN_NANOS = 10_000_000_000L;

	private final Queue<TableId> appeared = new ConcurrentLinkedQueue<>();

	/** When each table looked for again was first looked for in vain; control thread only. */
	private final Map<TableId, Long> unseenSince = new HashMap<>();

	private volatile Set<TableId> reserved = Set.of();

	private volatile boolean targetIsSource;

	/** Notes a table that appeared; called on the reader thread. */
	void appeared(TableId table) {
		this.appeared.add(table);
	}

	/**
	 * Notes that a table the binlog says appeared is not in the source's catalog yet: MySQL may
	 * log a CREATE a moment before other sessions see the table. It is looked for again at the next
	 * call of {@link #take}, for a while.
	 * @return whether it will be looked for again; false once it has been unseen for too long, so
	 * it was dropped again
	 */
	boolean unseen(TableId table) {
		long now = System.nanoTime();
		long since = this.unseenSince.computeIfAbsent(table, (t) -> now);
		if (now - since > UNSEEN_NANOS) {
			this.unseenSince.remove(table);
			return false;
		}
		this.appeared.add(table);
		return true;
	}

	/** Notes that a table looked for again was found. */
	void seen(TableId table) {
		this.unseenSince.remove(table);
	}

	/** Returns, and forgets, the tables that appeared since the last call, oldest first. */
	List<TableId> take() {
		List<TableId> taken = new ArrayList<>();
		for (TableId table = this.appeared.poll(); table != null; table = this.appeared.poll()) {
			taken.add(table);
		}
		return taken;
	}

	/**
	 * Sets what no rule may take, as found when the pipeline prepared.
	 * @param tables Tributary's own tables and, when the target is the source, every target
	 * @param sameServer whether the target is the source server, so that the target of a table
	 * taken later is not to be taken either
	 */
	void reserve(Set<TableId> tables, boolean sameServer) {
		this.reserved = Set.copyOf(tables);
		this.targetIsSource = sameServer;
	}

	/** Returns the tables no rule may take, with the targets of {@code mappings} on a shared server. */
	Set<TableId> reserved(List<TableMapping> mappings) {
		if (!this.targetIsSource) {
			return this.reserved;
		}
		Set<TableId> all = new HashSet<>(this.reserved);
		all.addAll(TableRules.targets(mappings));
		return all;
	}

}
