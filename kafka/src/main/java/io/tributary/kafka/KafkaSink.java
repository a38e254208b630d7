package io.tributary.kafka;

import java.util.Objects;

import io.tributary.apply.SinkApplier;
import io.tributary.apply.TableSink;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.schema.TableLayout;

/**
 * Publishes one table's changes to a Kafka topic, a {@link Destination.Topic} in the table's
 * checkpoint and status. Made by {@link KafkaSinks#sink(String)}.
 */
public final class KafkaSink implements TableSink {

	private final KafkaSinks sinks;

	private final String topic;

	private final SendCounters counters = new SendCounters();

	KafkaSink(KafkaSinks sinks, String topic) {
		this.sinks = sinks;
		this.topic = Objects.requireNonNull(topic, "topic");
	}

	/** Returns the topic the table's records go to. */
	public String topic() {
		return this.topic;
	}

	@Override
	public Destination destination(TableId source) {
		return new Destination.Topic(this.topic);
	}

	/**
	 * Checks (or creates) the topic, then returns the applier; the counters carry over from the
	 * table's earlier appliers, across restarts of the table.
	 */
	@Override
	public SinkApplier open(TableLayout layout) {
		this.sinks.topics().require(this.topic, layout.table().toString());
		return new KafkaApplier(this.sinks.producer(), this.topic, layout, this.counters, this.sinks.ackTimeout());
	}

	@Override
	public String toString() {
		return "Kafka topic " + this.topic;
	}

}
