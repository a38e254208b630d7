package io.tributary.test;

/**
 * A JVM that starts the shared test database server and then waits to be killed, for tests of what
 * a killed owner leaves behind. Prints {@value #READY} once the server accepts connections.
 */
public final class ServerOwnerProcess {

	static final String READY = "server ready";

	private ServerOwnerProcess() {}

	public static void main(String[] args) throws Exception {
		TestDatabaseServer.shared();
		System.out.println(READY);
		System.out.flush();
		// Blocks until the test kills this JVM; if the test JVM dies instead, stdin closes and the
		// shutdown hook stops the server as usual.
		System.in.read();
	}
}
