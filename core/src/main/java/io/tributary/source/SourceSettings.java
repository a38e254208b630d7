package io.tributary.source;

import java.time.Duration;
import java.util.Objects;

import io.tributary.settings.Setting;

/**
 * How to reach a source server as a replica.
 *
 * @param host host name or address
 * @param port TCP port
 * @param username user with REPLICATION SLAVE, REPLICATION CLIENT and SELECT on the tables
 * @param password that user's password
 * @param serverId server id this replica registers with; must differ from every other replica's
 * and the source's own
 * @param connectTimeout how long to wait for a connection
 * @param heartbeatInterval how often an idle source sends a heartbeat; heartbeats are what moves the
 * delivered position of a source nobody writes to, so this bounds how long such a source reads as
 * behind
 * @param sslMode how connections use TLS
 * @param sslCa PEM file of the certificate authority that signed the server's certificate, for
 * {@link SslMode#VERIFY_CA} and {@link SslMode#VERIFY_IDENTITY}; {@code null} for the JVM's
 * default trust store
 * @param gtidPositioning whether a position that carries GTIDs is resumed by them (MySQL
 * auto-positioning, MariaDB {@code slave_connect_state}), which also finds the place on another
 * server of the same replication topology after a failover; false resumes by binlog file and
 * offset only, which is valid on the server that wrote them and nowhere else
 */
public record SourceSettings(String host, int port, String username, String password, long serverId,
		Duration connectTimeout, Duration heartbeatInterval, SslMode sslMode, String sslCa, boolean gtidPositioning) {

	/** How long to wait for a connection unless configured otherwise. */
	public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

	/** Short, so an idle source reaches its head about a second after its last event. */
	public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(1);

	/** Positions that carry GTIDs are resumed by them unless configured otherwise. */
	public static final boolean DEFAULT_GTID_POSITIONING = true;

	/** TLS when the server offers it, unless configured otherwise. */
	public static final SslMode DEFAULT_SSL_MODE = SslMode.PREFERRED;

	public SourceSettings {
		Objects.requireNonNull(host, "host");
		Objects.requireNonNull(username, "username");
		password = (password != null) ? password : "";
		connectTimeout = (connectTimeout != null) ? connectTimeout : DEFAULT_CONNECT_TIMEOUT;
		heartbeatInterval = (heartbeatInterval != null) ? heartbeatInterval : DEFAULT_HEARTBEAT_INTERVAL;
		sslMode = (sslMode != null) ? sslMode : DEFAULT_SSL_MODE;
		if (port <= 0 || port > 65535) {
			throw new IllegalArgumentException("Source port must be between 1 and 65535, was " + port);
		}
		if (heartbeatInterval.toMillis() < 1) {
			throw new IllegalArgumentException("Source heartbeat interval must be at least 1 ms, was " + heartbeatInterval
					+ ": without heartbeats an idle source never reads as caught up ("
					+ Setting.HEARTBEAT_INTERVAL.engineName() + ")");
		}
		if (serverId <= 0 || serverId > 0xFFFFFFFFL) {
			throw new IllegalArgumentException("Source server id must be between 1 and 4294967295, was " + serverId);
		}
	}

	/** Creates settings that resume by GTID where positions carry them. */
	public SourceSettings(String host, int port, String username, String password, long serverId,
			Duration connectTimeout, Duration heartbeatInterval, SslMode sslMode, String sslCa) {
		this(host, port, username, password, serverId, connectTimeout, heartbeatInterval, sslMode, sslCa,
				DEFAULT_GTID_POSITIONING);
	}

	/** Creates settings with TLS preferred and the JVM's trust store, resuming by GTID where positions carry them. */
	public SourceSettings(String host, int port, String username, String password, long serverId,
			Duration connectTimeout, Duration heartbeatInterval) {
		this(host, port, username, password, serverId, connectTimeout, heartbeatInterval, DEFAULT_SSL_MODE, null);
	}

	/** Returns these settings with another host and port, as when the source moved to a promoted replica. */
	public SourceSettings withAddress(String otherHost, int otherPort) {
		return new SourceSettings(otherHost, otherPort, this.username, this.password, this.serverId,
				this.connectTimeout, this.heartbeatInterval, this.sslMode, this.sslCa, this.gtidPositioning);
	}

	/** Returns these settings resuming by GTID or, with {@code false}, by binlog file and offset only. */
	public SourceSettings withGtidPositioning(boolean value) {
		return new SourceSettings(this.host, this.port, this.username, this.password, this.serverId,
				this.connectTimeout, this.heartbeatInterval, this.sslMode, this.sslCa, value);
	}

	/** Describes the settings without the password, for logs and status. */
	@Override
	public String toString() {
		return this.username + "@" + this.host + ":" + this.port + " (server id " + this.serverId + ")";
	}

}
