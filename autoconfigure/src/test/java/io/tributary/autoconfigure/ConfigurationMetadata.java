package io.tributary.autoconfigure;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;

import org.springframework.beans.BeanUtils;

/**
 * What the tests of the properties' documentation read: the configuration metadata the build
 * generated, and every property {@link TributaryProperties} binds, found by reflection (including
 * those of list elements and map values, which the metadata does not list).
 */
final class ConfigurationMetadata {

	static final Path GENERATED = Path.of("target/classes/META-INF/spring-configuration-metadata.json");

	private ConfigurationMetadata() {
	}

	/** Returns the generated metadata's properties by name, each as its JSON object. */
	static Map<String, Map<String, Object>> properties() throws IOException {
		List<Map<String, Object>> properties = JsonPath.parse(Files.readString(GENERATED)).read("$.properties");
		Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
		properties.forEach((property) -> byName.put((String) property.get("name"), property));
		return byName;
	}

	/** Returns the generated metadata's value hints by property name, each as its list of values. */
	static Map<String, List<String>> hints() throws IOException {
		List<Map<String, Object>> hints = JsonPath.parse(Files.readString(GENERATED)).read("$.hints");
		Map<String, List<String>> byName = new LinkedHashMap<>();
		for (Map<String, Object> hint : hints) {
			@SuppressWarnings("unchecked")
			List<Map<String, Object>> values = (List<Map<String, Object>>) hint.get("values");
			byName.put((String) hint.get("name"), values.stream().map((value) -> String.valueOf(value.get("value"))).toList());
		}
		return byName;
	}

	/**
	 * Returns every property that binds a value, as written in the documentation: list elements as
	 * {@code [*]}, map keys as {@code <name>}; for example {@code cdc.tables[*].source} and
	 * {@code cdc.sources.<name>.host}.
	 */
	static List<String> boundProperties() {
		List<String> names = new ArrayList<>();
		collect(TributaryProperties.class, "cdc", names);
		return names;
	}

	private static void collect(Class<?> type, String prefix, List<String> names) {
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			Method getter = descriptor.getReadMethod();
			if (getter == null || getter.getDeclaringClass() == Object.class) {
				continue;
			}
			String name = prefix + "." + kebab(descriptor.getName());
			Type generic = getter.getGenericReturnType();
			Class<?> element = nested(generic, 0, List.class);
			Class<?> value = nested(generic, 1, Map.class);
			if (isGroup(getter.getReturnType())) {
				collect(getter.getReturnType(), name, names);
			}
			else if (element != null && isGroup(element)) {
				collect(element, name + "[*]", names);
			}
			else if (value != null && isGroup(value)) {
				collect(value, name + ".<name>", names);
			}
			else {
				names.add(name);
			}
		}
	}

	private static Class<?> nested(Type type, int argument, Class<?> container) {
		if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == container
				&& parameterized.getActualTypeArguments()[argument] instanceof Class<?> nested) {
			return nested;
		}
		return null;
	}

	private static boolean isGroup(Class<?> type) {
		return type.getEnclosingClass() == TributaryProperties.class && !type.isEnum();
	}

	static String kebab(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
	}

}
