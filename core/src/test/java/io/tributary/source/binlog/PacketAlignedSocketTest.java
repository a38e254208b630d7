package io.tributary.source.binlog;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;

import com.github.shyiko.mysql.binlog.io.BufferedSocketInputStream;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import io.tributary.source.binlog.PacketAlignedSocket.PacketAlignedInput;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The socket input under the binlog client's own buffering: every byte arrives in order, no read
 * runs past a packet's end, and after a packet the client can tell whether more is waiting without
 * the socket being asked while bytes are still buffered.
 */
class PacketAlignedSocketTest {

	@Test
	void packetsArriveWholeAndInOrderHoweverTheSocketSplitsThem() throws IOException {
		byte[] stream = packets(2_000, 700, new Random(7));
		for (int chunk : new int[] { 1, 3, 5, 97, 4096, stream.length }) {
			ChunkedSocket socket = new ChunkedSocket(stream, chunk);
			ByteArrayInputStream client = client(new PacketAlignedInput(socket, 1024));
			byte[] read = new byte[stream.length];
			int at = 0;
			while (at < stream.length) {
				int length = client.readInteger(3);
				int sequence = client.read();
				byte[] payload = client.read(length);
				at = put(read, at, length, sequence, payload);
			}
			assertThat(read).as("chunks of %d bytes", chunk).isEqualTo(stream);
		}
	}

	@Test
	void afterEachPacketWhatIsBufferedAnswersWithoutAskingTheSocket() throws IOException {
		byte[] stream = packets(500, 300, new Random(11));
		ChunkedSocket socket = new ChunkedSocket(stream, stream.length);
		ByteArrayInputStream client = client(new PacketAlignedInput(socket, stream.length));
		int at = 0;
		int packets = 0;
		while (at < stream.length) {
			int length = client.readInteger(3);
			client.read();
			client.read(length);
			at += 4 + length;
			packets++;
			assertThat(client.available()).as("bytes left after packet %d", packets).isEqualTo(stream.length - at);
		}
		// Only the last answer, with nothing buffered, needed the socket.
		assertThat(socket.availableCalls).isEqualTo(1);
	}

	@Test
	void passesBytesThroughUnalignedOnceAnotherLayerReadsTheSocket() throws IOException {
		byte[] stream = packets(50, 200, new Random(3));
		PacketAlignedInput input = new PacketAlignedInput(new ChunkedSocket(stream, stream.length), 1 << 16);
		input.passThrough();
		byte[] read = new byte[stream.length];
		assertThat(input.read(read, 0, read.length)).isEqualTo(stream.length);
		assertThat(read).isEqualTo(stream);
	}

	private static ByteArrayInputStream client(InputStream socketInput) {
		return new ByteArrayInputStream(new BufferedSocketInputStream(socketInput));
	}

	private static int put(byte[] into, int at, int length, int sequence, byte[] payload) {
		into[at] = (byte) length;
		into[at + 1] = (byte) (length >> 8);
		into[at + 2] = (byte) (length >> 16);
		into[at + 3] = (byte) sequence;
		System.arraycopy(payload, 0, into, at + 4, payload.length);
		return at + 4 + length;
	}

	/** Packets of random lengths up to {@code maxLength} (empty ones among them) and random bytes. */
	private static byte[] packets(int count, int maxLength, Random random) {
		byte[] stream = new byte[count * (4 + maxLength)];
		int at = 0;
		for (int i = 0; i < count; i++) {
			int length = (i % 17 == 0) ? 0 : random.nextInt(maxLength + 1);
			byte[] payload = new byte[length];
			random.nextBytes(payload);
			at = put(stream, at, length, i & 0xFF, payload);
		}
		return Arrays.copyOf(stream, at);
	}

	/** A socket's input that hands out at most {@code chunk} bytes per read and counts what asks it. */
	private static final class ChunkedSocket extends InputStream {

		private final byte[] bytes;

		private final int chunk;

		private int at;

		int availableCalls;

		ChunkedSocket(byte[] bytes, int chunk) {
			this.bytes = bytes;
			this.chunk = chunk;
		}

		@Override
		public int read() {
			return (this.at < this.bytes.length) ? this.bytes[this.at++] & 0xFF : -1;
		}

		@Override
		public int read(byte[] into, int off, int len) {
			if (this.at == this.bytes.length) {
				return -1;
			}
			int n = Math.min(Math.min(len, this.chunk), this.bytes.length - this.at);
			System.arraycopy(this.bytes, this.at, into, off, n);
			this.at += n;
			return n;
		}

		@Override
		public int available() {
			this.availableCalls++;
			return this.bytes.length - this.at;
		}

	}

}
