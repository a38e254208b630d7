package io.tributary.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata an IDE reads describes every property, states its default, and lists
 * the values of enumerations.
 */
class ConfigurationMetadataTest {

	@Test
	void everyPropertyHasADescription() throws Exception {
		Map<String, Map<String, Object>> properties = ConfigurationMetadata.properties();
		assertThat(properties).containsKeys("cdc.enabled", "cdc.source.host", "cdc.tables", "cdc.sources");
		List<String> undescribed = properties.values().stream()
			.filter((property) -> !(property.get("description") instanceof String description) || description.isBlank())
			.map((property) -> (String) property.get("name"))
			.toList();
		assertThat(undescribed).as("properties without a description (field Javadoc)").isEmpty();
	}

	/**
	 * The metadata has no entries for the properties of list elements and map values
	 * ({@code cdc.tables[*].source}); their descriptions are the field Javadoc all the same, which
	 * IDEs read from the sources.
	 */
	@Test
	void everyFieldOfThePropertiesHasJavadoc() throws Exception {
		String source = Files.readString(Path.of("src/main/java/io/tributary/autoconfigure/TributaryProperties.java"));
		Matcher fields = Pattern.compile("(?m)^\\s*private (?!final )[\\w<>, ]+ (\\w+)( =|;)").matcher(source);
		List<String> undocumented = new ArrayList<>();
		int count = 0;
		while (fields.find()) {
			count++;
			if (!source.substring(0, fields.start()).stripTrailing().endsWith("*/")) {
				undocumented.add(fields.group(1));
			}
		}
		assertThat(count).isGreaterThan(40);
		assertThat(undocumented).as("fields without Javadoc").isEmpty();
	}

	@Test
	void everyDefaultIsInTheMetadata() throws Exception {
		BeanWrapperImpl defaults = new BeanWrapperImpl(new TributaryProperties());
		List<String> wrong = new ArrayList<>();
		for (Map<String, Object> property : ConfigurationMetadata.properties().values()) {
			String name = (String) property.get("name");
			if (!name.startsWith("cdc.")) {
				continue;
			}
			Object value = defaults.getPropertyValue(camel(name.substring("cdc.".length())));
			if (value == null || (value instanceof Collection<?> c && c.isEmpty())
					|| (value instanceof Map<?, ?> m && m.isEmpty())) {
				continue;
			}
			Object stated = property.get("defaultValue");
			Object converted = (stated != null)
					? ApplicationConversionService.getSharedInstance().convert(stated.toString(), value.getClass()) : null;
			if (!value.equals(converted)) {
				wrong.add(name + ": metadata says " + stated + ", the code " + value);
			}
		}
		assertThat(wrong).isEmpty();
	}

	@Test
	void everyEnumerationListsItsValues() throws Exception {
		Map<String, List<String>> hints = ConfigurationMetadata.hints();
		List<String> enumerations = new ArrayList<>();
		for (Map<String, Object> property : ConfigurationMetadata.properties().values()) {
			String type = (String) property.get("type");
			String name = (String) property.get("name");
			if (name.startsWith("cdc.") && ClassUtils.isPresent(type, null)
					&& ClassUtils.forName(type, null).isEnum()) {
				enumerations.add(name);
				List<String> constants = Arrays.stream(ClassUtils.forName(type, null).getEnumConstants())
					.map((constant) -> ((Enum<?>) constant).name().toLowerCase().replace('_', '-'))
					.toList();
				assertThat(hints.get(name)).as("value hints of %s", name).containsExactlyElementsOf(constants);
			}
		}
		assertThat(enumerations).contains("cdc.source.ssl-mode", "cdc.checkpoint.invalid-behavior");
		assertThat(hints.get("cdc.health.snapshotting-status")).containsExactlyInAnyOrderElementsOf(
				PropertyChecks.HEALTH_STATUSES);
	}

	private static String camel(String kebab) {
		StringBuilder camel = new StringBuilder();
		boolean upper = false;
		for (char c : kebab.toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				camel.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return camel.toString();
	}

}
