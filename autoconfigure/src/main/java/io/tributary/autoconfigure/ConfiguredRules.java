package io.tributary.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.tributary.name.TableId;
import io.tributary.name.TablePattern;
import io.tributary.name.TargetTemplate;
import io.tributary.pipeline.TableRule;

/**
 * Turns the entries of {@code cdc.tables} whose {@code source} is a pattern into the engine's
 * {@link TableRule}s, each named after its entry ({@code cdc.tables[2]}), checking what can be
 * checked without the source: the patterns, the templates, and that a rule goes somewhere. Which
 * tables a rule takes, and whether two of them would share a destination, the pipeline decides
 * when it starts.
 */
final class ConfiguredRules {

	/** How a pattern is written, for the actions of refusals. */
	private static final String FORMS = "Write one table as schema.table, a pattern as shop.* or shop.order_? (* any "
			+ "run of characters, ? one character), or regex: and a regular expression over schema.table.";

	private ConfiguredRules() {
	}

	/**
	 * Reads the source of an entry.
	 * @return the pattern; {@link TablePattern#isExact()} for an entry naming one table
	 */
	static TablePattern source(String text, String property) {
		PropertyChecks.notBlank(property, text, "Name the source table as schema.table, or remove the entry.");
		try {
			return TablePattern.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new TributaryConfigurationException(property, text, property + " is not schema.table or a "
					+ "pattern: " + ex.getMessage(), FORMS);
		}
	}

	/**
	 * Returns the rule of an entry whose source is a pattern.
	 * @param table the entry
	 * @param entry its property, as {@code cdc.tables[2]}
	 * @param include its source
	 * @param targetSchema the target's default schema, or {@code null}
	 * @param listenerMode whether the application's listener takes every table's changes
	 * @param topics the sinks of Kafka topics, or {@code null} without Kafka support
	 */
	static TableRule rule(TributaryProperties.Table table, String entry, TablePattern include, String targetSchema,
			boolean listenerMode, TopicSinks topics) {
		List<TablePattern> exclude = new ArrayList<>();
		for (int i = 0; i < table.getExclude().size(); i++) {
			exclude.add(source(table.getExclude().get(i), entry + ".exclude[" + i + "]"));
		}
		String topic = table.getKafka().getTopic();
		if (topic != null) {
			ConfiguredPipelines.checkTopic(table, entry, topic, topics, "each table the pattern " + include + " takes");
			return TableRule.toSinks(entry, include, exclude, (source) -> topics.sink(fill(topic, source)), table.getKey(),
					table.getSnapshot());
		}
		if (listenerMode) {
			ConfiguredPipelines.refuseTargetWithListener(table, entry);
			// No target table: the pipeline sends each table to its listener.
			return TableRule.toTables(entry, include, exclude, TargetTemplate.parse("{schema}.{table}", null),
					table.getKey(), table.getSnapshot());
		}
		return TableRule.toTables(entry, include, exclude, target(table.getTarget(), targetSchema, entry + ".target"),
				table.getKey(), table.getSnapshot());
	}

	/** Refuses an exclusion on an entry that names one table. */
	static void refuseExcludeOfOneTable(TributaryProperties.Table table, String entry) {
		if (!table.getExclude().isEmpty()) {
			throw new TributaryConfigurationException(entry + ".exclude", String.join(",", table.getExclude()), entry
					+ ".source names one table, which leaves nothing to exclude", "Remove " + entry + ".exclude, or "
							+ "make " + entry + ".source a pattern.");
		}
		if (table.getMerge().getColumn() != null) {
			throw new TributaryConfigurationException(entry + ".merge.column", table.getMerge().getColumn(), entry
					+ ".source names one table, which leaves nothing to merge", "Remove " + entry + ".merge, or make "
							+ entry + ".source a pattern that takes the tables to merge (regex: names them exactly).");
		}
	}

	/**
	 * Returns a rule merging the tables it takes into their targets when the entry asks for it.
	 * @throws TributaryConfigurationException when the entry's tables do not go to target tables
	 */
	static TableRule merged(TableRule rule, TributaryProperties.Table table, String entry, boolean listenerMode) {
		String column = table.getMerge().getColumn();
		if (column == null) {
			return rule;
		}
		if (column.isBlank() || listenerMode || table.getKafka().getTopic() != null) {
			throw new TributaryConfigurationException(entry + ".merge.column", column, column.isBlank()
					? entry + ".merge.column is empty"
					: entry + "'s tables go to " + (listenerMode ? "the ChangeListener" : "a Kafka topic")
							+ ", which holds no rows to tell apart; only a target table can merge tables",
					column.isBlank() ? "Name the target column that tells the merged tables apart, such as shard."
							: "Remove " + entry + ".merge.");
		}
		return rule.merging(column, table.getMerge().getValue());
	}

	/** Reads a target template; without one, each table keeps its name in the target's default schema. */
	static TargetTemplate target(String text, String targetSchema, String property) {
		if (text == null) {
			if (targetSchema == null || targetSchema.isBlank()) {
				throw new TributaryConfigurationException(property, null, property + " is not set, so each table "
						+ "would keep its name in the target's default schema, but the target JDBC URL names none",
						"Set " + property + " to a template such as replica.{table}, or give the target URL a "
								+ "default schema (jdbc:mysql://host:3306/replica).");
			}
			return TargetTemplate.sameName(targetSchema);
		}
		try {
			return TargetTemplate.parse(text, targetSchema);
		}
		catch (IllegalArgumentException ex) {
			throw new TributaryConfigurationException(property, text, property + " is not a target table: "
					+ ex.getMessage(), "Name the target as schema.table, where {schema} and {table} stand for the "
							+ "source table's, as in replica.{table}.");
		}
	}

	/** Puts a source table's schema and name into a topic's name. */
	static String fill(String topic, TableId source) {
		return topic.replace("{schema}", source.schema()).replace("{table}", source.table());
	}

}
