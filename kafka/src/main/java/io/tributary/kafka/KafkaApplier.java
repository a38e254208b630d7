package io.tributary.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

import io.tributary.apply.ApplierCounters;
import io.tributary.apply.ApplyException;
import io.tributary.apply.ChangeOrigin;
import io.tributary.apply.SinkApplier;
import io.tributary.apply.SinkRefusedException;
import io.tributary.schema.TableLayout;
import io.tributary.source.Position;
import io.tributary.status.SinkStatus;

/**
 * Publishes one table's changes to its topic: one record per changed key, keyed by the row's key,
 * a row image as the value or no value (a tombstone) for a delete.
 *
 * <p>Each call sends all its records, then waits until the brokers acknowledged every one of them
 * ({@code acks=all} on an idempotent producer) before it returns, so the pipeline confirms a
 * position, and checkpoints it, only once everything before it is in the topic. When any record is
 * not acknowledged the call fails: the pipeline keeps the changes and sends them again, merged with
 * newer changes of the same keys, and the position stays. Records of the failed call that were
 * acknowledged stay in the topic; the next call sends their keys again (at least once).
 *
 * <p>Calls for one table may overlap only for keys that differ (snapshot chunks are key-disjoint,
 * and a change to a row of a chunk waits until the chunk is acknowledged), so each key's records
 * reach its partition in the order the source made the changes.
 */
final class KafkaApplier implements SinkApplier {

	private final Producer<byte[], byte[]> producer;

	private final String topic;

	private final TableLayout layout;

	private final ChangeRecords records;

	private final SendCounters counters;

	private final Duration ackTimeout;

	KafkaApplier(Producer<byte[], byte[]> producer, String topic, TableLayout layout, SendCounters counters,
			Duration ackTimeout) {
		this.producer = producer;
		this.topic = topic;
		this.layout = layout;
		this.records = new ChangeRecords(layout);
		this.counters = counters;
		this.ackTimeout = ackTimeout;
	}

	@Override
	public void upsert(List<Object[]> rows) {
		apply(rows, null, List.of(), null);
	}

	@Override
	public void delete(List<Object[]> keys) {
		apply(List.of(), null, keys, null);
	}

	@Override
	public void apply(List<Object[]> upserts, List<Object[]> deletedKeys, Position coveredUpTo) {
		apply(upserts, null, deletedKeys, coveredUpTo);
	}

	@Override
	public void apply(List<Object[]> upserts, List<ChangeOrigin> origins, List<Object[]> deletedKeys,
			Position coveredUpTo) {
		if (upserts.isEmpty() && deletedKeys.isEmpty()) {
			return;
		}
		List<CompletableFuture<Void>> acks = new ArrayList<>(upserts.size() + deletedKeys.size());
		Throwable sendFailure = null;
		try {
			int total = deletedKeys.size() + upserts.size();
			AtomicBoolean failing = new AtomicBoolean();
			// The producer fails a record at once when it waited max.block.ms for the topic's metadata
			// (brokers unreachable); sending the rest would wait as long for each, and the call fails anyway.
			for (int i = 0; i < total && !failing.get(); i++) {
				if (i < deletedKeys.size()) {
					acks.add(send(this.records.key(deletedKeys.get(i)), null, failing));
				}
				else {
					int upsert = i - deletedKeys.size();
					Object[] image = upserts.get(upsert);
					ChangeOrigin origin = (origins != null) ? origins.get(upsert) : null;
					acks.add(send(this.records.key(this.layout.keyOf(image)), this.records.value(image, origin), failing));
				}
			}
		}
		catch (KafkaException ex) {
			// The producer refused a record before sending it (closed, or its metadata wait ran out).
			this.counters.failed();
			sendFailure = ex;
		}
		Throwable failure = awaitAll(acks);
		if (failure == null) {
			failure = sendFailure;
		}
		if (failure != null) {
			this.counters.callFailed();
			throw failed(failure, upserts.size() + deletedKeys.size());
		}
		this.counters.callSucceeded(upserts.size(), deletedKeys.size());
	}

	private CompletableFuture<Void> send(byte[] key, byte[] value, AtomicBoolean failing) {
		CompletableFuture<Void> ack = new CompletableFuture<>();
		this.producer.send(new ProducerRecord<>(this.topic, key, value), (metadata, error) -> {
			if (error != null) {
				failing.set(true);
				this.counters.failed();
				ack.completeExceptionally(error);
			}
			else {
				this.counters.acknowledged(metadata.partition(), metadata.offset());
				ack.complete(null);
			}
		});
		return ack;
	}

	/**
	 * Waits for every record sent, even after one failed, so that no record of this call is still
	 * in flight when the next call sends a newer image of its key. Returns the first failure.
	 */
	private Throwable awaitAll(List<CompletableFuture<Void>> acks) {
		long deadline = System.nanoTime() + this.ackTimeout.toNanos();
		Throwable first = null;
		for (CompletableFuture<Void> ack : acks) {
			try {
				long left = Math.max(0, deadline - System.nanoTime());
				ack.get(left, TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				first = (first != null) ? first : ex.getCause();
			}
			catch (TimeoutException ex) {
				return (first != null) ? first : ex;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return (first != null) ? first : ex;
			}
		}
		return first;
	}

	private ApplyException failed(Throwable cause, int records) {
		String what = "Kafka did not acknowledge every one of " + records + " records of "
				+ this.layout.table() + " to topic '" + this.topic + "'";
		if (KafkaErrors.permanent(cause)) {
			return new SinkRefusedException(what + ": " + cause + ". " + KafkaErrors.advice(cause), cause);
		}
		if (cause instanceof TimeoutException) {
			return new ApplyException(what + " within " + this.ackTimeout.toMillis() + " ms; they are sent again",
					cause);
		}
		String advice = KafkaErrors.advice(cause);
		return new ApplyException(what + ": " + cause + "; they are sent again" + (advice.isEmpty() ? "" : ". "
				+ advice), cause);
	}

	@Override
	public KafkaApplier withLayout(TableLayout next) {
		return new KafkaApplier(this.producer, this.topic, next, this.counters, this.ackTimeout);
	}

	/**
	 * Refuses: a compacted topic forgets a row only through a tombstone for its key, and the keys
	 * the topic holds are not known here.
	 */
	@Override
	public void truncate() {
		throw new ApplyException("Kafka topic '" + this.topic + "' of " + this.layout.table() + " cannot follow a "
				+ "TRUNCATE: forgetting the table's rows takes a tombstone for each key, and Tributary does not know "
				+ "the keys the topic holds. To go on, publish tombstones for the table's old keys yourself (or "
				+ "empty the topic), then delete the table's row from the checkpoint table and restart, which "
				+ "snapshots the table again", null);
	}

	@Override
	public ApplierCounters counters() {
		return this.counters.applier();
	}

	@Override
	public SinkStatus status() {
		return this.counters.status(this.topic);
	}

}
