package io.tributary.name;

import java.util.Objects;

/**
 * Where one source table's changes go: a {@link Table} of the pipeline's target database, the
 * application's {@link Listener}, or a Kafka {@link Topic}. Checkpoints, statuses, meters and the
 * console name a table's destination by it; a new kind of destination is a new record here, and
 * the compiler then points at every place that must learn it.
 *
 * <p>Each destination has one text form, written to checkpoints and shown in statuses, that
 * {@link #parse} reads back: a table as {@link TableId#toString()}, any other kind as
 * {@code (<kind>).<name>}, as in {@code (kafka).eu.shop.orders} for a topic with dots in its name.
 * A table's text never reads as another kind's, since a schema beginning with a parenthesis is
 * written quoted.
 */
public sealed interface Destination {

	/** Returns the kind of destination, as its text form and the endpoint name it. */
	String kind();

	/** Returns the destination's own name: the table's, the topic's, the listener's table's. */
	String name();

	/**
	 * Returns the destination as a sentence names it, as in {@code Kafka topic eu.orders}: for
	 * messages and pages, where the text form would read as a table.
	 */
	String describe();

	/**
	 * Reads a destination from its text form.
	 * @param text as {@link #toString()} of a destination wrote it
	 * @return the destination
	 * @throws IllegalArgumentException when the text is neither a table's name nor a known kind's
	 * {@code (<kind>).<name>}
	 */
	static Destination parse(String text) {
		Objects.requireNonNull(text, "text");
		int close = text.indexOf(").");
		if (text.startsWith("(") && close > 1) {
			String kind = text.substring(1, close);
			String name = text.substring(close + 2);
			if (kind.equals(Topic.KIND)) {
				return new Topic(name);
			}
			if (kind.equals(Listener.KIND)) {
				return new Listener(name);
			}
		}
		return new Table(TableId.parse(text, null));
	}

	/** The text form of a destination other than a table: {@code (<kind>).<name>}. */
	private static String labelled(String kind, String name) {
		return "(" + kind + ")." + name;
	}

	/**
	 * A table of the pipeline's target database, written with idempotent batched statements.
	 *
	 * @param id the table
	 */
	record Table(TableId id) implements Destination {

		/** Kind of a target table. */
		public static final String KIND = "table";

		public Table {
			Objects.requireNonNull(id, "id");
		}

		@Override
		public String kind() {
			return KIND;
		}

		@Override
		public String name() {
			return this.id.toString();
		}

		@Override
		public String describe() {
			return this.id.toString();
		}

		@Override
		public String toString() {
			return this.id.toString();
		}

	}

	/**
	 * The application's change listener, which receives the changes of every table of the pipeline.
	 *
	 * @param name the source table's name without its schema, as the checkpoints of earlier
	 * releases wrote it
	 */
	record Listener(String name) implements Destination {

		/** Kind of the change listener. */
		public static final String KIND = "listener";

		public Listener {
			Objects.requireNonNull(name, "name");
		}

		/** Returns the listener's destination for one source table. */
		public static Listener of(TableId source) {
			return new Listener(source.table());
		}

		@Override
		public String kind() {
			return KIND;
		}

		@Override
		public String describe() {
			return "the ChangeListener";
		}

		@Override
		public String toString() {
			return labelled(KIND, this.name);
		}

	}

	/**
	 * A Kafka topic, compacted, keyed by the row's key.
	 *
	 * @param name the topic
	 */
	record Topic(String name) implements Destination {

		/** Kind of a Kafka topic. */
		public static final String KIND = "kafka";

		public Topic {
			Objects.requireNonNull(name, "name");
		}

		@Override
		public String kind() {
			return KIND;
		}

		@Override
		public String describe() {
			return "Kafka topic " + this.name;
		}

		@Override
		public String toString() {
			return labelled(KIND, this.name);
		}

	}

}
