package io.tributary.source.binlog;

import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.EventDataWrapper;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

/**
 * Builds the event deserializer of a replication connection: row events of subscribed tables are
 * decoded into {@link DecodedRows} and those of other tables skipped undecoded, table maps are
 * remembered, and a heartbeat is read for the binlog file it names.
 */
final class StreamDeserializer {

	private StreamDeserializer() {
	}

	/**
	 * Creates the deserializer.
	 * @param rows where row events go
	 * @param readAll told after each event whether the connection held nothing more to read then:
	 * the reader has everything the source has sent so far
	 */
	static EventDeserializer create(RowEventDispatch rows, Consumer<Boolean> readAll) {
		// Looked up by the client once per event: an EnumMap indexes its array by the type's ordinal.
		Map<EventType, EventDataDeserializer> deserializers = new EnumMap<>(EventType.class);
		EventDeserializer stock = new EventDeserializer();
		for (EventType type : EventType.values()) {
			deserializers.put(type, stock.getEventDataDeserializer(type));
		}
		Map<Long, TableMapEventData> tableMaps = rows.tableMaps();
		// The library wraps any table map reader but its own in one that decodes each map a second
		// time with a reader of its own; handed a wrapper already, it keeps it. The external half
		// reads nothing: nothing here looks at a table map event's data.
		deserializers.put(EventType.TABLE_MAP,
				new EventDataWrapper.Deserializer(new TableMapReader(tableMaps), (in) -> null));
		for (boolean extra : new boolean[] { false, true }) {
			deserializers.put(extra ? EventType.EXT_WRITE_ROWS : EventType.WRITE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.WRITE, extra, tableMaps, rows::resolve));
			deserializers.put(extra ? EventType.EXT_UPDATE_ROWS : EventType.UPDATE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.UPDATE, extra, tableMaps, rows::resolve));
			deserializers.put(extra ? EventType.EXT_DELETE_ROWS : EventType.DELETE_ROWS,
					new RowsEventDecoder(RowsEventDecoder.Kind.DELETE, extra, tableMaps, rows::resolve));
		}
		deserializers.put(EventType.HEARTBEAT, StreamDeserializer::heartbeat);
		return new EventDeserializer(new TypedHeaderDeserializer(), new NullEventDataDeserializer(), deserializers,
				tableMaps) {

			@Override
			public Event nextEvent(ByteArrayInputStream in) throws IOException {
				Event event = super.nextEvent(in);
				// Only events that can end a transaction matter. On a plain connection the socket's input
				// (PacketAlignedSocket) answers from its buffer, and asks the kernel only once that is empty.
				EventType type = (event != null) ? event.getHeader().getEventType() : null;
				if (type == EventType.XID || type == EventType.QUERY || type == EventType.XA_PREPARE) {
					// Past the event's block, what the stream still holds: its buffer and the socket's.
					readAll.accept(in.available() == 0);
				}
				return event;
			}

		};
	}

	/** A heartbeat's body is the name of the binlog file the server is at, nothing else. */
	private static Heartbeat heartbeat(ByteArrayInputStream in) throws IOException {
		return new Heartbeat(in.readString(in.available()));
	}

	/**
	 * What a heartbeat (type 27) carries besides its header, whose next position is the offset the
	 * server has read up to in this file. Servers send the newer type 41 only to replicas that ask
	 * for it, which this client does not.
	 * @param file the binlog file name
	 */
	record Heartbeat(String file) implements EventData {

	}

}
