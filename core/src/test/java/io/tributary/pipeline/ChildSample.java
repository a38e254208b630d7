package io.tributary.pipeline;

import java.util.LinkedHashMap;
import java.util.Map;

import io.tributary.status.PipelineStatus;

/**
 * What a {@link PipelineProcess} reports on the {@code gc} command, for a soak run that watches its
 * memory and threads over time: heap used right after a full collection (the live set, free of the
 * garbage a plain reading would include) and live threads, with the lag and leadership of that moment.
 *
 * <pre>
 * &#64;vm heapAfterGc=23456789 threads=31 lagMillis=0 leader=true epoch=4 reconnects=1
 * </pre>
 *
 * @param heapAfterGc heap bytes used after {@code System.gc()}
 * @param threads live threads of the JVM
 * @param lagMillis the pipeline's lag behind the source head
 * @param leader whether the pipeline leads (without HA: whether it runs)
 * @param epoch its fencing epoch, 0 without HA
 * @param reconnects reconnections of its binlog reader, as its status counts them
 */
record ChildSample(long heapAfterGc, int threads, long lagMillis, boolean leader, long epoch, long reconnects) {

	/** What the line starts with. */
	static final String PREFIX = "@vm ";

	/** The line for the heap and threads just measured and the pipeline's status. */
	static String format(long heapAfterGc, int threads, PipelineStatus status) {
		PipelineStatus.Leadership leadership = status.leadership();
		boolean leader = (leadership != null) ? leadership.leader() : status.state() == PipelineStatus.State.RUNNING;
		return PREFIX + "heapAfterGc=" + heapAfterGc + " threads=" + threads + " lagMillis=" + status.lagMillis()
				+ " leader=" + leader + " epoch=" + ((leadership != null) ? leadership.epoch() : 0) + " reconnects="
				+ ((status.source() != null) ? status.source().reconnects() : 0);
	}

	/** Reads a line {@link #format} wrote. */
	static ChildSample parse(String line) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String token : line.substring(PREFIX.length()).trim().split(" ")) {
			int equals = token.indexOf('=');
			fields.put(token.substring(0, equals), token.substring(equals + 1));
		}
		return new ChildSample(Long.parseLong(fields.get("heapAfterGc")), Integer.parseInt(fields.get("threads")),
				Long.parseLong(fields.get("lagMillis")), Boolean.parseBoolean(fields.get("leader")),
				Long.parseLong(fields.get("epoch")), Long.parseLong(fields.get("reconnects")));
	}

}
