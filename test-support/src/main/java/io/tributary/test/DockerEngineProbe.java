package io.tributary.test;

import org.testcontainers.DockerClientFactory;

/**
 * Tells the build, before the container lanes of the {@code mysql-latest} profile run, whether
 * Testcontainers finds a Docker engine: the last line it prints is {@value #FOUND} or
 * {@value #MISSING}. The profile prints its skip notice from that line, because the tests' own
 * output goes to report files and a skipped test class shows no reason on the console.
 */
public final class DockerEngineProbe {

	/** Printed when Testcontainers reaches a Docker engine. */
	public static final String FOUND = "docker-engine=found";

	/** Printed when it does not. */
	public static final String MISSING = "docker-engine=missing";

	private DockerEngineProbe() {}

	/** Prints {@link #FOUND} or {@link #MISSING}; exits with status 0 either way. */
	public static void main(String[] args) {
		boolean found = DockerClientFactory.instance().isDockerAvailable();
		System.out.println(found ? FOUND : MISSING);
		System.out.flush();
		// Testcontainers may leave non-daemon threads behind.
		System.exit(0);
	}
}
