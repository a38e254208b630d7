package io.tributary.source.binlog;

import java.io.IOException;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import io.tributary.source.binlog.TypedHeaderDeserializer.Unknown;

import static org.assertj.core.api.Assertions.assertThat;

class TypedHeaderDeserializerTest {

	@Test
	void readsANamedEventLikeTheLibrary() throws IOException {
		TypedHeaderDeserializer.Header header = read(2, 1_700_000_000L, 7, 120, 4_000, 8);
		assertThat(header.getEventType()).isEqualTo(EventType.QUERY);
		assertThat(header.unnamed()).isFalse();
		assertThat(header.code()).isEqualTo(2);
		assertThat(header.getTimestamp()).isEqualTo(1_700_000_000_000L);
		assertThat(header.getServerId()).isEqualTo(7);
		assertThat(header.getEventLength()).isEqualTo(120);
		assertThat(header.getNextPosition()).isEqualTo(4_000);
		assertThat(header.getPosition()).isEqualTo(3_880);
		assertThat(header.getFlags()).isEqualTo(8);
	}

	@Test
	void readsFieldsWithTheirHighBitSetAsUnsigned() throws IOException {
		TypedHeaderDeserializer.Header header = read(30, 4_000_000_000L, 3_000_000_000L, 70_000, 4_294_967_000L,
				0xFFFF);
		assertThat(header.getEventType()).isEqualTo(EventType.EXT_WRITE_ROWS);
		assertThat(header.getTimestamp()).isEqualTo(4_000_000_000_000L);
		assertThat(header.getServerId()).isEqualTo(3_000_000_000L);
		assertThat(header.getEventLength()).isEqualTo(70_000);
		assertThat(header.getNextPosition()).isEqualTo(4_294_967_000L);
		assertThat(header.getFlags()).isEqualTo(0xFFFF);
	}

	@Test
	void anEventWithoutANameIsPassedAsUnknownWithItsCode() throws IOException {
		TypedHeaderDeserializer.Header tagged = read(42, 1L, 1, 80, 900, 0);
		assertThat(tagged.getEventType()).isEqualTo(EventType.UNKNOWN);
		assertThat(tagged.unnamed()).isTrue();
		assertThat(tagged.code()).isEqualTo(42);
		assertThat(read(200, 1L, 1, 80, 900, 0).code()).isEqualTo(200);
	}

	@Test
	void onlyHeartbeatsAreSkippedAndTaggedGtidsStopGtidFollowing() {
		assertThat(Unknown.of(TypedHeaderDeserializer.HEARTBEAT_V2)).isEqualTo(Unknown.IGNORE);
		assertThat(Unknown.of(TypedHeaderDeserializer.GTID_TAGGED)).isEqualTo(Unknown.STOP_FOLLOWING_GTIDS);
		assertThat(Unknown.of(43)).isEqualTo(Unknown.REFUSE);
		assertThat(Unknown.of(166)).isEqualTo(Unknown.REFUSE);
	}

	private static TypedHeaderDeserializer.Header read(int code, long seconds, long serverId, long length, long next,
			int flags) throws IOException {
		byte[] bytes = new byte[19];
		put(bytes, 0, seconds, 4);
		put(bytes, 4, code, 1);
		put(bytes, 5, serverId, 4);
		put(bytes, 9, length, 4);
		put(bytes, 13, next, 4);
		put(bytes, 17, flags, 2);
		return new TypedHeaderDeserializer().deserialize(new ByteArrayInputStream(bytes));
	}

	private static void put(byte[] bytes, int at, long value, int length) {
		for (int i = 0; i < length; i++) {
			bytes[at + i] = (byte) (value >>> (8 * i));
		}
	}

}
