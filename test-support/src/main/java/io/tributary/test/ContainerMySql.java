package io.tributary.test;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * MySQL from a Docker image (8.4 or 9.x), run through Testcontainers with the settings of
 * {@link EmbeddedMySql}: GTIDs on, a row-based binary log with full images, server id 1,
 * {@code utf8mb4}, and the same accounts ({@code root} with an empty password, {@code tributary}
 * with all privileges). Only the {@code mysql-latest} Maven profile puts Testcontainers on the
 * class path; without a Docker engine the lane is skipped, not failed.
 *
 * <p>When the engine runs on this machine, the server's port is published on {@code 127.0.0.1}
 * only (an ephemeral host port) and its TLS certificate comes from a fresh
 * {@link TestCertificateAuthority}, as for the embedded servers. On a remote engine the port is
 * published as Testcontainers does by default and the image's own certificate is used.
 */
final class ContainerMySql implements ServerBackend {

	private static final Logger LOG = LoggerFactory.getLogger(ContainerMySql.class);
	private static final int MYSQL_PORT = 3306;
	private static final String TLS_DIR = "/etc/mysql/tributary-tls/";
	/** For initialising the data directory and starting; pulling the image is not counted. */
	private static final Duration START_TIMEOUT = Duration.ofMinutes(4);

	private final String lane;
	private final String image;
	private MySQLContainer container;
	private ServerDirectory tlsDirectory;
	private Path caCertificate;
	private String host;
	private int port;

	/**
	 * @param lane the value of {@link TestDatabaseServer#FLAVOR_PROPERTY} that chose this server
	 * @param image the Docker image, for example {@code mysql:8.4}
	 */
	ContainerMySql(String lane, String image) {
		this.lane = lane;
		this.image = image;
	}

	@Override
	public void start() throws Exception {
		if (!DockerClientFactory.instance().isDockerAvailable()) {
			String message = "No Docker engine found, skipping the MySQL 8.4/9.x lane ("
					+ TestDatabaseServer.FLAVOR_PROPERTY + "=" + lane + ", image " + image
				+ "). It needs a Docker engine Testcontainers can reach "
					+ "(DOCKER_HOST, or the default socket); the default build needs none.";
			LOG.warn(message);
			throw new TestAbortedException(message);
		}
		String dockerHost = DockerClientFactory.instance().dockerHostIpAddress();
		boolean local = isLoopback(dockerHost);
		List<String> command = new ArrayList<>(List.of(
				"--gtid-mode=ON",
				"--enforce-gtid-consistency=ON",
				"--log-bin=mysql-bin",
				"--binlog-format=ROW",
				"--binlog-row-image=FULL",
				"--server-id=1",
				"--character-set-server=utf8mb4",
				"--max-connections=500"));
		MySQLContainer mysql = new MySQLContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("mysql"))
				.withUsername("root")
				.withPassword("")
				.withStartupTimeout(START_TIMEOUT);
		if (local) {
			tlsDirectory = ServerDirectory.create("tributary-container-tls-");
			caCertificate = TestCertificateAuthority.writeServerFiles(tlsDirectory.path());
			for (String file : new String[] {"ca.pem", "server-cert.pem", "server-key.pem"}) {
				// Readable by the image's mysql user; the key protects nothing beyond this test run.
				mysql.withCopyFileToContainer(MountableFile.forHostPath(tlsDirectory.path().resolve(file), 0644),
						TLS_DIR + file);
			}
			command.addAll(List.of("--ssl-ca=" + TLS_DIR + "ca.pem", "--ssl-cert=" + TLS_DIR + "server-cert.pem",
					"--ssl-key=" + TLS_DIR + "server-key.pem"));
			// Publish on the loopback interface only, on a port Docker picks.
			mysql.withCreateContainerCmdModifier((cmd) -> cmd.getHostConfig().withPortBindings(
					new PortBinding(Ports.Binding.bindIp(Local.LOOPBACK), ExposedPort.tcp(MYSQL_PORT))));
		}
		container = mysql.withCommand(command.toArray(String[]::new));
		LOG.info("Starting {} through Testcontainers (Docker host {})", image, dockerHost);
		container.start();
		host = local ? Local.LOOPBACK : container.getHost();
		port = container.getMappedPort(MYSQL_PORT);
	}

	private static boolean isLoopback(String host) {
		try {
			return InetAddress.getByName(host).isLoopbackAddress();
		} catch (UnknownHostException e) {
			return false;
		}
	}

	@Override
	public String knownFlavor() {
		return "mysql";
	}

	@Override
	public String host() {
		return host;
	}

	@Override
	public int port() {
		return port;
	}

	@Override
	public String[] bootstrapStatements() {
		return EmbeddedMySql.testAccountStatements();
	}

	@Override
	public Optional<Path> caCertificate() {
		return Optional.ofNullable(caCertificate);
	}

	@Override
	public void stop() {
		MySQLContainer c = container;
		container = null;
		if (c != null) {
			try {
				c.stop();
			} catch (RuntimeException e) {
				// Testcontainers' reaper removes it when this JVM ends.
				LOG.warn("Cannot stop the {} container: {}", image, e.toString());
			}
		}
		if (tlsDirectory != null) {
			tlsDirectory.close();
		}
	}

	@Override
	public String toString() {
		return "container " + image;
	}
}
