package io.tributary.source.binlog;

import java.io.IOException;

import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

/**
 * Reads binlog event headers like the client library does, but keeps the event's type code, so
 * an event type the library has no name for can still be told apart: a newer server's
 * heartbeat can be ignored, a tagged GTID recognised, and anything else refused by number.
 *
 * <p>The library cannot pass an event without a type name: it fails on it before any listener
 * sees it, and the reader would reconnect into the same event for ever. Such an event is
 * therefore given the type {@link EventType#UNKNOWN} (code 0, which no server writes), whose
 * body the library skips, and is marked {@linkplain Header#unnamed() unnamed} for the reader.
 *
 * <p>The header's 19 bytes are read from the stream in one piece and parsed from an array: the
 * stream reads each byte of an integer through three calls, and a header is read for every event.
 * One instance serves one reader thread.
 */
final class TypedHeaderDeserializer implements EventHeaderDeserializer<TypedHeaderDeserializer.Header> {

	/** MySQL 8.0.26+: heartbeat with the position as a variable-length field. */
	static final int HEARTBEAT_V2 = 41;

	/** MySQL 8.3+: the GTID of a transaction whose GTID carries a tag. */
	static final int GTID_TAGGED = 42;

	/** The length of a version 4 event header. */
	private static final int LENGTH = 19;

	private final ArrayCursor bytes = new ArrayCursor();

	@Override
	public Header deserialize(ByteArrayInputStream in) throws IOException {
		ArrayCursor raw = this.bytes;
		in.fill(raw.reset(LENGTH), 0, LENGTH);
		Header header = new Header();
		header.setTimestamp(raw.readLong(4) * 1000L);
		header.code = raw.read();
		EventType type = EventType.byEventNumber(header.code);
		header.setEventType((type != null) ? type : EventType.UNKNOWN);
		header.unnamed = type == null;
		header.setServerId(raw.readLong(4));
		header.setEventLength(raw.readLong(4));
		header.setNextPosition(raw.readLong(4));
		header.setFlags(raw.readInteger(2));
		return header;
	}

	/** A version 4 event header that remembers its type code. */
	static final class Header extends EventHeaderV4 {

		private int code;

		private boolean unnamed;

		int code() {
			return this.code;
		}

		/** Whether the library has no name for this event's type. */
		boolean unnamed() {
			return this.unnamed;
		}

	}

	/** What the reader does with an event whose type the library does not name. */
	enum Unknown {

		/** Carries no data and moves no position: skip it. */
		IGNORE,
		/** Starts a transaction with a tagged GTID: stop following GTIDs, keep file and offset. */
		STOP_FOLLOWING_GTIDS,
		/** Might carry rows or change a position: stop rather than skip it. */
		REFUSE;

		static Unknown of(int code) {
			return switch (code) {
				case HEARTBEAT_V2 -> IGNORE;
				case GTID_TAGGED -> STOP_FOLLOWING_GTIDS;
				default -> REFUSE;
			};
		}

	}

}
