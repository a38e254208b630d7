package io.tributary.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import io.tributary.autoconfigure.metrics.MeteredTables;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.ha.HaSettings;
import io.tributary.pipeline.InvalidCheckpointBehavior;
import io.tributary.pipeline.PipelineSettings.Defaults;
import io.tributary.pipeline.ShardValue;
import io.tributary.pipeline.SnapshotMode;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;

/**
 * Configuration of Tributary, under the {@code cdc} prefix: one source server ({@code cdc.source}
 * with {@code cdc.tables}), or several ({@code cdc.sources.<name>}, each with its own tables and
 * pipeline), and the settings every pipeline shares.
 */
@ConfigurationProperties("cdc")
public class TributaryProperties {

	/**
	 * Whether to replicate the configured tables while the application runs.
	 */
	private boolean enabled = true;

	private final Source source = new Source();

	private final Target target = new Target();

	/**
	 * Tables to replicate from cdc.source: each entry names one table, or a pattern (shop.*,
	 * regex:...) taking every table it matches, those created later included, with exclude,
	 * target (a template where {schema} and {table} stand for the source table's), key, snapshot
	 * and kafka.topic.
	 */
	private List<Table> tables = new ArrayList<>();

	/**
	 * Source servers by a name of the application's choice, each replicated by a pipeline of its
	 * own, in place of cdc.source and cdc.tables. Every other setting applies to all of them.
	 */
	private Map<String, NamedSource> sources = new LinkedHashMap<>();

	private final Flush flush = new Flush();

	private final Buffer buffer = new Buffer();

	private final Copy copy = new Copy();

	private final Checkpoint checkpoint = new Checkpoint();

	private final Checksum checksum = new Checksum();

	private final Ha ha = new Ha();

	private final Admin admin = new Admin();

	private final Health health = new Health();

	private final Kafka kafka = new Kafka();

	private final Metrics metrics = new Metrics();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Source getSource() {
		return this.source;
	}

	public Target getTarget() {
		return this.target;
	}

	public List<Table> getTables() {
		return this.tables;
	}

	public void setTables(List<Table> tables) {
		this.tables = tables;
	}

	public Map<String, NamedSource> getSources() {
		return this.sources;
	}

	public void setSources(Map<String, NamedSource> sources) {
		this.sources = sources;
	}

	public Flush getFlush() {
		return this.flush;
	}

	public Buffer getBuffer() {
		return this.buffer;
	}

	public Copy getCopy() {
		return this.copy;
	}

	public Checkpoint getCheckpoint() {
		return this.checkpoint;
	}

	public Checksum getChecksum() {
		return this.checksum;
	}

	public Ha getHa() {
		return this.ha;
	}

	public Admin getAdmin() {
		return this.admin;
	}

	public Health getHealth() {
		return this.health;
	}

	public Kafka getKafka() {
		return this.kafka;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	/**
	 * The source server, read as a replica.
	 */
	public static class Source {

		/**
		 * Host name or address of the source MySQL or MariaDB server.
		 */
		private String host = "localhost";

		/**
		 * TCP port of the source server.
		 */
		private int port = 3306;

		/**
		 * User with REPLICATION SLAVE, REPLICATION CLIENT and SELECT on the replicated tables.
		 */
		private String username;

		/**
		 * Password of the source user.
		 */
		private String password;

		/**
		 * Server id to register with as a replica; must differ from the source's and every other
		 * replica's. Chosen at random at startup when not set.
		 */
		private Long serverId;

		/**
		 * How long to wait for a connection to the source.
		 */
		private Duration connectTimeout = SourceSettings.DEFAULT_CONNECT_TIMEOUT;

		/**
		 * How often an idle source sends a heartbeat on the replication connection. Heartbeats move
		 * the replication position of a source nobody writes to, so this bounds how long an idle
		 * source reads as behind.
		 */
		private Duration heartbeatInterval = SourceSettings.DEFAULT_HEARTBEAT_INTERVAL;

		/**
		 * How connections to the source use TLS: disabled, preferred, required, verify-ca or
		 * verify-identity.
		 */
		private SslMode sslMode = SourceSettings.DEFAULT_SSL_MODE;

		/**
		 * PEM file of the certificate authority that signed the source's certificate, for verify-ca
		 * and verify-identity. Defaults to the JVM's trust store.
		 */
		private String sslCa;

		/**
		 * Whether a checkpoint that carries GTIDs is resumed by them (MySQL auto-positioning,
		 * MariaDB slave_connect_state), which also finds its place on a promoted replica after a
		 * failover. When false, positions are followed by binlog file and offset only, which are
		 * valid on the server that wrote them and nowhere else.
		 */
		private boolean gtidPositioning = SourceSettings.DEFAULT_GTID_POSITIONING;

		public String getHost() {
			return this.host;
		}

		public void setHost(String host) {
			this.host = host;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public String getUsername() {
			return this.username;
		}

		public void setUsername(String username) {
			this.username = username;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		public Long getServerId() {
			return this.serverId;
		}

		public void setServerId(Long serverId) {
			this.serverId = serverId;
		}

		public Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public Duration getHeartbeatInterval() {
			return this.heartbeatInterval;
		}

		public void setHeartbeatInterval(Duration heartbeatInterval) {
			this.heartbeatInterval = heartbeatInterval;
		}

		public SslMode getSslMode() {
			return this.sslMode;
		}

		public void setSslMode(SslMode sslMode) {
			this.sslMode = sslMode;
		}

		public String getSslCa() {
			return this.sslCa;
		}

		public void setSslCa(String sslCa) {
			this.sslCa = sslCa;
		}

		public boolean isGtidPositioning() {
			return this.gtidPositioning;
		}

		public void setGtidPositioning(boolean gtidPositioning) {
			this.gtidPositioning = gtidPositioning;
		}

	}

	/**
	 * One of several source servers: its connection settings, as under {@code cdc.source}, its
	 * tables and the name of its pipeline.
	 */
	public static class NamedSource extends Source {

		/**
		 * Tables to replicate from this source, each entry as one of cdc.tables: one table or a
		 * pattern.
		 */
		private List<Table> tables = new ArrayList<>();

		/**
		 * Name of this source's pipeline, under which its checkpoints are stored. Defaults to the
		 * source's name under cdc.sources.
		 */
		private String pipeline;

		public List<Table> getTables() {
			return this.tables;
		}

		public void setTables(List<Table> tables) {
			this.tables = tables;
		}

		public String getPipeline() {
			return this.pipeline;
		}

		public void setPipeline(String pipeline) {
			this.pipeline = pipeline;
		}

	}

	/**
	 * The target database. Tributary opens a small pool of its own to it, because it sets session
	 * variables on its connections. With a ChangeListener bean it holds only the checkpoint table,
	 * and is still required.
	 */
	public static class Target {

		/**
		 * JDBC URL of the target database, which also holds the checkpoint table (the only thing
		 * it holds when the application has a ChangeListener bean). Defaults to the application's
		 * spring.datasource.url.
		 */
		private String url;

		/**
		 * Target user. Defaults to the application's spring.datasource.username.
		 */
		private String username;

		/**
		 * Target password. Defaults to the application's spring.datasource.password.
		 */
		private String password;

		/**
		 * Most connections each pipeline opens to the target; at least copy.threads +
		 * flush.concurrency + 2 (2 with a ChangeListener bean).
		 */
		private int maxConnections = 12;

		/**
		 * Whether a MariaDB target gets server-side prepared statements for full-size batches of
		 * at most 4,096 placeholders, kept per connection (at most 16 per connection, about 430
		 * bytes of heap per placeholder outside the buffer's soft limit); other statements are
		 * prepared on the client. A MySQL target keeps client-side statements either way.
		 */
		private boolean serverSideStatements = true;

		/**
		 * Whether snapshot chunks, and batches of at least 256 changed rows (as when catching up),
		 * are streamed to the target with one LOAD DATA LOCAL INFILE ... REPLACE each, from
		 * memory (no file is written or read), which writes faster than REPLACE statements. The
		 * target needs local_infile=ON; where it is off, or a load leaves a warning, the rows are
		 * written with statements instead.
		 */
		private boolean loadData = true;

		public boolean isLoadData() {
			return this.loadData;
		}

		public void setLoadData(boolean loadData) {
			this.loadData = loadData;
		}

		public boolean isServerSideStatements() {
			return this.serverSideStatements;
		}

		public void setServerSideStatements(boolean serverSideStatements) {
			this.serverSideStatements = serverSideStatements;
		}

		public String getUrl() {
			return this.url;
		}

		public void setUrl(String url) {
			this.url = url;
		}

		public String getUsername() {
			return this.username;
		}

		public void setUsername(String username) {
			this.username = username;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		public int getMaxConnections() {
			return this.maxConnections;
		}

		public void setMaxConnections(int maxConnections) {
			this.maxConnections = maxConnections;
		}

	}

	/**
	 * One replicated table.
	 */
	public static class Table {

		/**
		 * Source table as schema.table, or a pattern taking every table it matches when the
		 * pipeline starts: a wildcard name (shop.*, shop.order_?; * any run of characters, ? one
		 * character, in unquoted parts) or regex: and a regular expression over schema.table. A
		 * part holding a dot or a backtick is quoted with backticks, as MySQL quotes it.
		 */
		private String source;

		/**
		 * Tables a pattern in source leaves out although it matches them, each a pattern of the
		 * same forms.
		 */
		private List<String> exclude = new ArrayList<>();

		/**
		 * Target table as schema.table, or a bare name in the target's default schema; {schema}
		 * and {table} stand for the source table's schema and name, as in replica.{table}.
		 * Defaults to the source table's name in the target's default schema. Must not be set when
		 * the application has a ChangeListener bean, which receives the changes instead.
		 */
		private String target;

		/**
		 * Columns of a unique key whose columns are all NOT NULL, to merge changes by instead of
		 * the primary key (for tables without one). Empty for the primary key.
		 */
		private List<String> key = new ArrayList<>();

		/**
		 * When the table's existing rows are copied: auto (when it has no usable checkpoint; a
		 * copy cut short continues where it stopped), always (at every start), never (a table
		 * without a checkpoint only streams, from its start point) or only (as auto, then the
		 * table stops once copied and caught up: a one-shot copy).
		 */
		private SnapshotMode snapshot = SnapshotMode.AUTO;

		/**
		 * Where a table that is not copied starts streaming when it has no checkpoint: now (the
		 * source's head), gtid:SET, a binlog FILE:OFFSET at the start of a transaction, or
		 * timestamp:INSTANT (with its zone; the first transaction logged in or after that second).
		 * Setting it makes snapshot never. Unset for now.
		 */
		private String start;

		public String getStart() {
			return this.start;
		}

		public void setStart(String start) {
			this.start = start;
		}

		/**
		 * Where the table's changes go when they are published to Kafka instead of a target table.
		 */
		private final TableKafka kafka = new TableKafka();

		/**
		 * Merging the tables a pattern takes into one target table.
		 */
		private final TableMerge merge = new TableMerge();

		public TableMerge getMerge() {
			return this.merge;
		}

		public TableKafka getKafka() {
			return this.kafka;
		}

		public SnapshotMode getSnapshot() {
			return this.snapshot;
		}

		public void setSnapshot(SnapshotMode snapshot) {
			this.snapshot = snapshot;
		}

		public List<String> getKey() {
			return this.key;
		}

		public void setKey(List<String> key) {
			this.key = key;
		}

		public String getSource() {
			return this.source;
		}

		public void setSource(String source) {
			this.source = source;
		}

		public String getTarget() {
			return this.target;
		}

		public void setTarget(String target) {
			this.target = target;
		}

		public List<String> getExclude() {
			return this.exclude;
		}

		public void setExclude(List<String> exclude) {
			this.exclude = exclude;
		}

	}

	/**
	 * Merging the tables a pattern takes into one target table (shards).
	 */
	public static class TableMerge {

		/**
		 * Column of the target that tells the merged tables' rows apart and leads its primary
		 * key; setting it merges the tables the pattern takes into the target the template
		 * names, which may then be one table for all.
		 */
		private String column;

		/**
		 * What the column holds for each source table: table (its name), schema (its schema's
		 * name) or schema-table (both, as schema.table).
		 */
		private ShardValue value = ShardValue.TABLE;

		public String getColumn() {
			return this.column;
		}

		public void setColumn(String column) {
			this.column = column;
		}

		public ShardValue getValue() {
			return this.value;
		}

		public void setValue(ShardValue value) {
			this.value = value;
		}

	}

	/**
	 * Kafka publishing of one table.
	 */
	public static class TableKafka {

		/**
		 * Kafka topic the table's changes are published to, one record per changed row keyed by
		 * its key, instead of being copied into a target table; {schema} and {table} stand for
		 * the source table's schema and name. Needs tributary-kafka and spring-boot-kafka on the
		 * classpath; producer settings come from spring.kafka.*.
		 */
		private String topic;

		public String getTopic() {
			return this.topic;
		}

		public void setTopic(String topic) {
			this.topic = topic;
		}

	}

	/**
	 * Kafka topics of tables published with cdc.tables[].kafka.topic.
	 */
	public static class Kafka {

		private final KafkaTopics topics = new KafkaTopics();

		public KafkaTopics getTopics() {
			return this.topics;
		}

	}

	/**
	 * Creation of missing Kafka topics.
	 */
	public static class KafkaTopics {

		/**
		 * Whether a missing topic is created, with cleanup.policy=compact. When false, a missing
		 * topic stops its table at start with an error.
		 */
		private boolean create;

		/**
		 * Partitions of a created topic. Defaults to the broker's num.partitions.
		 */
		private Integer partitions;

		/**
		 * Replicas of a created topic. Defaults to the broker's default.replication.factor.
		 */
		private Short replicationFactor;

		public boolean isCreate() {
			return this.create;
		}

		public void setCreate(boolean create) {
			this.create = create;
		}

		public Integer getPartitions() {
			return this.partitions;
		}

		public void setPartitions(Integer partitions) {
			this.partitions = partitions;
		}

		public Short getReplicationFactor() {
			return this.replicationFactor;
		}

		public void setReplicationFactor(Short replicationFactor) {
			this.replicationFactor = replicationFactor;
		}

	}

	/**
	 * Per-table buffers of changes waiting to be applied, and the budget they share.
	 */
	public static class Buffer {

		/**
		 * Memory per table, changes buffered plus changes being applied, at or above which the
		 * binlog reader waits for room before adding a change for a new key (one larger row is
		 * still admitted). Negative for no limit.
		 */
		private DataSize softLimit = DataSize.ofBytes(Defaults.BUFFER_SOFT_LIMIT_BYTES);

		public DataSize getSoftLimit() {
			return this.softLimit;
		}

		public void setSoftLimit(DataSize softLimit) {
			this.softLimit = softLimit;
		}

		/**
		 * Memory of all the tables of a pipeline together, counted as for the soft limit, at or
		 * above which the binlog reader waits for room before adding a change for a new key of any
		 * table. Unset, a quarter of the JVM's maximum heap. Each source's pipeline has a budget of
		 * this size. Negative for no budget.
		 */
		private DataSize budget;

		public DataSize getBudget() {
			return this.budget;
		}

		public void setBudget(DataSize budget) {
			this.budget = budget;
		}

	}

	/**
	 * How buffered changes are applied.
	 */
	public static class Flush {

		/**
		 * How often buffered changes are applied and the position confirmed while the reader is
		 * behind, and how long a row changed again after an early write waits (see when-idle).
		 */
		private Duration interval = Defaults.FLUSH_INTERVAL;

		/**
		 * Whether buffered changes are applied as soon as the binlog reader has read everything the
		 * source sent, rather than only at the interval. A row changed again within the interval
		 * still waits for it, so a hot row costs a few writes per second.
		 */
		private boolean whenIdle = Defaults.FLUSH_WHEN_IDLE;

		public boolean isWhenIdle() {
			return this.whenIdle;
		}

		public void setWhenIdle(boolean whenIdle) {
			this.whenIdle = whenIdle;
		}

		/**
		 * Most statements applying changes at once (per pipeline); lowered automatically while
		 * statements meet deadlocks or lock wait timeouts, and grown back slowly.
		 */
		private int concurrency = Defaults.APPLY_CONCURRENCY;

		public int getConcurrency() {
			return this.concurrency;
		}

		public void setConcurrency(int concurrency) {
			this.concurrency = concurrency;
		}

		/**
		 * Buffered changes of one table at which a flush starts without waiting for the interval.
		 */
		private int maxChanges = Defaults.FLUSH_MAX_CHANGES;

		public int getMaxChanges() {
			return this.maxChanges;
		}

		public void setMaxChanges(int maxChanges) {
			this.maxChanges = maxChanges;
		}

		/**
		 * Most rows per REPLACE or DELETE statement.
		 */
		private int batchRows = Defaults.BATCH_ROWS;

		/**
		 * Approximate most bytes of row values per statement.
		 */
		private DataSize batchBytes = DataSize.ofBytes(Defaults.BATCH_BYTES);

		public Duration getInterval() {
			return this.interval;
		}

		public void setInterval(Duration interval) {
			this.interval = interval;
		}

		public int getBatchRows() {
			return this.batchRows;
		}

		public void setBatchRows(int batchRows) {
			this.batchRows = batchRows;
		}

		public DataSize getBatchBytes() {
			return this.batchBytes;
		}

		public void setBatchBytes(DataSize batchBytes) {
			this.batchBytes = batchBytes;
		}

	}

	/**
	 * How existing rows are copied.
	 */
	public static class Copy {

		/**
		 * Chunks a snapshot reads in parallel, and chunks it writes in parallel; the write of a
		 * chunk overlaps the read of the next.
		 */
		private int threads = CopySizing.DEFAULT_THREADS;

		/**
		 * Rows of a snapshot's first chunk; later chunks follow chunk-time.
		 */
		private int chunkRows = CopySizing.DEFAULT_INITIAL_CHUNK_ROWS;

		/**
		 * Fewest rows per snapshot chunk.
		 */
		private int minChunkRows = CopySizing.DEFAULT_MIN_CHUNK_ROWS;

		/**
		 * Most rows per snapshot chunk.
		 */
		private int maxChunkRows = CopySizing.DEFAULT_MAX_CHUNK_ROWS;

		/**
		 * Time one chunk should take to read and write; the chunk size moves toward it.
		 */
		private Duration chunkTime = CopySizing.DEFAULT_TARGET_CHUNK_TIME;

		public int getThreads() {
			return this.threads;
		}

		public void setThreads(int threads) {
			this.threads = threads;
		}

		public int getChunkRows() {
			return this.chunkRows;
		}

		public void setChunkRows(int chunkRows) {
			this.chunkRows = chunkRows;
		}

		public int getMinChunkRows() {
			return this.minChunkRows;
		}

		public void setMinChunkRows(int minChunkRows) {
			this.minChunkRows = minChunkRows;
		}

		public int getMaxChunkRows() {
			return this.maxChunkRows;
		}

		public void setMaxChunkRows(int maxChunkRows) {
			this.maxChunkRows = maxChunkRows;
		}

		public Duration getChunkTime() {
			return this.chunkTime;
		}

		public void setChunkTime(Duration chunkTime) {
			this.chunkTime = chunkTime;
		}

	}

	/**
	 * Where and how often the resume position is stored.
	 */
	public static class Checkpoint {

		/**
		 * Checkpoint table in the target, as schema.table or a bare name in the target's default
		 * schema. Created when missing.
		 */
		private String table = "tributary_checkpoint";

		/**
		 * Least time between two checkpoint writes while streaming; a crash replays at most about
		 * this much.
		 */
		private Duration interval = Defaults.CHECKPOINT_INTERVAL;

		/**
		 * Name of the pipeline of cdc.source, under which its checkpoints are stored, so several
		 * applications can share one checkpoint table. Each of cdc.sources names its own.
		 */
		private String pipeline = Defaults.NAME;

		/**
		 * What to do when a checkpoint cannot be resumed without loss (its binlog file was purged,
		 * or the source was reset): stop the table with an error, or snapshot it again.
		 */
		private InvalidCheckpointBehavior invalidBehavior = Defaults.INVALID_CHECKPOINT_BEHAVIOR;

		/**
		 * Where checkpoints are kept: jdbc (the checkpoint table in the target) or kafka (a compacted
		 * topic, cdc.checkpoint.topic, so that tables published to Kafka need no target database;
		 * not with cdc.ha.enabled).
		 */
		private Store store = Store.JDBC;

		/**
		 * Compacted Kafka topic holding the checkpoints with cdc.checkpoint.store=kafka, one record
		 * per pipeline and table. Created when missing if cdc.kafka.topics.create is true.
		 */
		private String topic = "tributary-checkpoints";

		public Store getStore() {
			return this.store;
		}

		public void setStore(Store store) {
			this.store = store;
		}

		public String getTopic() {
			return this.topic;
		}

		public void setTopic(String topic) {
			this.topic = topic;
		}

		/** Where checkpoints are kept. */
		public enum Store {

			/** The checkpoint table in the target database. */
			JDBC,

			/** A compacted Kafka topic. */
			KAFKA

		}

		public InvalidCheckpointBehavior getInvalidBehavior() {
			return this.invalidBehavior;
		}

		public void setInvalidBehavior(InvalidCheckpointBehavior invalidBehavior) {
			this.invalidBehavior = invalidBehavior;
		}

		public String getTable() {
			return this.table;
		}

		public void setTable(String table) {
			this.table = table;
		}

		public Duration getInterval() {
			return this.interval;
		}

		public void setInterval(Duration interval) {
			this.interval = interval;
		}

		public String getPipeline() {
			return this.pipeline;
		}

		public void setPipeline(String pipeline) {
			this.pipeline = pipeline;
		}

	}

	/**
	 * Comparison of source and target tables, chunk by chunk.
	 */
	public static class Checksum {

		/**
		 * Whether to compare a table with its target when its snapshot finishes.
		 */
		private boolean enabled = ChecksumSettings.DEFAULTS.enabled();

		/**
		 * Whether to recopy a chunk from the source when it still differs after the stream has
		 * caught up with it.
		 */
		private boolean fixDifferences = ChecksumSettings.DEFAULTS.fixDifferences();

		/**
		 * Rows per compared chunk.
		 */
		private int chunkRows = ChecksumSettings.DEFAULT_CHUNK_ROWS;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isFixDifferences() {
			return this.fixDifferences;
		}

		public void setFixDifferences(boolean fixDifferences) {
			this.fixDifferences = fixDifferences;
		}

		public int getChunkRows() {
			return this.chunkRows;
		}

		public void setChunkRows(int chunkRows) {
			this.chunkRows = chunkRows;
		}

	}

	/**
	 * Several instances of the application replicating the same tables, one at a time.
	 */
	public static class Ha {

		/**
		 * Whether several instances of the application may run the pipelines: one leads, the others
		 * wait as standbys and take over when it stops, dies or stalls. Off, a single instance
		 * replicates and a second one would write alongside it.
		 */
		private boolean enabled = HaSettings.OFF.enabled();

		/**
		 * How long a leader stays leader without renewing its lease (renewed every third of it) on
		 * the target's clock. A standby takes over from a stalled leader about this long after its
		 * last renewal; a leader paused longer than this loses its leadership. At least 1s.
		 */
		private Duration lease = HaSettings.DEFAULT_LEASE;

		/**
		 * How often a standby tries to become leader; at most the lease. A standby takes over from a
		 * leader that stopped or died within about this long.
		 */
		private Duration pollInterval = HaSettings.DEFAULT_POLL_INTERVAL;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getLease() {
			return this.lease;
		}

		public void setLease(Duration lease) {
			this.lease = lease;
		}

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public void setPollInterval(Duration pollInterval) {
			this.pollInterval = pollInterval;
		}

	}

	/**
	 * The admin web pages (tributary-admin-ui).
	 */
	public static class Admin {

		/**
		 * Path under which the admin pages are served.
		 */
		private String path = "/tributary";

		/**
		 * Whether write actions (pause, resume, flush, resnapshot, restart, checksum) may be run
		 * through the endpoint and the admin pages.
		 */
		private boolean actionsEnabled = false;

		/**
		 * Role a user needs to run write actions when Spring Security is present.
		 */
		private String role = "CDC_ADMIN";

		/**
		 * Role a user needs to read the endpoint and the admin pages when Spring Security is present;
		 * unset lets any user who may reach them read.
		 */
		private String readRole;

		public String getPath() {
			return this.path;
		}

		public void setPath(String path) {
			this.path = path;
		}

		public boolean isActionsEnabled() {
			return this.actionsEnabled;
		}

		public void setActionsEnabled(boolean actionsEnabled) {
			this.actionsEnabled = actionsEnabled;
		}

		public String getRole() {
			return this.role;
		}

		public void setRole(String role) {
			this.role = role;
		}

		public String getReadRole() {
			return this.readRole;
		}

		public void setReadRole(String readRole) {
			this.readRole = readRole;
		}

	}

	/**
	 * The {@code cdc} health indicator.
	 */
	public static class Health {

		/**
		 * Most lag a streaming table may have while the pipeline reports UP.
		 */
		private Duration maxLag = Duration.ofSeconds(30);

		/**
		 * Health status reported while a table is being snapshotted (UP, DOWN, OUT_OF_SERVICE or
		 * UNKNOWN); also while it starts or catches up after its snapshot, and while its pipeline
		 * starts.
		 */
		private String snapshottingStatus = "UP";

		/**
		 * How long the source may be unreachable before the pipeline reports DOWN.
		 */
		private Duration sourceDownAfter = Duration.ofSeconds(60);

		public Duration getMaxLag() {
			return this.maxLag;
		}

		public void setMaxLag(Duration maxLag) {
			this.maxLag = maxLag;
		}

		public String getSnapshottingStatus() {
			return this.snapshottingStatus;
		}

		public void setSnapshottingStatus(String snapshottingStatus) {
			this.snapshottingStatus = snapshottingStatus;
		}

		public Duration getSourceDownAfter() {
			return this.sourceDownAfter;
		}

		public void setSourceDownAfter(Duration sourceDownAfter) {
			this.sourceDownAfter = sourceDownAfter;
		}

	}

	/**
	 * The Micrometer meters.
	 */
	public static class Metrics {

		/**
		 * Tables with meters of their own, about 45 series each in Prometheus: all, trouble (only
		 * those that need attention now: failed, flush failing, dropped, paused, catching up,
		 * snapshotting or starting) or none. Each pipeline's meters and its tables' totals are
		 * registered whichever is chosen.
		 */
		private MeteredTables tables = MeteredTables.DEFAULT;

		public MeteredTables getTables() {
			return this.tables;
		}

		public void setTables(MeteredTables tables) {
			this.tables = tables;
		}

	}

}
