package io.tributary.autoconfigure.endpoint;

import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.util.StdConverter;

import io.tributary.name.Destination;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * How the endpoint writes statuses: a table's groups of counters ({@link TableStatus#copy()},
 * {@link TableStatus#buffer()}, {@link TableStatus#flushing()}) are written as fields of the table
 * itself, under the names of {@link TableStatus}'s accessors, so that {@code /actuator/cdc} keeps the
 * flat shape docs/overview.md describes; its destination is written as {@code target}, in its text
 * form, with its {@code targetKind}. Everything else is written as it is.
 */
final class StatusJson {

	/** The groups whose fields are the table's own in the JSON. */
	private static final Set<Class<?>> GROUPS = Set.of(TableStatus.Copy.class, TableStatus.Buffer.class,
			TableStatus.Flushing.class);

	/** Fields of a group whose name in the JSON says what they belong to; the others keep theirs. */
	private static final Map<String, String> RENAMED = Map.of("copy.rowsPerSecond", "copyRowsPerSecond",
			"copy.etaSeconds", "copyEtaSeconds", "copy.done", "snapshotDone", "buffer.keys", "bufferedKeys",
			"buffer.bytes", "bufferedBytes", "buffer.softLimitBytes", "bufferSoftLimitBytes");

	private StatusJson() {
	}

	/** Returns a table's fields by name, in the order of its components and of its groups' fields. */
	static Map<String, Object> table(TableStatus status) {
		Map<String, Object> fields = new LinkedHashMap<>();
		for (RecordComponent component : TableStatus.class.getRecordComponents()) {
			Object value = read(component, status);
			if (value instanceof Destination destination) {
				fields.put("target", destination.toString());
				fields.put("targetKind", destination.kind());
				continue;
			}
			if (!GROUPS.contains(component.getType())) {
				fields.put(component.getName(), value);
				continue;
			}
			for (RecordComponent field : component.getType().getRecordComponents()) {
				String name = component.getName() + "." + field.getName();
				fields.put(RENAMED.getOrDefault(name, field.getName()), read(field, value));
			}
		}
		return fields;
	}

	/** Returns a pipeline's fields by name, each of its tables as {@link #table}. */
	static Map<String, Object> pipeline(PipelineStatus status) {
		Map<String, Object> fields = new LinkedHashMap<>();
		for (RecordComponent component : PipelineStatus.class.getRecordComponents()) {
			Object value = read(component, status);
			fields.put(component.getName(),
					(value != null && component.getName().equals("tables")) ? tables(status.tables()) : value);
		}
		return fields;
	}

	private static List<Map<String, Object>> tables(List<TableStatus> tables) {
		return tables.stream().map(StatusJson::table).toList();
	}

	private static Object read(RecordComponent component, Object record) {
		try {
			return component.getAccessor().invoke(record);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot read " + component.getName() + " of " + record.getClass(), ex);
		}
	}

	/** Writes a table as {@link StatusJson#table}. */
	static final class Table extends StdConverter<TableStatus, Map<String, Object>> {

		@Override
		public Map<String, Object> convert(TableStatus value) {
			return table(value);
		}

	}

	/** Writes each pipeline as {@link StatusJson#pipeline}. */
	static final class Pipelines extends StdConverter<List<PipelineStatus>, List<Map<String, Object>>> {

		@Override
		public List<Map<String, Object>> convert(List<PipelineStatus> value) {
			return value.stream().map(StatusJson::pipeline).toList();
		}

	}

}
