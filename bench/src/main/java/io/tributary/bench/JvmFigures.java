package io.tributary.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The application JVM's heap and threads, read from its {@code /actuator/jvmfigures}
 * ({@link JvmFiguresEndpoint}).
 *
 * @param heapUsedBytes heap in use after two full collections
 * @param heapCommittedBytes heap the JVM holds
 * @param heapMaxBytes its {@code -Xmx}
 * @param threadsLive threads alive
 * @param threadsPeak most threads alive at once since the start
 * @param threadKinds threads alive by name, numbers replaced by {@code N}, most numerous first
 * @param cpuSeconds CPU time of the JVM since its start
 */
record JvmFigures(long heapUsedBytes, long heapCommittedBytes, long heapMaxBytes, int threadsLive, int threadsPeak,
		Map<String, Integer> threadKinds, double cpuSeconds) {

	private static final ObjectMapper JSON = new ObjectMapper();

	static JvmFigures read(TimedGets http) throws Exception {
		JsonNode figures = JSON.readTree(http.get("/actuator/jvmfigures"));
		Map<String, Integer> kinds = new LinkedHashMap<>();
		figures.get("threadKinds").fields().forEachRemaining((kind) -> kinds.put(kind.getKey(), kind.getValue().asInt()));
		Map<String, Integer> sorted = kinds.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
		return new JvmFigures(figures.get("heapUsedBytes").asLong(), figures.get("heapCommittedBytes").asLong(),
				figures.get("heapMaxBytes").asLong(), figures.get("threadsLive").asInt(),
				figures.get("threadsPeak").asInt(), sorted, figures.path("cpuSeconds").asDouble(Double.NaN));
	}

	/** The most numerous kinds of thread, as {@code kind x count}. */
	String topKinds(int kinds) {
		return this.threadKinds.entrySet()
			.stream()
			.limit(kinds)
			.map((kind) -> kind.getKey() + " x" + kind.getValue())
			.collect(Collectors.joining(", "));
	}

}
