package io.tributary.pipeline;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * One status line of a {@link PipelineProcess}, as it prints it and a {@link ChildPipeline} reads
 * it back: the pipeline's state, what its target writes were doing at that instant, and each
 * table's phase and progress.
 *
 * <pre>
 * &#64;status state=RUNNING flushing=1 flushWrites=42 repairWrites=0 repairsOpen=0 lagBytes=0 leader=1 epoch=3
 *     table=s.orders,phase=STREAMING,copied=20000,chunks=10,snapshotDone=true,checksum=IDLE,...
 * </pre>
 *
 * @param state the pipeline's state
 * @param flushing whether the catch-up loop was applying a drain: a flush had begun writing and its
 * table was not confirmed yet
 * @param flushWrites write statements the catch-up loop had begun, since start
 * @param repairWrites write transactions a checksum repair had begun, since start
 * @param repairsOpen repair write transactions not committed yet
 * @param lagBytes binlog bytes between the confirmed position and the source head, or -1 when unknown
 * @param leader whether the pipeline leads (with HA; false on a line without it)
 * @param epoch the fencing epoch it leads at, or the one it last saw as a standby (0 without HA)
 * @param tables each table's line, by source table ({@code schema.table})
 */
record ChildStatus(PipelineStatus.State state, boolean flushing, long flushWrites, long repairWrites,
		int repairsOpen, long lagBytes, boolean leader, long epoch, Map<String, Table> tables) {

	/** A line of a pipeline without HA, which never leads. */
	ChildStatus(PipelineStatus.State state, boolean flushing, long flushWrites, long repairWrites, int repairsOpen,
			long lagBytes, Map<String, Table> tables) {
		this(state, flushing, flushWrites, repairWrites, repairsOpen, lagBytes, false, 0, tables);
	}

	/** What a status line starts with; the child's other output (its log) never does. */
	static final String PREFIX = "@status ";

	/**
	 * One table's part of the line.
	 *
	 * @param phase its phase
	 * @param rowsCopied rows its snapshot copied
	 * @param chunksCopied chunks its snapshot copied
	 * @param snapshotDone whether its snapshot is done
	 * @param checksum the state of its latest checksum pass
	 * @param chunksDiffering chunks that pass found differing
	 * @param chunksRepaired chunks that pass repaired
	 * @param changesApplied changes applied since start
	 * @param flushesOk flushes that succeeded since start
	 * @param rowEvents inserted, updated and deleted rows read from the binlog since start
	 */
	record Table(TableStatus.Phase phase, long rowsCopied, long chunksCopied, boolean snapshotDone,
			TableStatus.Checksum.State checksum, long chunksDiffering, long chunksRepaired, long changesApplied,
			long flushesOk, long rowEvents) {

	}

	/** The line for a pipeline's status and the write counters of its target. */
	static String format(PipelineStatus status, boolean flushing, long flushWrites, long repairWrites,
			int repairsOpen) {
		StringBuilder line = new StringBuilder(PREFIX).append("state=").append(status.state())
			.append(" flushing=").append(flushing ? 1 : 0)
			.append(" flushWrites=").append(flushWrites)
			.append(" repairWrites=").append(repairWrites)
			.append(" repairsOpen=").append(repairsOpen)
			.append(" lagBytes=").append((status.lagBytes() != null) ? status.lagBytes() : -1);
		PipelineStatus.Leadership leadership = status.leadership();
		if (leadership != null) {
			// Only a pipeline with HA has leadership to report; lines without it read as not leading.
			line.append(" leader=").append(leadership.leader() ? 1 : 0).append(" epoch=").append(leadership.epoch());
		}
		for (TableStatus table : status.tables()) {
			TableStatus.Events events = table.events();
			StringJoiner fields = new StringJoiner(",", " table=", "");
			fields.add(table.name())
				.add("phase=" + table.phase())
				.add("copied=" + table.rowsCopied())
				.add("chunks=" + table.chunksCopied())
				.add("snapshotDone=" + table.snapshotDone())
				.add("checksum=" + table.checksum().state())
				.add("differing=" + table.checksum().chunksDiffering())
				.add("repaired=" + table.checksum().chunksRepaired())
				.add("applied=" + table.changesApplied())
				.add("flushesOk=" + table.flushes().ok())
				.add("events=" + (events.inserts() + events.updates() + events.deletes()));
			line.append(fields);
		}
		return line.toString();
	}

	/** Reads a line {@link #format} wrote. */
	static ChildStatus parse(String line) {
		if (!line.startsWith(PREFIX)) {
			throw new IllegalArgumentException("Not a status line: " + line);
		}
		Map<String, String> fields = new LinkedHashMap<>();
		Map<String, Table> tables = new LinkedHashMap<>();
		for (String token : line.substring(PREFIX.length()).trim().split(" ")) {
			int equals = token.indexOf('=');
			String key = token.substring(0, equals);
			String value = token.substring(equals + 1);
			if (key.equals("table")) {
				String[] parts = value.split(",");
				Map<String, String> t = new LinkedHashMap<>();
				for (int i = 1; i < parts.length; i++) {
					int eq = parts[i].indexOf('=');
					t.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
				}
				tables.put(parts[0], new Table(TableStatus.Phase.valueOf(t.get("phase")), number(t, "copied"),
						number(t, "chunks"), Boolean.parseBoolean(t.get("snapshotDone")),
						TableStatus.Checksum.State.valueOf(t.get("checksum")), number(t, "differing"),
						number(t, "repaired"), number(t, "applied"), number(t, "flushesOk"), number(t, "events")));
			}
			else {
				fields.put(key, value);
			}
		}
		return new ChildStatus(PipelineStatus.State.valueOf(fields.get("state")), number(fields, "flushing") == 1,
				number(fields, "flushWrites"), number(fields, "repairWrites"), (int) number(fields, "repairsOpen"),
				number(fields, "lagBytes"), "1".equals(fields.get("leader")),
				Long.parseLong(fields.getOrDefault("epoch", "0")), tables);
	}

	private static long number(Map<String, String> fields, String key) {
		return Long.parseLong(fields.get(key));
	}

	/**
	 * The line of the table whose name is {@code table} or ends in {@code .table}.
	 * @throws IllegalArgumentException when the child replicates no such table
	 */
	Table table(String table) {
		for (Map.Entry<String, Table> entry : this.tables.entrySet()) {
			if (entry.getKey().equals(table) || entry.getKey().endsWith("." + table)) {
				return entry.getValue();
			}
		}
		throw new IllegalArgumentException("No table " + table + " in " + this.tables.keySet());
	}

	/** Whether the pipeline leads and runs: with HA, what a standby shows once it has taken over. */
	boolean leading() {
		return this.leader && this.state == PipelineStatus.State.RUNNING;
	}

	/** Whether every table streams. */
	boolean allStreaming() {
		return !this.tables.isEmpty()
				&& this.tables.values().stream().allMatch((t) -> t.phase() == TableStatus.Phase.STREAMING);
	}

}
