package io.tributary.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The properties table of docs/configuration.md lists exactly the properties there are: every
 * property of the metadata with its default, every property of list elements and map values, and
 * nothing else.
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

	private static boolean covers(String row, String name) {
		return row.endsWith(".*") && name.startsWith(row.substring(0, row.length() - 1));
	}

}
