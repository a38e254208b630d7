package io.tributary.source.binlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

/**
 * Reads table map events and remembers them by table id. A table's map repeats byte for byte
 * before each of its row events until its definition changes, so a body seen before gives back the
 * map decoded then: decoding names and column metadata for every row event was a large share of
 * the reader's time on busy tables, and comparing the bytes costs far less.
 */
final class TableMapReader implements EventDataDeserializer<TableMapEventData> {

	/** Bodies kept; more distinct tables than this just decode their maps again. */
	private static final int KEPT = 1024;

	private final TableMapEventDataDeserializer decoder = new TableMapEventDataDeserializer();

	private final Map<Long, TableMapEventData> tableMaps;

	private final Map<ByteBuffer, TableMapEventData> byBody = new LinkedHashMap<>(64, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<ByteBuffer, TableMapEventData> eldest) {
			return size() > KEPT;
		}

	};

	/**
	 * @param tableMaps where each map read is put under its table id, as row events look it up
	 */
	TableMapReader(Map<Long, TableMapEventData> tableMaps) {
		this.tableMaps = tableMaps;
	}

	@Override
	public TableMapEventData deserialize(ByteArrayInputStream in) throws IOException {
		// The stream is bounded to this event's body (the checksum excluded).
		ByteBuffer body = ByteBuffer.wrap(in.read(in.available()));
		TableMapEventData data = this.byBody.get(body);
		if (data == null) {
			data = this.decoder.deserialize(new ByteArrayInputStream(body.array()));
			this.byBody.put(body, data);
		}
		this.tableMaps.put(data.getTableId(), data);
		return data;
	}

}
