package io.tributary.pipeline;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.tributary.apply.TableSink;
import io.tributary.apply.TargetSlice;
import io.tributary.name.TableId;
import io.tributary.name.TablePattern;
import io.tributary.name.TargetTemplate;
import io.tributary.source.StartPoint;

/**
 * Tables taken by a pattern rather than listed one by one: every source table the pattern
 * {@code include} matches and no pattern of {@code exclude} does, each replicated as a table of its
 * own, with the mapping the rule gives it. Which tables a rule takes is decided when the pipeline
 * prepares, from the source's tables at that moment.
 *
 * @param name how the rule is named in status, in messages and on the console, as in
 * {@code cdc.tables[2]}
 * @param include the tables the rule takes
 * @param exclude tables it leaves out although {@code include} matches them
 * @param mapping the mapping of a table the rule takes; its {@link TableMapping#rule()} is set to
 * {@code name}
 */
public record TableRule(String name, TablePattern include, List<TablePattern> exclude,
		Function<TableId, TableMapping> mapping) {

	public TableRule {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(include, "include");
		exclude = (exclude != null) ? List.copyOf(exclude) : List.of();
		Objects.requireNonNull(mapping, "mapping");
	}

	/**
	 * A rule copying each table it takes into the target table a template names.
	 * @param name the rule's name
	 * @param include the tables it takes
	 * @param exclude tables it leaves out
	 * @param target the target of each table; one without placeholders is refused when the rule
	 * takes more than one table
	 * @param key columns of a NOT NULL unique key to merge changes by; empty for the primary key
	 * @param snapshot when each table's existing rows are copied
	 * @return the rule
	 */
	public static TableRule toTables(String name, TablePattern include, List<TablePattern> exclude,
			TargetTemplate target, List<String> key, SnapshotMode snapshot) {
		Objects.requireNonNull(target, "target");
		return new TableRule(name, include, exclude,
				(source) -> new TableMapping(source, target.resolve(source), key, snapshot));
	}

	/**
	 * A rule sending each table it takes to a sink of its own, such as a Kafka topic named after it.
	 * @param name the rule's name
	 * @param include the tables it takes
	 * @param exclude tables it leaves out
	 * @param sinks the sink of each table
	 * @param key columns of a NOT NULL unique key to merge changes by; empty for the primary key
	 * @param snapshot when each table's existing rows are copied
	 * @return the rule
	 */
	public static TableRule toSinks(String name, TablePattern include, List<TablePattern> exclude,
			Function<TableId, TableSink> sinks, List<String> key, SnapshotMode snapshot) {
		Objects.requireNonNull(sinks, "sinks");
		return new TableRule(name, include, exclude,
				(source) -> TableMapping.toSink(source, key, snapshot, sinks.apply(source)));
	}

	/**
	 * Returns this rule with each table it takes starting at {@code point} when it is not copied
	 * and has no checkpoint; {@code null} for the source's head.
	 */
	public TableRule startingAt(StartPoint point) {
		return (point == null) ? this
				: new TableRule(this.name, this.include, this.exclude, this.mapping.andThen((m) -> m.startingAt(point)));
	}

	/**
	 * Returns this rule merging the tables it takes into their targets (shards into one table):
	 * each table writes its slice of the target, the rows whose column {@code column} holds the
	 * table's value.
	 * @param column the slice column's name in the target
	 * @param value what of each table's name its slice holds
	 */
	public TableRule merging(String column, ShardValue value) {
		return new TableRule(this.name, this.include, this.exclude,
				this.mapping.andThen((m) -> m.slicedBy(new TargetSlice(column, value.of(m.source())))));
	}

	/** Returns whether the rule takes the table. */
	public boolean takes(TableId table) {
		return this.include.matches(table) && this.exclude.stream().noneMatch((pattern) -> pattern.matches(table));
	}

	/** Returns the mapping of a table the rule takes, naming the rule. */
	TableMapping map(TableId table) {
		return this.mapping.apply(table).takenBy(this.name);
	}

}
