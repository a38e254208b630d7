package io.tributary.autoconfigure.health;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashSet;
import java.util.Set;

/**
 * Forwards TCP connections from a port on 127.0.0.1 to a server, and can cut them: a source that
 * goes out of reach and comes back, while the shared test server stays up for the other tests.
 */
final class TcpForwarder implements AutoCloseable {

	private final String serverHost;

	private final int serverPort;

	private final Set<Socket> sockets = new HashSet<>();

	private ServerSocket listener;

	private int port;

	private TcpForwarder(String serverHost, int serverPort) {
		this.serverHost = serverHost;
		this.serverPort = serverPort;
	}

	/** Starts forwarding a free local port to a server. */
	static TcpForwarder to(String host, int port) throws IOException {
		TcpForwarder forwarder = new TcpForwarder(host, port);
		forwarder.open();
		return forwarder;
	}

	/** Returns the local port; the same after a {@link #cut()} and {@link #open()}. */
	synchronized int port() {
		return this.port;
	}

	/** Listens again, on the same port as before. */
	synchronized void open() throws IOException {
		ServerSocket server = new ServerSocket();
		// Connections just cut wait out TIME_WAIT on this port; they must not keep it from being reused.
		server.setReuseAddress(true);
		server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port));
		this.port = server.getLocalPort();
		this.listener = server;
		start("test-forwarder-accept", () -> accept(server));
	}

	/** Stops listening and closes every forwarded connection: the server is out of reach. */
	synchronized void cut() {
		closeQuietly(this.listener);
		this.listener = null;
		this.sockets.forEach(TcpForwarder::closeQuietly);
		this.sockets.clear();
	}

	@Override
	public void close() {
		cut();
	}

	private void accept(ServerSocket server) {
		while (!server.isClosed()) {
			Socket client;
			try {
				client = server.accept();
			}
			catch (IOException ex) {
				return;
			}
			Socket upstream = null;
			try {
				upstream = new Socket(this.serverHost, this.serverPort);
			}
			catch (IOException ex) {
				closeQuietly(client);
				continue;
			}
			if (!track(server, client, upstream)) {
				return;
			}
			Socket from = client;
			Socket to = upstream;
			start("test-forwarder-up", () -> pump(from, to));
			start("test-forwarder-down", () -> pump(to, from));
		}
	}

	/** Keeps a connection to cut later, unless the listener that accepted it was cut already. */
	private synchronized boolean track(ServerSocket server, Socket client, Socket upstream) {
		if (this.listener != server) {
			closeQuietly(client);
			closeQuietly(upstream);
			return false;
		}
		this.sockets.add(client);
		this.sockets.add(upstream);
		return true;
	}

	private static void pump(Socket from, Socket to) {
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			byte[] buffer = new byte[16 * 1024];
			int read;
			while ((read = in.read(buffer)) >= 0) {
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		catch (IOException ex) {
			// Cut, or closed by either end: the other direction ends with it below.
		}
		finally {
			closeQuietly(from);
			closeQuietly(to);
		}
	}

	private static void start(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		if (closeable == null) {
			return;
		}
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// Closing is all that is wanted.
		}
	}

}
