package io.tributary.bench;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The tables of an {@code /actuator/cdc} answer counted by phase: every object of it that has a
 * {@code name} and a {@code phase} is a table's status.
 *
 * @param byPhase tables per phase, for example {@code STREAMING=998, SNAPSHOTTING=2}
 */
record CdcPhases(Map<String, Integer> byPhase) {

	private static final ObjectMapper JSON = new ObjectMapper();

	static CdcPhases of(byte[] body) throws IOException {
		Map<String, Integer> byPhase = new TreeMap<>();
		for (JsonNode table : JSON.readTree(body).findParents("phase")) {
			if (table.hasNonNull("name") && table.get("phase").isTextual()) {
				byPhase.merge(table.get("phase").asText(), 1, Integer::sum);
			}
		}
		return new CdcPhases(byPhase);
	}

	int tables() {
		return this.byPhase.values().stream().mapToInt(Integer::intValue).sum();
	}

	int streaming() {
		return this.byPhase.getOrDefault("STREAMING", 0);
	}

	/** Whether exactly {@code tables} tables are listed and every one of them streams. */
	boolean allStreaming(int tables) {
		return tables() == tables && streaming() == tables;
	}

	@Override
	public String toString() {
		return this.byPhase.toString();
	}

}
