package io.tributary.source.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;

import io.tributary.settings.SettingNames;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;

/**
 * How one replication connection to the source is made: the account and server id, where it
 * starts reading (by GTID or by file and offset), TLS, the connect timeout, the heartbeat interval
 * and what gets decoded. A new client is made for every connection, from the delivered boundary.
 */
final class ConnectionOptions {

	private ConnectionOptions() {
	}

	/**
	 * Returns a client, not yet connected, that reads from {@code from}.
	 * @param settings the source
	 * @param names how messages about the connection name the settings they point to
	 * @param from the transaction boundary to read from
	 * @param byGtid whether to position by the GTIDs of {@code from} rather than its file and offset
	 * @param deserializer decodes the events
	 */
	static BinaryLogClient client(SourceSettings settings, SettingNames names, Position from, boolean byGtid,
			EventDeserializer deserializer) {
		BinaryLogClient client = new BinaryLogClient(settings.host(), settings.port(), settings.username(),
				settings.password()) {

			@Override
			protected void updateGtidSet(Event event) {
				// The reader follows the executed set itself (GtidTracker) and makes a new client for every
				// connection; the client's own copy serves only reconnects of its own, which are off, and
				// parsing and adding each transaction's GTID to it was a few percent of the reader's time.
			}

		};
		client.setServerId(settings.serverId());
		client.setBinlogFilename(from.file());
		client.setBinlogPosition(from.offset());
		if (byGtid) {
			// MySQL sends what the set lacks, MariaDB what follows each domain's GTID: both survive a failover.
			client.setGtidSet(from.gtids());
		}
		client.setKeepAlive(false);
		// Lets the reader tell whether it has read all the source sent without a system call per transaction.
		client.setSocketFactory(PacketAlignedSocket::new);
		SourceTls.configure(client, settings, names);
		client.setConnectTimeout(settings.connectTimeout().toMillis());
		// Heartbeats are what moves the delivered position of an idle source to its head.
		client.setHeartbeatInterval(settings.heartbeatInterval().toMillis());
		client.setEventDeserializer(deserializer);
		return client;
	}

}
