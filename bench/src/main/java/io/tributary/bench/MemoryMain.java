package io.tributary.bench;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import com.zaxxer.hikari.HikariDataSource;

import io.tributary.apply.ChangeListener;
import io.tributary.checksum.ChecksumSettings;
import io.tributary.name.TableId;
import io.tributary.pipeline.Pipeline;
import io.tributary.pipeline.PipelineSettings;
import io.tributary.pipeline.SnapshotMode;
import io.tributary.pipeline.TableMapping;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;
import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;
import io.tributary.test.LiveHeapSampler;

/**
 * The main class of a memory JVM ({@link MemoryScenario}): resumes a pipeline from the checkpoint
 * it left before a burst was written, applies the burst into the target table or into a slow
 * {@link ChangeListener}, and writes how much live heap it held at most above what was live before
 * it started, with the buffer's counters. Nothing else runs in this JVM, so the heap is the
 * pipeline's.
 *
 * <p>Live heap is read as {@code SoftLimitIT} reads it, by a {@link LiveHeapSampler}: a sampler
 * thread collects garbage and reads the heap in use, again and again with {@code sampleMillis}
 * between readings, so each reading counts what is kept, not garbage awaiting collection.
 *
 * <p>Arguments are {@code key=value}: {@code mode} ({@code target} or {@code listener}),
 * {@code host}, {@code port}, {@code user}, {@code password}, {@code source} and {@code target}
 * (tables, {@code schema.table}), {@code checkpoints} (table), {@code softLimitMb},
 * {@code microsPerChange} (the listener's pause per change of a batch), {@code sampleMillis}, {@code head} (the
 * position the burst ends at, {@code file:offset}), {@code result} and {@code serverId}.
 */
public final class MemoryMain {

	private MemoryMain() {
	}

	public static void main(String[] argv) {
		int exit = 0;
		try {
			Map<String, String> args = new LinkedHashMap<>();
			for (String arg : argv) {
				int equals = arg.indexOf('=');
				args.put(arg.substring(0, equals), arg.substring(equals + 1));
			}
			run(new ReaderMain.Args(args));
		}
		catch (Throwable ex) {
			ex.printStackTrace();
			exit = 1;
		}
		// The drivers and pools leave non-daemon threads behind.
		System.exit(exit);
	}

	private static void run(ReaderMain.Args args) throws Exception {
		boolean listener = args.text("mode").equals("listener");
		long softLimit = args.number("softLimitMb") * 1024L * 1024L;
		AtomicLong delivered = new AtomicLong();
		long pauseNanosPerChange = args.number("microsPerChange") * 1_000L;
		Position head = args.position("head");
		PipelineSettings settings = settings(args, softLimit);
		if (listener) {
			settings = settings.withListener((batch) -> {
				LockSupport.parkNanos(batch.size() * pauseNanosPerChange);
				delivered.addAndGet(batch.size());
			});
		}
		Properties result = new Properties();
		try (HikariDataSource source = pool(args, 4, "source"); HikariDataSource target = targetPool(args, 8)) {
			// Connections open before the baseline: the pools' few objects are not the pipeline's.
			source.getConnection().close();
			target.getConnection().close();
			Pipeline pipeline = new Pipeline(settings, source, target);
			long maxBuffered = 0;
			long started;
			double seconds;
			try (LiveHeapSampler heap = new LiveHeapSampler(Duration.ofMillis(args.number("sampleMillis")))) {
				started = System.nanoTime();
				pipeline.start();
				while (true) {
					PipelineStatus status = pipeline.status();
					TableStatus table = status.tables().get(0);
					maxBuffered = Math.max(maxBuffered, table.bufferedBytes());
					String confirmed = status.position().confirmed();
					if (confirmed != null && Position.parse(confirmed).compareTo(head) >= 0 && table.bufferedKeys() == 0) {
						break;
					}
					if (status.state() == PipelineStatus.State.FAILED) {
						throw new IllegalStateException("The pipeline failed: " + status.lastError());
					}
					Thread.sleep(5);
				}
				seconds = (System.nanoTime() - started) / 1e9;
				heap.stop();
				result.setProperty("baselineBytes", Long.toString(heap.baseline()));
				result.setProperty("peakAboveBaselineBytes", Long.toString(heap.peakAboveBaseline()));
				result.setProperty("samples", Long.toString(heap.samples()));
			}
			TableStatus table = pipeline.status().tables().get(0);
			pipeline.close(Duration.ofSeconds(30));
			result.setProperty("seconds", Double.toString(seconds));
			result.setProperty("maxBufferedBytes", Long.toString(maxBuffered));
			result.setProperty("parkEvents", Long.toString(table.parkEvents()));
			result.setProperty("parkedMillis", Long.toString(table.parkedMillis()));
			result.setProperty("events", Long.toString(table.keysAdded()));
			result.setProperty("changesApplied", Long.toString(table.changesApplied()));
			result.setProperty("batches", Long.toString(table.apply().batchesApplied()));
			result.setProperty("maxHeapBytes", Long.toString(Runtime.getRuntime().maxMemory()));
			result.setProperty("gc", ManagementFactory.getGarbageCollectorMXBeans().stream()
				.map((gc) -> gc.getName() + " " + gc.getCollectionCount()).reduce((a, b) -> a + ", " + b).orElse(""));
		}
		System.out.println("memory run: " + result);
		try (OutputStream out = Files.newOutputStream(Path.of(args.text("result")))) {
			result.store(out, "memory " + args.text("mode"));
		}
	}

	private static PipelineSettings settings(ReaderMain.Args args, long softLimit) {
		SourceSettings source = new SourceSettings(args.text("host"), args.number("port"), args.text("user"),
				args.text("password"), args.number("serverId"), Duration.ofSeconds(10), Duration.ofSeconds(5),
				SslMode.DISABLED, null);
		TableMapping mapping = new TableMapping(TableId.parse(args.text("source"), null),
				TableId.parse(args.text("target"), null),
				List.of(), SnapshotMode.NEVER);
		return PipelineSettings.of(source, List.of(mapping), TableId.parse(args.text("checkpoints"), null))
			.withBufferSoftLimitBytes(softLimit)
			.withChecksum(ChecksumSettings.DEFAULTS.withEnabled(false));
	}

	private static HikariDataSource pool(ReaderMain.Args args, int size, String name) {
		return ApplyBacklogRun.pool(url(args), args.text("user"), args.text("password"), size, "memory-" + name);
	}

	/** The target pool as Tributary's own would be, server-side statements and their heap included. */
	private static HikariDataSource targetPool(ReaderMain.Args args, int size) throws SQLException {
		return ApplyBacklogRun.targetPool(url(args), args.text("user"), args.text("password"), size, "memory-target");
	}

	private static String url(ReaderMain.Args args) {
		return "jdbc:mysql://" + args.text("host") + ":" + args.text("port")
				+ "/?useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
	}

}
