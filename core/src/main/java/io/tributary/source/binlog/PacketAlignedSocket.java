package io.tributary.source.binlog;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;

/**
 * A replication connection's socket whose input hands the binlog client at most one protocol
 * packet per read. The client buffers what it reads; once it has taken an event, its buffer is
 * then empty and everything it has not yet taken sits here, so "is there more to read?" is
 * answered from this buffer, and only an empty one asks the kernel. Asking the kernel after every
 * transaction cost a system call each, which dominated the reader's time on a backlog of
 * single-row transactions. Bytes are never dropped or reordered: only where one read ends moves.
 */
final class PacketAlignedSocket extends Socket {

	private PacketAlignedInput input;

	@Override
	public synchronized InputStream getInputStream() throws IOException {
		if (this.input == null) {
			this.input = new PacketAlignedInput(super.getInputStream());
		}
		else {
			// A second reader of the socket is TLS layered over it: the bytes are no longer packets.
			this.input.passThrough();
		}
		return this.input;
	}

	/** Reads the socket in large pieces and ends each read at a packet's end. Reader thread only. */
	static final class PacketAlignedInput extends InputStream {

		/** Bytes of a packet's header: a 3-byte little-endian payload length and a sequence number. */
		private static final int HEADER = 4;

		private final InputStream socket;

		private final byte[] buffer;

		/** Where a single-byte read lands, so that it allocates nothing. */
		private final byte[] single = new byte[1];

		private int offset;

		private int limit;

		/** Header bytes of the current packet already handed over, 0 to 4. */
		private int headerRead;

		/** Payload length being assembled from the header bytes. */
		private int payloadLength;

		/** Payload bytes of the current packet not yet handed over. */
		private int payloadLeft;

		private boolean aligned = true;

		PacketAlignedInput(InputStream socket) {
			this(socket, 256 * 1024);
		}

		PacketAlignedInput(InputStream socket, int bufferSize) {
			this.socket = socket;
			this.buffer = new byte[bufferSize];
		}

		void passThrough() {
			this.aligned = false;
		}

		@Override
		public int read() throws IOException {
			return (read(this.single, 0, 1) == 1) ? (this.single[0] & 0xFF) : -1;
		}

		@Override
		public int read(byte[] into, int off, int len) throws IOException {
			if (len == 0) {
				return 0;
			}
			if (this.offset == this.limit) {
				int read = this.socket.read(this.buffer, 0, this.buffer.length);
				if (read <= 0) {
					return read;
				}
				this.offset = 0;
				this.limit = read;
			}
			int n = Math.min(len, this.limit - this.offset);
			if (this.aligned) {
				n = packetBounded(n);
			}
			System.arraycopy(this.buffer, this.offset, into, off, n);
			this.offset += n;
			return n;
		}

		/** Returns how many of the next {@code n} buffered bytes lie before the current packet's end. */
		private int packetBounded(int n) {
			int taken = 0;
			while (taken < n && this.headerRead < HEADER) {
				if (this.headerRead < 3) {
					this.payloadLength |= (this.buffer[this.offset + taken] & 0xFF) << (8 * this.headerRead);
				}
				this.headerRead++;
				taken++;
				if (this.headerRead == HEADER) {
					this.payloadLeft = this.payloadLength;
				}
			}
			int payload = Math.min(n - taken, this.payloadLeft);
			this.payloadLeft -= payload;
			taken += payload;
			if (this.headerRead == HEADER && this.payloadLeft == 0) {
				this.headerRead = 0;
				this.payloadLength = 0;
			}
			return taken;
		}

		@Override
		public int available() throws IOException {
			int buffered = this.limit - this.offset;
			return (buffered > 0) ? buffered : this.socket.available();
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}
