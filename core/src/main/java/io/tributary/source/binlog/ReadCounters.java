package io.tributary.source.binlog;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import io.tributary.name.TableId;
import io.tributary.status.TableStatus;

/**
 * What the reader read: transactions, row changes of each replicated table by kind, and the
 * events it could not follow. Written on the reader thread and read from any thread; atomics, no
 * lock, since the reader counts on every row event.
 */
final class ReadCounters {

	static final int INSERT = 0;

	static final int UPDATE = 1;

	static final int DELETE = 2;

	static final int TRUNCATE = 3;

	private final AtomicLong transactions = new AtomicLong();

	private final AtomicLong decodeErrors = new AtomicLong();

	private final AtomicLong schemaMismatches = new AtomicLong();

	/** Per table, the counts at {@link #INSERT}, {@link #UPDATE}, {@link #DELETE}, {@link #TRUNCATE}. */
	private final Map<TableId, AtomicLongArray> rows = new ConcurrentHashMap<>();

	void transactionEnded() {
		this.transactions.incrementAndGet();
	}

	void decodeError() {
		this.decodeErrors.incrementAndGet();
	}

	void schemaMismatch() {
		this.schemaMismatches.incrementAndGet();
	}

	/** Counts {@code count} changes of one kind for a table. */
	void rows(TableId table, int kind, int count) {
		counts(table).addAndGet(kind, count);
	}

	/**
	 * A table's counts, indexed by {@link #INSERT}, {@link #UPDATE}, {@link #DELETE} and
	 * {@link #TRUNCATE}, for the reader to add to without a lookup per event.
	 */
	AtomicLongArray counts(TableId table) {
		AtomicLongArray counts = this.rows.get(table);
		return (counts != null) ? counts : this.rows.computeIfAbsent(table, (id) -> new AtomicLongArray(4));
	}

	long transactions() {
		return this.transactions.get();
	}

	long decodeErrors() {
		return this.decodeErrors.get();
	}

	long schemaMismatches() {
		return this.schemaMismatches.get();
	}

	TableStatus.Events events(TableId table) {
		AtomicLongArray counts = this.rows.get(table);
		if (counts == null) {
			return TableStatus.Events.NONE;
		}
		return new TableStatus.Events(counts.get(INSERT), counts.get(UPDATE), counts.get(DELETE), counts.get(TRUNCATE));
	}

}
