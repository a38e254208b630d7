package io.tributary.sample;

/**
 * A JVM that starts the sample's embedded source and then waits to be killed. Prints
 * {@value #READY} once the server accepts connections.
 */
public final class EmbeddedSourceProcess {

	static final String READY = "source ready";

	private EmbeddedSourceProcess() {
	}

	public static void main(String[] args) throws Exception {
		EmbeddedSource.start();
		System.out.println(READY);
		System.out.flush();
		// Blocks until the test kills this JVM.
		System.in.read();
	}

}
