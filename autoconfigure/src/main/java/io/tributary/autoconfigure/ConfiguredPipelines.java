package io.tributary.autoconfigure;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.tributary.apply.ChangeListener;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.ha.HaSettings;
import io.tributary.name.Destination;
import io.tributary.name.TableId;
import io.tributary.name.TablePattern;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.SnapshotMode;
import io.tributary.pipeline.TableMapping;
import io.tributary.pipeline.TableRule;
import io.tributary.source.SourceSettings;
import io.tributary.source.StartPoint;

/**
 * Turns the {@code cdc.*} properties into the settings of each pipeline, checking them first.
 * Tables are checked across all pipelines at once, since they share one target: no table is
 * listed twice, no two tables are copied into one target table, none is copied onto the
 * checkpoint table, no two tables are published to one Kafka topic, and with a
 * {@code ChangeListener} no source table comes from two sources. A table with
 * {@code kafka.topic} goes to that topic, whether or not there is a listener.
 */
final class ConfiguredPipelines {

	private ConfiguredPipelines() {
	}

	/** How a name holding a dot or a backtick is written, for the actions of refusals. */
	private static final String QUOTING = "Quote a part that holds a dot or a backtick with backticks, writing a "
			+ "backtick inside it twice, as in `odd.schema`.`special``name`.";

	/**
	 * Checks the shared properties and a source's connection properties, and returns the source's
	 * settings, with a random server id when none is set.
	 */
	static SourceSettings sourceSettings(TributaryProperties properties, ConfiguredSource configured) {
		PropertyChecks.checkShared(properties);
		PropertyChecks.checkSource(configured);
		TributaryProperties.Source source = configured.source();
		long serverId = (source.getServerId() != null) ? source.getServerId()
				: 100_000 + new SecureRandom().nextInt(Integer.MAX_VALUE - 100_000);
		return new SourceSettings(source.getHost(), source.getPort(), source.getUsername(), source.getPassword(),
				serverId, source.getConnectTimeout(), source.getHeartbeatInterval(), source.getSslMode(),
				source.getSslCa(), source.isGtidPositioning());
	}

	/**
	 * Returns the checkpoint table, every pipeline's, in the target's default schema unless it names
	 * one; {@code null} with the checkpoints in Kafka.
	 */
	static TableId checkpointTable(TributaryProperties properties, String targetSchema) {
		if (properties.getCheckpoint().getStore() == TributaryProperties.Checkpoint.Store.KAFKA) {
			return null;
		}
		return target(properties.getCheckpoint().getTable(), targetSchema, "cdc.checkpoint.table");
	}

	/**
	 * Checks every setting and returns the settings of one pipeline.
	 * @param properties the properties
	 * @param configured the source the pipeline reads
	 * @param source that source's settings (the application's own, or built from the properties)
	 * @param targetSchema the target's default schema, or {@code null} when its URL names none
	 * @param listener the application's change listener, or {@code null} to write target tables
	 */
	static PipelineSettings settings(TributaryProperties properties, ConfiguredSource configured, SourceSettings source,
			String targetSchema, ChangeListener listener) {
		return settings(properties, configured, source, targetSchema, listener, null);
	}

	/**
	 * Checks every setting and returns the settings of one pipeline.
	 * @param properties the properties
	 * @param configured the source the pipeline reads
	 * @param source that source's settings (the application's own, or built from the properties)
	 * @param targetSchema the target's default schema, or {@code null} when its URL names none
	 * @param listener the application's change listener, or {@code null} to write target tables
	 * @param topics the sinks of Kafka topics, or {@code null} when Kafka support is not on the
	 * classpath
	 */
	static PipelineSettings settings(TributaryProperties properties, ConfiguredSource configured, SourceSettings source,
			String targetSchema, ChangeListener listener, TopicSinks topics) {
		PropertyChecks.checkShared(properties);
		Selection tables = tables(properties, targetSchema, listener != null, topics).get(configured.pipeline());
		TributaryProperties.Flush flush = properties.getFlush();
		TributaryProperties.Checkpoint checkpoint = properties.getCheckpoint();
		TributaryProperties.Copy copy = properties.getCopy();
		TributaryProperties.Checksum checksum = properties.getChecksum();
		return PipelineSettings.builder(source, tables.listed(), checkpointTable(properties, targetSchema))
			.rules(tables.rules())
			.name(configured.pipeline())
			.flushInterval(flush.getInterval())
			.flushWhenIdle(flush.isWhenIdle())
			.flushMaxChanges(flush.getMaxChanges())
			.applyConcurrency(flush.getConcurrency())
			.batchRows(flush.getBatchRows())
			.batchBytes(flush.getBatchBytes().toBytes())
			.bufferSoftLimitBytes(properties.getBuffer().getSoftLimit().toBytes())
			.bufferBudgetBytes(bufferBudget(properties.getBuffer()))
			.checkpointInterval(checkpoint.getInterval())
			.invalidCheckpointBehavior(checkpoint.getInvalidBehavior())
			.copy(new CopySizing(copy.getThreads(), copy.getChunkRows(), copy.getMinChunkRows(), copy.getMaxChunkRows(),
					copy.getChunkTime()))
			.checksum(new ChecksumSettings(checksum.isEnabled(), checksum.isFixDifferences(), checksum.getChunkRows()))
			.listener(listener)
			.ha(haSettings(properties.getHa()))
			.settingNames(configured.settingNames())
			.build();
	}

	/** The budget set, or the engine's default, a share of the heap, when it is not. */
	private static long bufferBudget(TributaryProperties.Buffer buffer) {
		return (buffer.getBudget() != null) ? buffer.getBudget().toBytes() : PipelineSettings.Defaults.BUFFER_BUDGET_BYTES;
	}

	private static HaSettings haSettings(TributaryProperties.Ha ha) {
		return ha.isEnabled() ? HaSettings.enabled(ha.getLease(), ha.getPollInterval()) : HaSettings.OFF;
	}

	/**
	 * The tables of one pipeline.
	 *
	 * @param listed the tables listed on their own
	 * @param rules the rules taking tables by pattern
	 */
	record Selection(List<TableMapping> listed, List<TableRule> rules) {

	}

	/** Checks the tables of every source together and returns them by pipeline name. */
	private static Map<String, Selection> tables(TributaryProperties properties, String targetSchema,
			boolean listenerMode, TopicSinks topics) {
		Map<String, Selection> byPipeline = new LinkedHashMap<>();
		// Where each destination was first claimed, and in listener mode each source table.
		Map<Destination, String> claimed = new HashMap<>();
		Map<TableId, String> listened = new HashMap<>();
		TableId checkpointTable = checkpointTable(properties, targetSchema);
		if (!listenerMode && checkpointTable != null) {
			claimed.put(new Destination.Table(checkpointTable), "cdc.checkpoint.table");
		}
		for (ConfiguredSource configured : ConfiguredSource.all(properties)) {
			String list = configured.tablesProperty();
			if (configured.tables().isEmpty()) {
				throw new TributaryConfigurationException(list, null, list + " is empty",
						"List the tables to replicate (" + list + "[0].source=shop.orders), or set cdc.enabled=false.");
			}
			Map<TableId, String> sources = new HashMap<>();
			List<TableMapping> tables = new ArrayList<>();
			List<TableRule> rules = new ArrayList<>();
			for (int i = 0; i < configured.tables().size(); i++) {
				TributaryProperties.Table table = configured.tables().get(i);
				String entry = list + "[" + i + "]";
				TablePattern include = ConfiguredRules.source(table.getSource(), entry + ".source");
				if (!include.isExact()) {
					rules.add(ConfiguredRules.merged(ConfiguredRules.rule(table, entry, include, targetSchema, listenerMode,
							topics), table, entry, listenerMode).startingAt(startPoint(table, entry)));
					continue;
				}
				ConfiguredRules.refuseExcludeOfOneTable(table, entry);
				TableId sourceTable = include.exact();
				String earlier = sources.putIfAbsent(sourceTable, entry + ".source");
				if (earlier != null) {
					throw new TributaryConfigurationException(entry + ".source", table.getSource(),
							entry + ".source names " + sourceTable + ", which " + earlier + " names already",
							"Remove one of the two entries: each source table is replicated once.");
				}
				String topic = table.getKafka().getTopic();
				if (topic != null) {
					tables.add(kafkaTable(table, entry, sourceTable, ConfiguredRules.fill(topic, sourceTable), topics,
							claimed).startingAt(startPoint(table, entry)));
					continue;
				}
				if (listenerMode) {
					refuseTargetWithListener(table, entry);
					claim(listened, sourceTable, entry + ".source", table.getSource(), sourceTable + " is read from two "
							+ "sources into the one ChangeListener, which could not tell their changes apart",
							"Replicate " + sourceTable + " from one source only.");
					// No target table: the pipeline sends the table to its listener, a destination of its own.
					tables.add(new TableMapping(sourceTable, sourceTable, table.getKey(), table.getSnapshot())
						.startingAt(startPoint(table, entry)));
					continue;
				}
				TableId targetTable = (table.getTarget() == null)
						? defaultTarget(sourceTable, targetSchema, entry + ".target")
						: table.getTarget().contains("{")
								? ConfiguredRules.target(table.getTarget(), targetSchema, entry + ".target").resolve(sourceTable)
								: target(table.getTarget(), targetSchema, entry + ".target");
				claim(claimed, new Destination.Table(targetTable), entry + ".target", table.getTarget(),
						entry + " (" + sourceTable + ") would be copied into " + targetTable + ((table.getTarget() == null)
								? ", its default target," : "") + " which is taken",
						"Give " + entry + ".target a table of its own.");
				tables.add(new TableMapping(sourceTable, targetTable, table.getKey(), table.getSnapshot())
					.startingAt(startPoint(table, entry)));
			}
			byPipeline.put(configured.pipeline(), new Selection(tables, rules));
		}
		return byPipeline;
	}

	/**
	 * Returns where an entry's tables start streaming when they are not copied, or {@code null}
	 * for the source's head.
	 */
	static StartPoint startPoint(TributaryProperties.Table table, String entry) {
		if (table.getStart() == null) {
			return null;
		}
		StartPoint start;
		try {
			start = StartPoint.parse(table.getStart());
		}
		catch (IllegalArgumentException ex) {
			throw new TributaryConfigurationException(entry + ".start", table.getStart(), ex.getMessage(),
					"Set " + entry + ".start to now, gtid:<set>, <binlog file>:<offset> or timestamp:<instant with zone>.");
		}
		if (table.getSnapshot() == SnapshotMode.ALWAYS || table.getSnapshot() == SnapshotMode.ONLY) {
			throw new TributaryConfigurationException(entry + ".start", table.getStart(), entry + ".start names where "
					+ "a table streams from without a copy, but " + entry + ".snapshot is "
					+ table.getSnapshot().name().toLowerCase(Locale.ROOT) + ", which copies it",
					"Remove " + entry + ".start, or set " + entry + ".snapshot to never.");
		}
		return start;
	}

	private static TableMapping kafkaTable(TributaryProperties.Table table, String entry, TableId sourceTable,
			String topic, TopicSinks topics, Map<Destination, String> claimed) {
		String property = entry + ".kafka.topic";
		checkTopic(table, entry, topic, topics, sourceTable.toString());
		claim(claimed, new Destination.Topic(topic), property, topic, sourceTable + " would be published to "
				+ "Kafka topic " + topic + ", which another table publishes to: their keys could collide, and each "
				+ "table's checkpoint would not cover the other's records", "Give each table a topic of its own.");
		return TableMapping.toSink(sourceTable, table.getKey(), table.getSnapshot(), topics.sink(topic));
	}

	/** Refuses a target table on an entry whose changes go to the application's listener. */
	static void refuseTargetWithListener(TributaryProperties.Table table, String entry) {
		if (table.getTarget() != null) {
			throw new TributaryConfigurationException(entry + ".target", table.getTarget(), entry
					+ ".target is set, but the application has a ChangeListener bean, which receives the "
					+ "changes of every table instead of a target table",
					"Remove " + entry + ".target, or remove the ChangeListener bean to copy the tables "
							+ "into target tables.");
		}
	}

	/**
	 * Checks an entry's Kafka topic: named, Kafka support present, and no target table beside it.
	 * @param what what is published, for the message
	 */
	static void checkTopic(TributaryProperties.Table table, String entry, String topic, TopicSinks topics,
			String what) {
		String property = entry + ".kafka.topic";
		PropertyChecks.notBlank(property, topic, "Name the Kafka topic to publish " + what + " to, or remove "
				+ property + ".");
		if (topics == null) {
			throw new TributaryConfigurationException(property, topic, property + " is set, but Kafka support is "
					+ "not on the classpath", "Add the dependencies io.tributary:tributary-kafka and "
							+ "org.springframework.boot:spring-boot-kafka, or remove " + property + ".");
		}
		if (table.getTarget() != null) {
			throw new TributaryConfigurationException(entry + ".target", table.getTarget(), entry + " has both a "
					+ "target table and a Kafka topic", "Remove " + entry + ".target to publish to Kafka, or "
							+ property + " to copy into the target table.");
		}
	}

	/** Returns whether some table of some source is copied into a target table rather than sent elsewhere. */
	static boolean writesTargetTables(TributaryProperties properties, boolean listenerMode) {
		if (listenerMode) {
			return false;
		}
		for (ConfiguredSource configured : ConfiguredSource.all(properties)) {
			for (TributaryProperties.Table table : configured.tables()) {
				if (table.getKafka().getTopic() == null) {
					return true;
				}
			}
		}
		return false;
	}

	private static <K> void claim(Map<K, String> claimed, K claim, String property, String value, String reason,
			String action) {
		String earlier = claimed.putIfAbsent(claim, property);
		if (earlier != null) {
			throw new TributaryConfigurationException(property, value, reason + " (by " + earlier + ")", action);
		}
	}

	private static TableId target(String name, String defaultSchema, String property) {
		if (name == null || name.isBlank()) {
			throw new TributaryConfigurationException(property, name, property + " is empty",
					"Name the table as schema.table, or give the target URL a default schema (jdbc:mysql://host:3306/"
							+ "replica) and name the table alone.");
		}
		try {
			return TableId.parse(name, defaultSchema);
		}
		catch (IllegalArgumentException ex) {
			if (readsWithSchema(name)) {
				throw new TributaryConfigurationException(property, name, property
						+ " names no schema, and the target JDBC URL names no default schema to put it in",
						"Name the table as schema.table, or give the target URL a default schema "
								+ "(jdbc:mysql://host:3306/replica).");
			}
			throw new TributaryConfigurationException(property, name, property + " is not schema.table: "
					+ ex.getMessage(), "Name the table as schema.table. " + QUOTING);
		}
	}

	/** The source table's name in the target's default schema: the name itself, never parsed again. */
	private static TableId defaultTarget(TableId source, String defaultSchema, String property) {
		if (defaultSchema == null || defaultSchema.isBlank()) {
			throw new TributaryConfigurationException(property, null, property + " is not set, so " + source
					+ " would keep its name in the target's default schema, but the target JDBC URL names none",
					"Name the table as schema.table in " + property + ", or give the target URL a default schema "
							+ "(jdbc:mysql://host:3306/replica).");
		}
		return new TableId(defaultSchema, source.table());
	}

	/** Whether a name is well formed once a schema is given, so that only its schema is missing. */
	private static boolean readsWithSchema(String name) {
		try {
			TableId.parse(name, "schema");
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
