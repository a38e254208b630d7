package io.tributary.source.binlog;

import java.util.IdentityHashMap;
import java.util.Map;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;

/**
 * Builds the event deserializer of a replication connection: row events of subscribed tables are
 * decoded into {@link DecodedRows} and those of other tables skipped undecoded, table maps are
 * remembered.
 */
final class StreamDeserializer {

	private StreamDeserializer() {
	}

	static EventDeserializer create(RowEventDispatch rows) {
		Map<EventType, EventDataDeserializer> deserializers = new IdentityHashMap<>();
		EventDeserializer stock = new EventDeserializer();
		for (EventType type : EventType.values()) {
			deserializers.put(type, stock.getEventDataDeserializer(type));
		}
		Map<Long, TableMapEventData> tableMaps = rows.tableMaps();
		TableMapEventDataDeserializer tableMap = new TableMapEventDataDeserializer();
		deserializers.put(EventType.TABLE_MAP, (in) -> {
			TableMapEventData data = tableMap.deserialize(in);
			tableMaps.put(data.getTableId(), data);
			return data;
		});
		for (boolean extra : new boolean[] { false, true }) {
			deserializers.put(extra ? EventType.EXT_WRITE_ROWS : EventType.WRITE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.WRITE, extra, tableMaps, rows::isSubscribed));
			deserializers.put(extra ? EventType.EXT_UPDATE_ROWS : EventType.UPDATE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.UPDATE, extra, tableMaps, rows::isSubscribed));
			deserializers.put(extra ? EventType.EXT_DELETE_ROWS : EventType.DELETE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.DELETE, extra, tableMaps, rows::isSubscribed));
		}
		return new EventDeserializer(new TypedHeaderDeserializer(), new NullEventDataDeserializer(), deserializers,
				tableMaps);
	}

}
