package io.tributary.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.tributary.apply.ApplierCounters;
import io.tributary.status.SinkStatus;

/**
 * What a table's Kafka applier sent, kept across the appliers of the table's successive layouts.
 * Updated from the producer's I/O thread and the threads that send.
 */
final class SendCounters {

	private final AtomicLong recordsSent = new AtomicLong();

	private final AtomicLong sendErrors = new AtomicLong();

	private final AtomicLong callsOk = new AtomicLong();

	private final AtomicLong callsFailed = new AtomicLong();

	private final AtomicLong rowsUpserted = new AtomicLong();

	private final AtomicLong keysDeleted = new AtomicLong();

	private final Map<Integer, Long> lastOffsets = new ConcurrentHashMap<>();

	void acknowledged(int partition, long offset) {
		this.recordsSent.incrementAndGet();
		if (offset >= 0) {
			this.lastOffsets.merge(partition, offset, Math::max);
		}
	}

	void failed() {
		this.sendErrors.incrementAndGet();
	}

	void callSucceeded(int upserts, int deletes) {
		this.callsOk.incrementAndGet();
		this.rowsUpserted.addAndGet(upserts);
		this.keysDeleted.addAndGet(deletes);
	}

	void callFailed() {
		this.callsFailed.incrementAndGet();
	}

	/** One applier call is one batch: it returns once all its records are acknowledged, or fails. */
	ApplierCounters applier() {
		return new ApplierCounters(this.callsOk.get(), this.callsFailed.get(), this.rowsUpserted.get(),
				this.keysDeleted.get(), 0, 0, 1, 1);
	}

	SinkStatus status(String topic) {
		Map<String, Long> offsets = new LinkedHashMap<>();
		new TreeMap<>(this.lastOffsets).forEach((partition, offset) -> offsets.put(String.valueOf(partition), offset));
		return new SinkStatus("kafka", topic, this.recordsSent.get(), this.sendErrors.get(), offsets);
	}

}
