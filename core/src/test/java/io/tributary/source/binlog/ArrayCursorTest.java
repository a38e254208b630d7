package io.tributary.source.binlog;

import java.io.EOFException;
import java.io.IOException;
import java.math.BigInteger;
import java.util.BitSet;
import java.util.Random;

import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The array a rows event is decoded from reads every value as the binlog client's stream reads
 * the same bytes, and running past the event's end is a decode error, never the end of the
 * connection.
 */
class ArrayCursorTest {

	@Test
	void readsEveryValueAsTheClientsStreamDoes() throws IOException {
		byte[] bytes = new byte[4096];
		new Random(3).nextBytes(bytes);
		bytes[0] = (byte) 252; // a packed integer of two more bytes
		ArrayCursor cursor = new ArrayCursor();
		System.arraycopy(bytes, 0, cursor.reset(bytes.length), 0, bytes.length);
		ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
		assertThat(cursor.readPackedInteger()).isEqualTo(stream.readPackedInteger());
		Random sizes = new Random(5);
		while (stream.available() > 40) {
			switch (sizes.nextInt(7)) {
				case 0 -> {
					// Past four bytes the client's int shifts wrap; the cursor reads the same values.
					int length = 1 + sizes.nextInt(8);
					assertThat(cursor.readInteger(length)).isEqualTo(stream.readInteger(length));
				}
				case 1 -> {
					int length = 1 + sizes.nextInt(8);
					assertThat(cursor.readLong(length)).isEqualTo(stream.readLong(length));
				}
				case 2 -> {
					int length = sizes.nextInt(30);
					assertThat(cursor.read(length)).isEqualTo(stream.read(length));
				}
				case 3 -> {
					int length = 1 + sizes.nextInt(20);
					BitSet expected = stream.readBitSet(length, true);
					assertThat(cursor.readBitSet(length, true)).isEqualTo(expected);
				}
				case 4 -> assertThat(cursor.read()).isEqualTo(stream.read());
				case 5 -> {
					int length = 1 + sizes.nextInt(20);
					assertThat(cursor.readSetBits(length)).isEqualTo(stream.readBitSet(length, true).cardinality());
				}
				default -> {
					int length = sizes.nextInt(10);
					cursor.discard(length);
					stream.fill(new byte[length], 0, length);
				}
			}
			assertThat(cursor.available()).isEqualTo(stream.available());
		}
	}

	@Test
	void readingPastTheEndIsADecodeErrorNotTheEndOfTheStream() throws IOException {
		ArrayCursor cursor = new ArrayCursor();
		byte[] body = cursor.reset(3);
		body[0] = 1;
		body[1] = 2;
		body[2] = 3;
		assertThat(cursor.readInteger(2)).isEqualTo(0x0201);
		assertThatThrownBy(() -> cursor.readLong(4)).isInstanceOf(IOException.class)
			.isNotInstanceOf(EOFException.class)
			.hasMessageContaining("ends 1 byte(s) into a value of 4 byte(s)");
		assertThat(cursor.read()).isEqualTo(3);
		assertThat(cursor.available()).isZero();
		assertThat(cursor.read(new byte[4], 0, 4)).isEqualTo(-1);
		assertThatThrownBy(() -> cursor.read(1)).isNotInstanceOf(EOFException.class);
	}

	@Test
	void theNextEventStartsAtItsFirstByteAndALargeArrayIsNotKept() throws IOException {
		ArrayCursor cursor = new ArrayCursor();
		byte[] large = cursor.reset(3 << 20);
		large[0] = 9;
		assertThat(cursor.read()).isEqualTo(9);
		byte[] small = cursor.reset(10);
		assertThat(small.length).isLessThan(large.length);
		small[0] = 7;
		assertThat(cursor.peek()).isEqualTo(7);
		assertThat(cursor.available()).isEqualTo(10);
		assertThat(new BigInteger(1, cursor.read(1))).isEqualTo(BigInteger.valueOf(7));
	}

}
