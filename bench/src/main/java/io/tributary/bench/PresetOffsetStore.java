package io.tributary.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

/**
 * Debezium's offsets in memory, holding at start the offset the next engine is to resume from:
 * the engine named {@code bench} with topic prefix {@code bench}, at a binlog file and position.
 * The key is written exactly as the engine's JSON key converter writes it (without schemas), since
 * the store matches keys byte for byte.
 */
public final class PresetOffsetStore extends MemoryOffsetBackingStore {

	private static final String KEY = "[\"bench\",{\"server\":\"bench\"}]";

	private static volatile String presetValue;

	/**
	 * Sets the offset the next store starts with.
	 * @param value the connector's offset as JSON, for example {@code {"file":"mysql-bin.000002","pos":4}},
	 * or {@code null} to start empty
	 */
	static void preset(String value) {
		presetValue = value;
	}

	@Override
	public void start() {
		super.start();
		String value = presetValue;
		if (value != null) {
			this.data.put(ByteBuffer.wrap(KEY.getBytes(StandardCharsets.UTF_8)),
					ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)));
		}
	}

	@Override
	public Set<Map<String, Object>> connectorPartitions(String connectorName) {
		return Set.of();
	}

}
