package io.tributary.pipeline;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.tributary.checksum.ChecksumSettings;
import io.tributary.copy.CopySizing;
import io.tributary.ha.HaSettings;
import io.tributary.name.TableId;
import io.tributary.source.SourceSettings;
import io.tributary.status.PipelineStatus;

/**
 * A pipeline in a JVM of its own, for tests that kill it: {@link ChildPipeline} starts it and
 * watches it. It prints a {@link ChildStatus} line every {@code status-interval} and whenever a
 * flush write or a repair transaction begins or a repair ends, so the parent can act while either
 * is under way; its log goes to the same output, without the line prefix.
 *
 * <p>Arguments are {@code key=value} pairs: {@code jdbc-url}, {@code user}, {@code password} (the
 * target, and the source unless {@code source-jdbc-url} names a server of its own, read as the
 * source user) and {@code status-interval} (milliseconds), and the pipeline's settings as
 * {@link #arguments} writes them; {@code ha=<leaseMillis>,<pollMillis>} turns HA on (absent, it is
 * off). Standard input takes commands, one a line: {@code checksum <schema.table>} requests a
 * checksum pass, {@code gc} collects garbage and prints a {@link ChildSample} line (heap used after
 * it, live threads, lag, leadership), {@code stop} stops the pipeline gracefully and exits; each is
 * answered with a line
 * {@code @ok <command>} or {@code @refused <command>: <reason>}. {@code leak=heap} keeps 512 KB
 * more every second and {@code leak=threads} starts a thread that never ends every 5 s, from the
 * start: a leak on purpose, for a soak run to show that it notices one. When standard input ends, because
 * the parent closed it or died, the process ends at once, so no child outlives its test run.
 */
public final class PipelineProcess {

	private final Pipeline pipeline;

	private final TargetWrites writes;

	private volatile PipelineStatus latest;

	private PipelineProcess(Map<String, String> options) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(options.get("jdbc-url"));
		config.setUsername(options.get("user"));
		config.setPassword(options.get("password"));
		config.setMaximumPoolSize(16);
		PipelineSettings settings = settings(options);
		this.writes = new TargetWrites(new HikariDataSource(config), settings.checkpointTable().table(),
				this::printEvent);
		DataSource watched = this.writes.dataSource();
		DataSource reader = watched;
		if (options.containsKey("source-jdbc-url")) {
			HikariConfig sourceConfig = new HikariConfig();
			sourceConfig.setJdbcUrl(options.get("source-jdbc-url"));
			sourceConfig.setUsername(settings.source().username());
			sourceConfig.setPassword(settings.source().password());
			sourceConfig.setMaximumPoolSize(8);
			reader = new HikariDataSource(sourceConfig);
		}
		this.pipeline = new Pipeline(settings, reader, watched);
		this.pipeline.observeConfirms((table, delivered, pending, confirmed) -> this.writes.confirmed());
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new LinkedHashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			options.put(arg.substring(0, equals), arg.substring(equals + 1));
		}
		PipelineProcess process = new PipelineProcess(options);
		if (options.containsKey("leak")) {
			leak(options.get("leak"));
		}
		Thread commands = new Thread(process::readCommands, "child-commands");
		commands.setDaemon(true);
		commands.start();
		process.pipeline.start();
		long interval = Long.parseLong(options.getOrDefault("status-interval", "50"));
		while (true) {
			process.latest = process.pipeline.status();
			process.print();
			Thread.sleep(interval);
		}
	}

	private static void leak(String kind) {
		List<Object> kept = new ArrayList<>();
		Runnable step = switch (kind) {
			case "heap" -> () -> kept.add(new byte[512 * 1024]);
			case "threads" -> () -> {
				Thread parked = new Thread(() -> LockSupport.park(), "leaked-" + kept.size());
				parked.setDaemon(true);
				parked.start();
				kept.add(parked);
			};
			default -> throw new IllegalArgumentException("leak=heap or leak=threads, not " + kind);
		};
		long every = kind.equals("heap") ? 1 : 5;
		ScheduledExecutorService leaking = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "leak-" + kind);
			thread.setDaemon(true);
			return thread;
		});
		leaking.scheduleAtFixedRate(step, every, every, TimeUnit.SECONDS);
	}

	/**
	 * Prints on a flush or repair event with the counters as they are now and the pipeline status of
	 * the last periodic line: a write thread must not wait for the status, which takes locks.
	 */
	private void printEvent() {
		if (this.latest != null) {
			print();
		}
	}

	private synchronized void print() {
		System.out.println(ChildStatus.format(this.latest, this.writes.flushing(), this.writes.flushWrites(),
				this.writes.repairWrites(), this.writes.repairsOpen()));
		System.out.flush();
	}

	private void readCommands() {
		try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
			String line;
			while ((line = in.readLine()) != null) {
				run(line.trim());
			}
		}
		catch (Exception ex) {
			// Standard input is gone either way.
		}
		// The parent closed standard input or died: end now, as a crash would.
		Runtime.getRuntime().halt(3);
	}

	private void run(String command) {
		try {
			if (command.startsWith("checksum ")) {
				this.pipeline.checksum(TableId.parse(command.substring("checksum ".length()), null));
				reply("@ok " + command);
			}
			else if (command.equals("gc")) {
				System.gc();
				long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
				int threads = ManagementFactory.getThreadMXBean().getThreadCount();
				reply(ChildSample.format(heapUsed, threads, this.pipeline.status()));
				reply("@ok " + command);
			}
			else if (command.equals("stop")) {
				this.pipeline.close();
				reply("@ok " + command);
				Runtime.getRuntime().halt(0);
			}
			else {
				reply("@refused " + command + ": unknown command");
			}
		}
		catch (RuntimeException ex) {
			reply("@refused " + command + ": " + ex.getMessage());
		}
	}

	private synchronized void reply(String line) {
		System.out.println(line);
		System.out.flush();
	}

	/**
	 * The arguments that carry {@code settings} to the child; {@link #settings} reads them back. A
	 * change listener cannot cross a process boundary, nor TLS settings of the source. HA is
	 * {@code ha=<leaseMillis>,<pollMillis>}, absent when off.
	 */
	static List<String> arguments(PipelineSettings settings) {
		if (settings.listenerMode()) {
			throw new IllegalArgumentException("A child pipeline writes to target tables; it takes no listener");
		}
		SourceSettings source = settings.source();
		List<String> args = new ArrayList<>(List.of("name=" + settings.name(), "source-host=" + source.host(),
				"source-port=" + source.port(), "source-user=" + source.username(),
				"source-password=" + source.password(), "server-id=" + source.serverId(),
				"connect-timeout=" + source.connectTimeout().toMillis(),
				"heartbeat-interval=" + source.heartbeatInterval().toMillis(),
				"checkpoint-table=" + settings.checkpointTable(),
				"flush-interval=" + settings.flushInterval().toMillis(),
				"flush-when-idle=" + settings.flushWhenIdle(),
				"checkpoint-interval=" + settings.checkpointInterval().toMillis(),
				"copy=" + settings.copy().threads() + "," + settings.copy().initialChunkRows() + ","
						+ settings.copy().minChunkRows() + "," + settings.copy().maxChunkRows() + ","
						+ settings.copy().targetChunkTime().toMillis(),
				"batch-rows=" + settings.batchRows(), "batch-bytes=" + settings.batchBytes(),
				"invalid-checkpoint=" + settings.invalidCheckpointBehavior(),
				"buffer-soft-limit=" + settings.bufferSoftLimitBytes(),
				"flush-max-changes=" + settings.flushMaxChanges(),
				"apply-concurrency=" + settings.applyConcurrency(),
				"checksum=" + settings.checksum().enabled() + "," + settings.checksum().fixDifferences() + ","
						+ settings.checksum().chunkRows()));
		for (int i = 0; i < settings.tables().size(); i++) {
			TableMapping table = settings.tables().get(i);
			args.add("table." + i + "=" + table.source() + "|" + table.target() + "|" + String.join(",", table.key())
					+ "|" + table.snapshot());
		}
		if (settings.ha().enabled()) {
			args.add("ha=" + settings.ha().lease().toMillis() + "," + settings.ha().pollInterval().toMillis());
		}
		return args;
	}

	/** Reads the settings {@link #arguments} wrote. */
	static PipelineSettings settings(Map<String, String> options) {
		SourceSettings source = new SourceSettings(options.get("source-host"),
				Integer.parseInt(options.get("source-port")), options.get("source-user"),
				options.get("source-password"), Long.parseLong(options.get("server-id")),
				millis(options, "connect-timeout"), millis(options, "heartbeat-interval"));
		List<TableMapping> tables = new ArrayList<>();
		for (int i = 0; options.containsKey("table." + i); i++) {
			String[] parts = options.get("table." + i).split("\\|", -1);
			tables.add(new TableMapping(TableId.parse(parts[0], null), TableId.parse(parts[1], null),
					parts[2].isEmpty() ? List.of() : Arrays.asList(parts[2].split(",")), SnapshotMode.valueOf(parts[3])));
		}
		long[] copy = Arrays.stream(options.get("copy").split(",")).mapToLong(Long::parseLong).toArray();
		String[] checksum = options.get("checksum").split(",");
		PipelineSettings settings = PipelineSettings
			.builder(source, tables, TableId.parse(options.get("checkpoint-table"), null))
			.name(options.get("name"))
			.flushInterval(millis(options, "flush-interval"))
			.checkpointInterval(millis(options, "checkpoint-interval"))
			.copy(new CopySizing((int) copy[0], (int) copy[1], (int) copy[2], (int) copy[3], Duration.ofMillis(copy[4])))
			.batchRows(Integer.parseInt(options.get("batch-rows")))
			.batchBytes(Long.parseLong(options.get("batch-bytes")))
			.invalidCheckpointBehavior(InvalidCheckpointBehavior.valueOf(options.get("invalid-checkpoint")))
			.bufferSoftLimitBytes(Long.parseLong(options.get("buffer-soft-limit")))
			.flushMaxChanges(Integer.parseInt(options.get("flush-max-changes")))
			.applyConcurrency(Integer.parseInt(options.get("apply-concurrency")))
			.checksum(new ChecksumSettings(Boolean.parseBoolean(checksum[0]), Boolean.parseBoolean(checksum[1]),
					Integer.parseInt(checksum[2])))
			.flushWhenIdle(Boolean.parseBoolean(options.get("flush-when-idle")))
			.build();
		if (!options.containsKey("ha")) {
			return settings;
		}
		long[] ha = Arrays.stream(options.get("ha").split(",")).mapToLong(Long::parseLong).toArray();
		return settings.withHa(HaSettings.enabled(Duration.ofMillis(ha[0]), Duration.ofMillis(ha[1])));
	}

	private static Duration millis(Map<String, String> options, String key) {
		return Duration.ofMillis(Long.parseLong(options.get(key)));
	}

}
