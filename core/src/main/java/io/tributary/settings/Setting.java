package io.tributary.settings;

/**
 * A setting that a message of the engine tells its reader to check or change. Each constant
 * carries its name in the engine's Java API; {@link SettingNames} turns a constant into the name
 * the reader configured it by.
 */
public enum Setting {

	/** The tables to replicate. */
	TABLES("PipelineSettings.tables"),

	/** The target table of one table to replicate. */
	TABLE_TARGET("TableMapping.destination"),

	/** The columns of the unique key one table is keyed by instead of its primary key. */
	TABLE_KEY("TableMapping.key"),

	/** The server id the replica registers with at the source. */
	SERVER_ID("SourceSettings.serverId"),

	/** How often an idle source sends a heartbeat. */
	HEARTBEAT_INTERVAL("SourceSettings.heartbeatInterval"),

	/** How connections to the source use TLS. */
	SSL_MODE("SourceSettings.sslMode"),

	/** The certificate authority that signed the source's certificate. */
	SSL_CA("SourceSettings.sslCa"),

	/** What to do with a checkpoint the source can no longer serve. */
	INVALID_CHECKPOINT_BEHAVIOR("PipelineSettings.invalidCheckpointBehavior"),

	/** Whether a checksum recopies what differs. */
	CHECKSUM_FIX_DIFFERENCES("ChecksumSettings.fixDifferences"),

	/** Where the target database is: without Spring, the target {@code DataSource} given to the pipeline. */
	TARGET_URL("the target DataSource's URL");

	private final String engineName;

	Setting(String engineName) {
		this.engineName = engineName;
	}

	/**
	 * Returns the name of this setting in the engine's Java API: the record component that holds it
	 * ({@code SourceSettings.serverId}), or what is given to the pipeline in its place.
	 */
	public String engineName() {
		return this.engineName;
	}

}
