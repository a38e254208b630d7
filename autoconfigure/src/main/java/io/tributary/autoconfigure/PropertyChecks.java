package io.tributary.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.util.unit.DataSize;

import io.tributary.ha.HaSettings;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.source.SslMode;

/**
 * Checks of single {@code cdc.*} values and of values that only make sense together, run before
 * anything is built from them. Each failure is a {@link TributaryConfigurationException} naming the
 * property, its value and what to set instead. Checks of tables live in
 * {@link ConfiguredPipelines}, which needs the target's default schema for them.
 */
final class PropertyChecks {

	/** Health statuses Spring Boot's health endpoint knows without further configuration. */
	static final List<String> HEALTH_STATUSES = List.of("UP", "DOWN", "OUT_OF_SERVICE", "UNKNOWN");

	private static final TributaryProperties DEFAULTS = new TributaryProperties();

	private PropertyChecks() {
	}

	/** Checks the settings every pipeline shares, and that the two forms of sources are not mixed. */
	static void checkShared(TributaryProperties properties) {
		checkForms(properties);
		if (properties.getCheckpoint().getStore() == TributaryProperties.Checkpoint.Store.KAFKA
				&& properties.getHa().isEnabled()) {
			throw new TributaryConfigurationException("cdc.checkpoint.store", "kafka", "cdc.checkpoint.store=kafka "
					+ "cannot be combined with cdc.ha.enabled=true: the leader lock and the fencing of an old leader's "
					+ "writes live in the target database, and a topic cannot refuse a stale leader's checkpoint",
					"Keep the checkpoints in the target database (cdc.checkpoint.store=jdbc) to run several instances, "
							+ "or set cdc.ha.enabled=false and run one instance per pipeline.");
		}
		TributaryProperties.Flush flush = properties.getFlush();
		TributaryProperties.Flush flushDefaults = DEFAULTS.getFlush();
		positive("cdc.flush.interval", flush.getInterval(), flushDefaults.getInterval());
		atLeastOne("cdc.flush.concurrency", flush.getConcurrency(), flushDefaults.getConcurrency());
		atLeastOne("cdc.flush.max-changes", flush.getMaxChanges(), flushDefaults.getMaxChanges());
		atLeastOne("cdc.flush.batch-rows", flush.getBatchRows(), flushDefaults.getBatchRows());
		positive("cdc.flush.batch-bytes", flush.getBatchBytes(), flushDefaults.getBatchBytes());
		TributaryProperties.Copy copy = properties.getCopy();
		TributaryProperties.Copy copyDefaults = DEFAULTS.getCopy();
		atLeastOne("cdc.copy.threads", copy.getThreads(), copyDefaults.getThreads());
		atLeastOne("cdc.copy.chunk-rows", copy.getChunkRows(), copyDefaults.getChunkRows());
		atLeastOne("cdc.copy.min-chunk-rows", copy.getMinChunkRows(), copyDefaults.getMinChunkRows());
		atLeastOne("cdc.copy.max-chunk-rows", copy.getMaxChunkRows(), copyDefaults.getMaxChunkRows());
		if (copy.getMaxChunkRows() < copy.getMinChunkRows()) {
			throw new TributaryConfigurationException("cdc.copy.max-chunk-rows", copy.getMaxChunkRows(),
					"cdc.copy.max-chunk-rows is below cdc.copy.min-chunk-rows (" + copy.getMinChunkRows() + ")",
					"Raise cdc.copy.max-chunk-rows to at least cdc.copy.min-chunk-rows, or lower the minimum.");
		}
		positive("cdc.copy.chunk-time", copy.getChunkTime(), copyDefaults.getChunkTime());
		DataSize softLimit = properties.getBuffer().getSoftLimit();
		if (softLimit == null || softLimit.toBytes() == 0) {
			throw new TributaryConfigurationException("cdc.buffer.soft-limit", format(softLimit),
					"cdc.buffer.soft-limit is " + ((softLimit == null) ? "not set" : "zero, which would stop the "
							+ "binlog reader before every change of a new key"),
					"Set cdc.buffer.soft-limit to a positive size such as its default "
							+ format(DEFAULTS.getBuffer().getSoftLimit()) + ", or to -1 for no limit.");
		}
		DataSize budget = properties.getBuffer().getBudget();
		if (budget != null && budget.toBytes() == 0) {
			throw new TributaryConfigurationException("cdc.buffer.budget", format(budget),
					"cdc.buffer.budget is zero, which would stop the binlog reader before every change of a new key",
					"Set cdc.buffer.budget to a positive size, leave it unset for a quarter of the maximum heap ("
							+ format(DataSize.ofBytes(PipelineSettings.Defaults.BUFFER_BUDGET_BYTES))
							+ " here), or set it to -1 for no budget.");
		}
		TributaryProperties.Checkpoint checkpoint = properties.getCheckpoint();
		positive("cdc.checkpoint.interval", checkpoint.getInterval(), DEFAULTS.getCheckpoint().getInterval());
		notBlank("cdc.checkpoint.table", checkpoint.getTable(),
				"Name the checkpoint table as schema.table, or as a bare name in the target's default schema.");
		checkHa(properties.getHa());
		atLeastOne("cdc.checksum.chunk-rows", properties.getChecksum().getChunkRows(),
				DEFAULTS.getChecksum().getChunkRows());
		atLeastOne("cdc.target.max-connections", properties.getTarget().getMaxConnections(),
				DEFAULTS.getTarget().getMaxConnections());
		TributaryProperties.Health health = properties.getHealth();
		positive("cdc.health.max-lag", health.getMaxLag(), DEFAULTS.getHealth().getMaxLag());
		positive("cdc.health.source-down-after", health.getSourceDownAfter(), DEFAULTS.getHealth().getSourceDownAfter());
		String snapshotting = health.getSnapshottingStatus();
		// The indicator reads out-of-service as OUT_OF_SERVICE, as Spring Boot's status names go.
		if (snapshotting == null
				|| !HEALTH_STATUSES.contains(snapshotting.trim().toUpperCase(Locale.ROOT).replace('-', '_'))) {
			throw new TributaryConfigurationException("cdc.health.snapshotting-status", health.getSnapshottingStatus(),
					"cdc.health.snapshotting-status is not a health status",
					"Set it to one of " + String.join(", ", HEALTH_STATUSES) + ".");
		}
		checkPipelineNames(properties);
	}

	private static void checkHa(TributaryProperties.Ha ha) {
		TributaryProperties.Ha defaults = DEFAULTS.getHa();
		positive("cdc.ha.lease", ha.getLease(), defaults.getLease());
		if (ha.getLease().compareTo(HaSettings.MIN_LEASE) < 0) {
			throw new TributaryConfigurationException("cdc.ha.lease", format(ha.getLease()),
					"cdc.ha.lease is shorter than " + format(HaSettings.MIN_LEASE) + ": the leader would have to renew "
							+ "it more often than a busy JVM can be relied on to, and would lose its leadership in "
							+ "ordinary pauses",
					"Set cdc.ha.lease to " + format(HaSettings.MIN_LEASE) + " or more, such as its default "
							+ format(defaults.getLease()) + ".");
		}
		positive("cdc.ha.poll-interval", ha.getPollInterval(), defaults.getPollInterval());
		if (ha.getPollInterval().compareTo(ha.getLease()) > 0) {
			throw new TributaryConfigurationException("cdc.ha.poll-interval", format(ha.getPollInterval()),
					"cdc.ha.poll-interval is longer than cdc.ha.lease (" + format(ha.getLease()) + "): a standby would "
							+ "look for a lapsed lease less often than the lease lasts",
					"Set cdc.ha.poll-interval to at most cdc.ha.lease, such as its default "
							+ format(defaults.getPollInterval()) + ".");
		}
	}

	private static void checkForms(TributaryProperties properties) {
		if (properties.getSources().isEmpty()) {
			return;
		}
		String single = !properties.getTables().isEmpty() ? "cdc.tables"
				: (properties.getSource().getUsername() != null) ? "cdc.source.username" : null;
		if (single != null) {
			throw new TributaryConfigurationException("cdc.sources", properties.getSources().keySet(),
					"cdc.sources and " + single + " are both set, but a configuration names either one source "
							+ "(cdc.source, cdc.tables) or several (cdc.sources)",
					"Move cdc.source.* and cdc.tables under cdc.sources.<name> (as cdc.sources.<name>.host, "
							+ "cdc.sources.<name>.tables, ...), or remove cdc.sources.");
		}
	}

	private static void checkPipelineNames(TributaryProperties properties) {
		Map<String, ConfiguredSource> byName = new LinkedHashMap<>();
		for (ConfiguredSource source : ConfiguredSource.all(properties)) {
			notBlank(source.pipelineProperty(), source.pipeline(),
					"Name the pipeline; its checkpoints are stored under that name.");
			ConfiguredSource other = byName.putIfAbsent(source.pipeline(), source);
			if (other != null) {
				throw new TributaryConfigurationException(source.pipelineProperty(), source.pipeline(),
						source.prefix() + " and " + other.prefix() + " both name their pipeline '" + source.pipeline()
								+ "', but each pipeline keeps its checkpoints under a name of its own",
						"Give " + source.pipelineProperty() + " another name.");
			}
		}
	}

	/** Checks the connection settings of one source. */
	static void checkSource(ConfiguredSource configured) {
		String prefix = configured.prefix();
		TributaryProperties.Source source = configured.source();
		notBlank(prefix + ".host", source.getHost(), "Set " + prefix
				+ ".host to the host name or address of the source MySQL or MariaDB server.");
		notBlank(prefix + ".username", source.getUsername(), "Set " + prefix + ".username (and " + prefix
				+ ".password) to a source user with REPLICATION SLAVE, REPLICATION CLIENT and SELECT on the "
				+ "replicated tables.");
		if (source.getPort() < 1 || source.getPort() > 65535) {
			throw new TributaryConfigurationException(prefix + ".port", source.getPort(),
					prefix + ".port is not a TCP port", "Set it between 1 and 65535; MySQL listens on 3306.");
		}
		Long serverId = source.getServerId();
		if (serverId != null && (serverId < 1 || serverId > 0xFFFFFFFFL)) {
			throw new TributaryConfigurationException(prefix + ".server-id", serverId,
					prefix + ".server-id is not a server id", "Set it between 1 and 4294967295, different from the "
							+ "source's and every other replica's, or unset it for a random one.");
		}
		TributaryProperties.Source defaults = DEFAULTS.getSource();
		positive(prefix + ".connect-timeout", source.getConnectTimeout(), defaults.getConnectTimeout());
		if (source.getHeartbeatInterval() == null || source.getHeartbeatInterval().toMillis() < 1) {
			throw new TributaryConfigurationException(prefix + ".heartbeat-interval",
					format(source.getHeartbeatInterval()), prefix + ".heartbeat-interval is below 1ms; without "
							+ "heartbeats an idle source never reads as caught up",
					"Set it to 1ms or more, such as its default " + format(defaults.getHeartbeatInterval()) + ".");
		}
		if (source.getSslMode() == null) {
			throw new TributaryConfigurationException(prefix + ".ssl-mode", null, prefix + ".ssl-mode is empty",
					"Set it to disabled, preferred, required, verify-ca or verify-identity.");
		}
		boolean verifies = source.getSslMode() == SslMode.VERIFY_CA || source.getSslMode() == SslMode.VERIFY_IDENTITY;
		if (verifies && source.getSslCa() != null && !Files.isRegularFile(Path.of(source.getSslCa()))) {
			throw new TributaryConfigurationException(prefix + ".ssl-ca", source.getSslCa(),
					"The source's CA file " + source.getSslCa() + " (" + prefix + ".ssl-ca) does not exist",
					"Point " + prefix + ".ssl-ca at the PEM file of the certificate authority that signed the "
							+ "source's certificate, or unset it to trust the JVM's trust store.");
		}
	}

	/**
	 * Checks that each pipeline's pool to the target is large enough for the threads that use it.
	 * @param listenerMode whether the target holds only checkpoints
	 */
	static void checkTargetPool(TributaryProperties properties, boolean listenerMode) {
		int threads = properties.getCopy().getThreads();
		int concurrency = properties.getFlush().getConcurrency();
		// With HA the leader holds one connection for its lock all along.
		int lock = properties.getHa().isEnabled() ? 1 : 0;
		int needed = (listenerMode ? 2 : threads + concurrency + 2) + lock;
		int max = properties.getTarget().getMaxConnections();
		if (max < needed) {
			String why = listenerMode ? "2, a checkpoint write and a read beside it"
					: "cdc.copy.threads (" + threads + ") + cdc.flush.concurrency (" + concurrency + ") + 2";
			why += (lock > 0) ? ", and 1 for the leader lock (cdc.ha.enabled): " + needed
					: listenerMode ? "" : " = " + needed;
			throw new TributaryConfigurationException("cdc.target.max-connections", max,
					"cdc.target.max-connections is too small for the threads that write to the target: it needs "
							+ "at least " + why,
					"Raise cdc.target.max-connections to " + needed + " or more"
							+ (listenerMode ? "." : ", or lower cdc.copy.threads or cdc.flush.concurrency."));
		}
	}

	static void notBlank(String property, String value, String action) {
		if (value == null || value.isBlank()) {
			throw new TributaryConfigurationException(property, value,
					property + ((value == null) ? " is not set" : " is empty"), action);
		}
	}

	private static void positive(String property, Duration value, Duration fallback) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new TributaryConfigurationException(property, format(value),
					property + ((value == null) ? " is not set" : " must be longer than zero"),
					"Set " + property + " to a positive duration, such as its default " + format(fallback) + ".");
		}
	}

	private static void positive(String property, DataSize value, DataSize fallback) {
		if (value == null || value.toBytes() <= 0) {
			throw new TributaryConfigurationException(property, format(value),
					property + ((value == null) ? " is not set" : " must be larger than zero"),
					"Set " + property + " to a positive size, such as its default " + format(fallback) + ".");
		}
	}

	private static void atLeastOne(String property, int value, int fallback) {
		if (value < 1) {
			throw new TributaryConfigurationException(property, value, property + " must be at least 1",
					"Set " + property + " to 1 or more; its default is " + fallback + ".");
		}
	}

	/** Renders a duration or size the way it is written in a property: 250ms, 30s, 256MB. */
	static String format(Object value) {
		if (value instanceof Duration duration) {
			long millis = duration.toMillis();
			return (millis % 1000 != 0 || millis == 0) ? millis + "ms" : (millis / 1000) + "s";
		}
		if (value instanceof DataSize size) {
			long bytes = size.toBytes();
			long mb = 1024 * 1024;
			return (bytes != 0 && bytes % mb == 0) ? (bytes / mb) + "MB"
					: (bytes != 0 && bytes % 1024 == 0) ? (bytes / 1024) + "KB" : bytes + "B";
		}
		return (value != null) ? value.toString() : null;
	}

}
