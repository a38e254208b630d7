package io.tributary.pipeline;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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

	private final Queue<TableId> appeared = new ConcurrentLinkedQueue<>();

	private volatile Set<TableId> reserved = Set.of();

	private volatile boolean targetIsSource;

	/** Notes a table that appeared; called on the reader thread. */
	void appeared(TableId table) {
		this.appeared.add(table);
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
