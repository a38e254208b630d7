package io.tributary.source.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.SSLMode;

import io.tributary.source.SourceSettings;

/**
 * Applies {@link SourceSettings#sslMode()} to the replication connection.
 */
final class SourceTls {

	private SourceTls() {
	}

	static void configure(BinaryLogClient client, SourceSettings settings) {
		client.setSSLMode(SSLMode.valueOf(settings.sslMode().name()));
	}

}
