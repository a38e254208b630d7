package io.tributary.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One source server of the configuration and the tables read from it, whichever form configured
 * it: {@code cdc.source} with {@code cdc.tables}, or an entry of {@code cdc.sources}. The property
 * names it carries are the ones a message about it must name.
 *
 * @param key the entry's name under {@code cdc.sources}, or {@code null} for {@code cdc.source}
 * @param pipeline name of its pipeline, under which its checkpoints are stored
 * @param pipelineProperty the property that sets that name
 * @param prefix prefix of its connection properties: {@code cdc.source} or {@code cdc.sources.<key>}
 * @param source its connection properties
 * @param tablesProperty the property listing its tables
 * @param tables its tables
 */
record ConfiguredSource(String key, String pipeline, String pipelineProperty, String prefix,
		TributaryProperties.Source source, String tablesProperty, List<TributaryProperties.Table> tables) {

	/** Returns every configured source, in the order of the configuration. */
	static List<ConfiguredSource> all(TributaryProperties properties) {
		if (properties.getSources().isEmpty()) {
			return List.of(single(properties));
		}
		List<ConfiguredSource> all = new ArrayList<>();
		for (String key : properties.getSources().keySet()) {
			all.add(named(properties, key));
		}
		return all;
	}

	/** Returns the names of its properties, for the messages of its pipeline. */
	PropertyNames settingNames() {
		return new PropertyNames(this.prefix, this.tablesProperty);
	}

	/** Returns {@code cdc.source} with {@code cdc.tables}. */
	static ConfiguredSource single(TributaryProperties properties) {
		return new ConfiguredSource(null, properties.getCheckpoint().getPipeline(), "cdc.checkpoint.pipeline",
				"cdc.source", properties.getSource(), "cdc.tables", properties.getTables());
	}

	/**
	 * Returns the entry {@code key} of {@code cdc.sources}.
	 * @throws IllegalArgumentException when there is no such entry
	 */
	static ConfiguredSource named(TributaryProperties properties, String key) {
		Map<String, TributaryProperties.NamedSource> sources = properties.getSources();
		TributaryProperties.NamedSource source = sources.get(key);
		if (source == null) {
			throw new IllegalArgumentException("No source '" + key + "' under cdc.sources " + sources.keySet());
		}
		String prefix = "cdc.sources." + key;
		String pipeline = (source.getPipeline() != null) ? source.getPipeline() : key;
		return new ConfiguredSource(key, pipeline, prefix + ".pipeline", prefix, source, prefix + ".tables",
				source.getTables());
	}

}
