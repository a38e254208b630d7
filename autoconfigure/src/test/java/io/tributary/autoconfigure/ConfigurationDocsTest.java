package io.tributary.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import io.tributary.autoconfigure.metrics.MeteredTables;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.ha.HaSettings;
import io.tributary.pipeline.PipelineSettings.Defaults;
import io.tributary.source.SourceSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The properties table of docs/configuration.md lists exactly the properties there are: every
 * property of the metadata with its default, every property of list elements and map values, and
 * nothing else; and the defaults the engine declares, which the properties start from, are the
 * documented ones.
 */
class ConfigurationDocsTest {

	private static final Path DOC = Path.of("../docs/configuration.md");

	private static final Pattern ROW = Pattern.compile("(?m)^\\| `(cdc\\.[^`]+)` \\|([^|]*)\\|");

	/** Documented property (or {@code prefix.*} group of them) and its default cell. */
	private static Map<String, String> rows;

	private static Map<String, Map<String, Object>> metadata;

	private static List<String> bound;

	@BeforeAll
	static void read() throws Exception {
		rows = new LinkedHashMap<>();
		Matcher row = ROW.matcher(Files.readString(DOC));
		while (row.find()) {
			assertThat(rows.put(row.group(1), row.group(2).trim())).as("second row of %s", row.group(1)).isNull();
		}
		metadata = new LinkedHashMap<>(ConfigurationMetadata.properties());
		metadata.keySet().removeIf((name) -> !name.startsWith("cdc."));
		bound = ConfigurationMetadata.boundProperties();
	}

	@Test
	void everyPropertyOfTheMetadataHasARow() {
		assertThat(rows.keySet()).containsAll(metadata.keySet());
	}

	@Test
	void everyBoundPropertyIsDocumented() {
		List<String> undocumented = bound.stream()
			.filter((name) -> !rows.containsKey(name) && rows.keySet().stream().noneMatch((row) -> covers(row, name)))
			.toList();
		assertThat(bound).contains("cdc.tables[*].snapshot", "cdc.sources.<name>.host",
				"cdc.sources.<name>.tables[*].source", "cdc.sources.<name>.pipeline");
		assertThat(undocumented).isEmpty();
	}

	@Test
	void everyRowIsARealProperty() {
		List<String> unknown = new ArrayList<>();
		for (String row : rows.keySet()) {
			boolean real = row.endsWith(".*") ? bound.stream().anyMatch((name) -> covers(row, name))
					: metadata.containsKey(row) || bound.contains(row);
			if (!real) {
				unknown.add(row);
			}
		}
		assertThat(unknown).isEmpty();
	}

	@Test
	void everyDefaultOfTheMetadataIsInItsRow() {
		List<String> wrong = new ArrayList<>();
		metadata.forEach((name, property) -> {
			Object value = property.get("defaultValue");
			if (value != null && !rows.getOrDefault(name, "").contains("`" + value + "`")) {
				wrong.add(name + " defaults to `" + value + "`, documented as: " + rows.get(name));
			}
		});
		assertThat(wrong).isEmpty();
	}

	@Test
	void theEngineDefaultsAreTheDocumentedOnes() {
		Map<String, Object> engine = new LinkedHashMap<>();
		engine.put("cdc.source.connect-timeout", SourceSettings.DEFAULT_CONNECT_TIMEOUT);
		engine.put("cdc.source.heartbeat-interval", SourceSettings.DEFAULT_HEARTBEAT_INTERVAL);
		engine.put("cdc.source.ssl-mode", SourceSettings.DEFAULT_SSL_MODE);
		engine.put("cdc.source.gtid-positioning", SourceSettings.DEFAULT_GTID_POSITIONING);
		engine.put("cdc.buffer.soft-limit", DataSize.ofBytes(Defaults.BUFFER_SOFT_LIMIT_BYTES));
		engine.put("cdc.flush.interval", Defaults.FLUSH_INTERVAL);
		engine.put("cdc.flush.when-idle", Defaults.FLUSH_WHEN_IDLE);
		engine.put("cdc.flush.concurrency", Defaults.APPLY_CONCURRENCY);
		engine.put("cdc.flush.max-changes", Defaults.FLUSH_MAX_CHANGES);
		engine.put("cdc.flush.batch-rows", Defaults.BATCH_ROWS);
		engine.put("cdc.flush.batch-bytes", DataSize.ofBytes(Defaults.BATCH_BYTES));
		engine.put("cdc.copy.threads", CopySizing.DEFAULT_THREADS);
		engine.put("cdc.copy.chunk-rows", CopySizing.DEFAULT_INITIAL_CHUNK_ROWS);
		engine.put("cdc.copy.min-chunk-rows", CopySizing.DEFAULT_MIN_CHUNK_ROWS);
		engine.put("cdc.copy.max-chunk-rows", CopySizing.DEFAULT_MAX_CHUNK_ROWS);
		engine.put("cdc.copy.chunk-time", CopySizing.DEFAULT_TARGET_CHUNK_TIME);
		engine.put("cdc.checkpoint.interval", Defaults.CHECKPOINT_INTERVAL);
		engine.put("cdc.checkpoint.pipeline", Defaults.NAME);
		engine.put("cdc.checkpoint.invalid-behavior", Defaults.INVALID_CHECKPOINT_BEHAVIOR);
		engine.put("cdc.checksum.enabled", ChecksumSettings.DEFAULTS.enabled());
		engine.put("cdc.checksum.fix-differences", ChecksumSettings.DEFAULTS.fixDifferences());
		engine.put("cdc.checksum.chunk-rows", ChecksumSettings.DEFAULT_CHUNK_ROWS);
		engine.put("cdc.ha.enabled", HaSettings.OFF.enabled());
		engine.put("cdc.ha.lease", HaSettings.DEFAULT_LEASE);
		engine.put("cdc.ha.poll-interval", HaSettings.DEFAULT_POLL_INTERVAL);
		engine.put("cdc.metrics.tables", MeteredTables.DEFAULT);
		List<String> wrong = new ArrayList<>();
		engine.forEach((name, value) -> {
			if (!rows.getOrDefault(name, "").contains("`" + render(value) + "`")) {
				wrong.add(name + " defaults to `" + render(value) + "`, documented as: " + rows.get(name));
			}
		});
		assertThat(wrong).isEmpty();
	}

	/** Renders a default as the metadata and the documentation write it: 250ms, 256MB, error, true. */
	private static String render(Object value) {
		if (value instanceof Enum<?> constant) {
			return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
		}
		return PropertyChecks.format(value);
	}

	private static boolean covers(String row, String name) {
		return row.endsWith(".*") && name.startsWith(row.substring(0, row.length() - 1));
	}

}
