package io.tributary.source.binlog;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

/**
 * The body of one rows event, read from an array. The binlog client's stream reads each byte
 * through three calls (its block bookkeeping, its socket buffer, the socket), and a row image is
 * mostly integers read a byte at a time; a rows event is read from the stream in one piece
 * instead and decoded from here. The cell decoders take the client's stream type, so this is one:
 * every method they call is overridden to work on the array, and nothing reaches the stream it
 * was built on. Event headers are parsed from one too.
 *
 * <p>Reading past the end throws an {@link IOException} that is not an {@link java.io.EOFException}:
 * a malformed event is the table's problem, not the end of the connection. Used on the reader
 * thread only; {@link #reset(int)} starts the next event.
 */
final class ArrayCursor extends ByteArrayInputStream {

	private static final InputStream NOTHING = InputStream.nullInputStream();

	private static final int DEFAULT_SIZE = 64 * 1024;

	private static final int LARGE = 1024 * 1024;

	private byte[] bytes = new byte[DEFAULT_SIZE];

	private int position;

	private int limit;

	ArrayCursor() {
		super(NOTHING);
	}

	/**
	 * Makes room for the next event's body, of {@code length} bytes, and returns the array to fill
	 * from offset 0; reading starts at its first byte.
	 */
	byte[] reset(int length) {
		if (this.bytes.length < length) {
			this.bytes = new byte[Math.max(length, this.bytes.length * 2)];
		}
		else if (this.bytes.length > LARGE && length <= DEFAULT_SIZE) {
			// An event with a large value passed: do not hold its array for the life of the reader.
			this.bytes = new byte[DEFAULT_SIZE];
		}
		this.position = 0;
		this.limit = length;
		return this.bytes;
	}

	private void require(int length) throws IOException {
		if (length < 0 || this.limit - this.position < length) {
			throw new IOException("A rows event ends " + (this.limit - this.position) + " byte(s) into a value of "
					+ length + " byte(s), at offset " + this.position + " of its body");
		}
	}

	@Override
	public int read() throws IOException {
		require(1);
		return this.bytes[this.position++] & 0xFF;
	}

	@Override
	public int read(byte[] target, int offset, int length) throws IOException {
		if (length == 0) {
			return 0;
		}
		if (this.position >= this.limit) {
			return -1;
		}
		int count = Math.min(length, this.limit - this.position);
		System.arraycopy(this.bytes, this.position, target, offset, count);
		this.position += count;
		return count;
	}

	@Override
	public void fill(byte[] target, int offset, int length) throws IOException {
		require(length);
		System.arraycopy(this.bytes, this.position, target, offset, length);
		this.position += length;
	}

	@Override
	public byte[] read(int length) throws IOException {
		require(length);
		byte[] copy = Arrays.copyOfRange(this.bytes, this.position, this.position + length);
		this.position += length;
		return copy;
	}

	@Override
	public int readInteger(int length) throws IOException {
		require(length);
		int result = 0;
		for (int i = 0; i < length; i++) {
			result |= (this.bytes[this.position + i] & 0xFF) << (i << 3);
		}
		this.position += length;
		return result;
	}

	@Override
	public long readLong(int length) throws IOException {
		require(length);
		long result = 0;
		for (int i = 0; i < length; i++) {
			result |= (this.bytes[this.position + i] & 0xFFL) << (i << 3);
		}
		this.position += length;
		return result;
	}

	@Override
	public long skip(long length) throws IOException {
		int count = (int) Math.max(0, Math.min(length, this.limit - this.position));
		this.position += count;
		return count;
	}

	/** Reads past {@code length} bytes, all of which must be there. */
	void discard(int length) throws IOException {
		require(length);
		this.position += length;
	}

	/**
	 * Reads a bitmap of {@code bits} bits, laid out as a rows event's column bitmaps (bit i in byte
	 * i / 8, lowest bit first), and returns how many of them are set: the check that an image is full
	 * needs no {@link java.util.BitSet}.
	 */
	int readSetBits(int bits) throws IOException {
		int length = (bits + 7) >> 3;
		require(length);
		int inLast = bits & 7;
		int set = 0;
		for (int i = 0; i < length; i++) {
			int value = this.bytes[this.position + i] & 0xFF;
			if (i == length - 1 && inLast != 0) {
				value &= (1 << inLast) - 1;
			}
			set += Integer.bitCount(value);
		}
		this.position += length;
		return set;
	}

	@Override
	public int available() {
		return this.limit - this.position;
	}

	@Override
	public int peek() {
		return (this.position < this.limit) ? this.bytes[this.position] & 0xFF : -1;
	}

	@Override
	public int getPosition() {
		return this.position;
	}

	@Override
	public void close() {
		// Nothing to close: the array is reused for the next event.
	}

}
