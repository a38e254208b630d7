package io.tributary.autoconfigure.health;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.contributor.Status;

import io.tributary.status.PipelineStatus;
import io.tributary.status.TableStatus;

/**
 * Judges one pipeline's health from its status: a status for each table and one for the pipeline,
 * with the details that explain it. Pure: the same status and time give the same verdict.
 */
final class PipelineHealthRules {

	/** {@code password=...} in a JDBC URL or option list, and {@code user:password@} in a URL. */
	private static final Pattern PASSWORD_OPTION = Pattern.compile("(?i)(password=)[^&;,\\s)]+");

	private static final Pattern URL_CREDENTIALS = Pattern.compile("(//[^/:@\\s]+:)[^@/\\s]+@");

	private final Duration maxLag;

	private final Status snapshottingStatus;

	private final Duration sourceDownAfter;

	/**
	 * Creates the rules.
	 * @param maxLag most lag a streaming table may have and be UP
	 * @param snapshottingStatus status of a table that is not streaming yet, and of a pipeline that
	 * is still starting
	 * @param sourceDownAfter how long the source may be out of reach before the pipeline is DOWN
	 */
	PipelineHealthRules(Duration maxLag, Status snapshottingStatus, Duration sourceDownAfter) {
		this.maxLag = maxLag;
		this.snapshottingStatus = snapshottingStatus;
		this.sourceDownAfter = sourceDownAfter;
	}

	/**
	 * Reads a configured status code: case-insensitive, dashes for underscores
	 * ({@code out-of-service}), UP when blank.
	 */
	static Status status(String code) {
		if (code == null || code.isBlank()) {
			return Status.UP;
		}
		return new Status(code.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
	}

	/**
	 * Judges a pipeline.
	 * @param pipeline the pipeline's status
	 * @param now the time to measure how long the source has been out of reach against
	 * @param aggregator how the statuses of the tables and the pipeline combine
	 * @return the pipeline's status and its details
	 */
	Verdict judge(PipelineStatus pipeline, Instant now, StatusAggregator aggregator) {
		Map<String, Object> details = new LinkedHashMap<>();
		Set<Status> statuses = new LinkedHashSet<>();
		String reason = null;
		PipelineStatus.Source source = pipeline.source();
		Duration outOfReach = (source.disconnectedSince() != null)
				? Duration.between(source.disconnectedSince(), now) : null;
		boolean sourceDown = outOfReach != null && outOfReach.compareTo(this.sourceDownAfter) > 0;
		switch (pipeline.state()) {
			case FAILED -> {
				statuses.add(Status.DOWN);
				reason = "The pipeline failed; restart the application once the cause is fixed";
			}
			case STOPPING, STOPPED -> {
				// Only an application shutting down stops a pipeline; nothing is broken.
				statuses.add(Status.OUT_OF_SERVICE);
				reason = "The pipeline is " + pipeline.state().name().toLowerCase(Locale.ROOT);
			}
			case STARTING -> {
				if (sourceDown) {
					statuses.add(Status.DOWN);
					reason = "The pipeline has failed to start for " + format(outOfReach) + ", longer than "
							+ "cdc.health.source-down-after (" + format(this.sourceDownAfter) + "); see lastError";
				}
				else {
					statuses.add(this.snapshottingStatus);
					reason = (outOfReach != null) ? "Starting; retrying for " + format(outOfReach) + ", see lastError"
							: "Starting";
				}
			}
			case STANDBY -> {
				// Another instance replicates; this one is ready to take over, which is healthy.
				PipelineStatus.Leadership leadership = pipeline.leadership();
				String leader = (leadership != null) ? leadership.leaderInstance() : null;
				reason = "Standby" + ((leader != null) ? "; " + leader + " leads" : "")
						+ ((pipeline.lastError() != null) ? "; see lastError" : "");
			}
			case RUNNING -> {
				if (sourceDown) {
					statuses.add(Status.DOWN);
					reason = "The source has been out of reach for " + format(outOfReach) + ", longer than "
							+ "cdc.health.source-down-after (" + format(this.sourceDownAfter) + ")";
				}
				else if (outOfReach != null) {
					reason = "Reconnecting to the source for " + format(outOfReach);
				}
			}
		}
		// A starting pipeline has set some tables up already (snapshotting, or failed): they count.
		boolean judgeTables = pipeline.state() == PipelineStatus.State.RUNNING
				|| pipeline.state() == PipelineStatus.State.STARTING;
		Map<String, Object> tables = new LinkedHashMap<>();
		for (TableStatus table : pipeline.tables()) {
			Map<String, Object> tableDetails = judgeTables ? judge(table, pipeline.lagMillis(), statuses)
					: describe(table, null, null);
			tables.put(table.name(), tableDetails);
		}
		Status status = statuses.isEmpty() ? Status.UP : aggregator.getAggregateStatus(statuses);
		details.put("status", status.getCode());
		putIfPresent(details, "reason", reason);
		details.put("state", pipeline.state().name());
		if (pipeline.leadership() != null) {
			details.put("role", pipeline.leadership().leader() ? "leader" : "standby");
			details.put("epoch", pipeline.leadership().epoch());
			putIfPresent(details, "leader", pipeline.leadership().leaderInstance());
		}
		details.put("source", source.host() + ":" + source.port());
		details.put("connected", source.connected());
		putIfPresent(details, "disconnectedSince", source.disconnectedSince());
		details.put("lagMillis", pipeline.lagMillis());
		putIfPresent(details, "lastError", redact(pipeline.lastError()));
		putIfPresent(details, "sourceError", redact(source.lastError()));
		details.put("tables", tables);
		return new Verdict(status, details);
	}

	private Map<String, Object> judge(TableStatus table, long lagMillis, Set<Status> statuses) {
		Status status;
		String reason = null;
		switch (table.phase()) {
			case FAILED -> {
				status = Status.DOWN;
				reason = "Failed; fix the cause (see lastError), then restart the table";
			}
			case PAUSED -> {
				// A pause is an operator's choice and the other tables go on: it shows, it does not fail.
				status = Status.UP;
				reason = "Paused; resume it to apply its changes again";
			}
			case DROPPED -> {
				// The source table is gone: nothing is lost, nothing more comes.
				status = Status.UP;
				reason = "Dropped on the source; its target is kept (see lastAction)";
			}
			case COPIED -> {
				// A one-shot copy that finished: its target equals the source at its confirmed position.
				status = Status.UP;
				reason = "Copied once (snapshot only) and stopped, as configured";
			}
			case STARTING, SNAPSHOTTING, CATCHING_UP -> status = this.snapshottingStatus;
			case STREAMING -> {
				if (table.lastError() != null && table.lastFlush() != null && !"ok".equals(table.lastFlush().outcome())) {
					// Retried, and it may heal; but nothing reaches the target meanwhile. An action that
					// sets the table up again clears its error, and so ends this before the next flush.
					status = Status.OUT_OF_SERVICE;
					reason = "Its last flush failed and is retried; see lastError";
				}
				else if (lagMillis > this.maxLag.toMillis()) {
					// Behind but working: it heals once the backlog is applied, so not DOWN.
					status = Status.OUT_OF_SERVICE;
					reason = "Lag of " + format(Duration.ofMillis(lagMillis)) + " is over cdc.health.max-lag ("
							+ format(this.maxLag) + ")";
				}
				else {
					status = Status.UP;
				}
			}
			default -> throw new IllegalStateException("Unknown phase " + table.phase());
		}
		statuses.add(status);
		return describe(table, status, reason);
	}

	private static Map<String, Object> describe(TableStatus table, Status status, String reason) {
		Map<String, Object> details = new LinkedHashMap<>();
		if (status != null) {
			details.put("status", status.getCode());
		}
		putIfPresent(details, "reason", reason);
		details.put("phase", table.phase().name());
		if (table.phase() == TableStatus.Phase.SNAPSHOTTING) {
			details.put("rowsCopied", table.rowsCopied());
			details.put("rowsEstimated", table.rowsEstimated());
		}
		putIfPresent(details, "lastError", redact(table.lastError()));
		if (table.phase() == TableStatus.Phase.PAUSED && table.lastAction() != null) {
			details.put("pausedAt", table.lastAction().at().toString());
		}
		return details;
	}

	private static void putIfPresent(Map<String, Object> details, String key, Object value) {
		if (value != null) {
			details.put(key, (value instanceof Instant instant) ? instant.toString() : value);
		}
	}

	/**
	 * Masks what could be a password in an error text: errors carry the servers' own messages,
	 * which may quote a JDBC URL.
	 */
	static String redact(String text) {
		if (text == null) {
			return null;
		}
		String masked = PASSWORD_OPTION.matcher(text).replaceAll("$1******");
		return URL_CREDENTIALS.matcher(masked).replaceAll("$1******@");
	}

	/** Formats a duration the way the properties are written: {@code 850ms}, {@code 45s}, {@code 2m5s}. */
	static String format(Duration duration) {
		long millis = Math.max(0, duration.toMillis());
		if (millis < 1_000) {
			return millis + "ms";
		}
		long seconds = millis / 1_000;
		StringBuilder text = new StringBuilder();
		if (seconds >= 3_600) {
			text.append(seconds / 3_600).append('h');
		}
		if (seconds >= 60 && seconds % 3_600 / 60 > 0) {
			text.append(seconds % 3_600 / 60).append('m');
		}
		if (seconds % 60 > 0 || text.isEmpty()) {
			text.append(seconds % 60).append('s');
		}
		return text.toString();
	}

	/**
	 * A pipeline's health.
	 *
	 * @param status the pipeline's status: its tables' and its own, combined
	 * @param details what explains it, per table under {@code tables}
	 */
	record Verdict(Status status, Map<String, Object> details) {

	}

}
