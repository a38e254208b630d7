package io.tributary.admin;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.tributary.status.TableStatus;

/**
 * How the admin pages write numbers, sizes, rates and times: thousands separators, units, and
 * durations a person reads at a glance. Unknown values read as an en dash.
 */
public final class DisplayFormat {

	/** Written where a value is unknown. */
	public static final String UNKNOWN = "\u2013";

	private static final String[] BYTE_UNITS = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	private final Clock clock;

	DisplayFormat(Clock clock) {
		this.clock = clock;
	}

	/** A count with thousands separators: {@code 12,345}. */
	public String count(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

	/** A count, or the unknown mark. */
	public String count(Long value) {
		return (value != null) ? count(value.longValue()) : UNKNOWN;
	}

	/** A rate per second: one decimal under 10, whole numbers with separators above. */
	public String rate(Double perSecond) {
		if (perSecond == null || perSecond.isNaN()) {
			return UNKNOWN;
		}
		if (perSecond < 10) {
			return String.format(Locale.ROOT, "%.1f/s", perSecond);
		}
		return String.format(Locale.ROOT, "%,d/s", Math.round(perSecond));
	}

	/** A size in binary units: {@code 512 B}, {@code 1.5 KiB}, {@code 64.0 MiB}. */
	public String bytes(long value) {
		if (value < 1024) {
			return count(value) + " B";
		}
		double scaled = value;
		int unit = 0;
		while (scaled >= 1024 && unit < BYTE_UNITS.length - 1) {
			scaled /= 1024;
			unit++;
		}
		return String.format(Locale.ROOT, "%,.1f %s", scaled, BYTE_UNITS[unit]);
	}

	/** A size, or the unknown mark. */
	public String bytes(Long value) {
		return (value != null) ? bytes(value.longValue()) : UNKNOWN;
	}

	/** A duration in its two largest units: {@code 850 ms}, {@code 45 s}, {@code 2 m 5 s}, {@code 1 h 3 m}. */
	public String duration(long millis) {
		if (millis < 1_000) {
			return millis + " ms";
		}
		Duration duration = Duration.ofMillis(millis);
		long days = duration.toDays();
		int hours = duration.toHoursPart();
		int minutes = duration.toMinutesPart();
		int seconds = duration.toSecondsPart();
		if (days > 0) {
			return days + " d " + hours + " h";
		}
		if (hours > 0) {
			return hours + " h " + minutes + " m";
		}
		if (minutes > 0) {
			return minutes + " m " + seconds + " s";
		}
		if (millis < 10_000) {
			return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
		}
		return seconds + " s";
	}

	/** Nanoseconds as a duration: {@code 1.2 s}. */
	public String nanos(long nanos) {
		return duration(nanos / 1_000_000);
	}

	/** Seconds as a duration, or the unknown mark. */
	public String seconds(Long seconds) {
		return (seconds != null) ? duration(seconds * 1_000) : UNKNOWN;
	}

	/** How long ago something happened: {@code 12 s ago}. */
	public String ago(Instant at) {
		if (at == null) {
			return UNKNOWN;
		}
		long millis = Math.max(0, this.clock.millis() - at.toEpochMilli());
		return duration(millis) + " ago";
	}

	/** An instant in UTC to the second. */
	public String time(Instant at) {
		return (at != null) ? TIME.format(at) : UNKNOWN;
	}

	/** An instant as an HTML {@code datetime} attribute: ISO-8601 in UTC. */
	public String iso(Instant at) {
		return (at != null) ? at.toString() : null;
	}

	/** A name written in capitals with underscores, as words: {@code FLUSH_FAILED} reads {@code FLUSH FAILED}. */
	public String words(Enum<?> value) {
		return (value != null) ? value.name().replace('_', ' ') : UNKNOWN;
	}

	/**
	 * A checksum in a few words for the overview: its state, the chunks compared, and what differed
	 * once in-flight changes had landed; a dash before the first pass.
	 */
	public String checksum(TableStatus.Checksum sum) {
		if (sum == null || sum.state() == TableStatus.Checksum.State.IDLE) {
			return UNKNOWN;
		}
		String compared = sum.state() + ": " + count(sum.chunksChecked()) + " chunks";
		long differing = sum.chunksRecheckedStillDiffering();
		if (sum.state() == TableStatus.Checksum.State.RUNNING) {
			return compared + " so far";
		}
		if (sum.state() == TableStatus.Checksum.State.FAILED) {
			return "FAILED after " + count(sum.chunksChecked()) + " chunks";
		}
		return compared + ((differing == 0) ? ", equal"
				: ", " + count(differing) + " differed, " + count(sum.chunksRepaired()) + " repaired");
	}

	/** A count with its noun, singular for one: {@code 1 key}, {@code 1,200 keys}. */
	public String plural(long value, String noun) {
		return count(value) + " " + noun + ((value == 1) ? "" : "s");
	}

	/** Yes or no. */
	public String yesNo(boolean value) {
		return value ? "yes" : "no";
	}

	/** The share of a whole, 0 to 100, for a bar's width; 0 when the whole is not positive. */
	public long percent(long part, long whole) {
		if (whole <= 0) {
			return 0;
		}
		return Math.max(0, Math.min(100, Math.round(part * 100.0 / whole)));
	}

	/**
	 * Groups a pipeline's tables for the overview: those listed on their own first, then those of
	 * each rule, the rules in the order their first table comes, each group in status order.
	 * @param tables the tables, in status order
	 * @return the groups; one without a rule for the tables listed on their own, when there are any
	 */
	public List<RuleGroup> byRule(List<TableStatus> tables) {
		Map<String, List<TableStatus>> groups = new LinkedHashMap<>();
		groups.put(null, new ArrayList<>());
		for (TableStatus table : tables) {
			groups.computeIfAbsent(table.rule(), (rule) -> new ArrayList<>()).add(table);
		}
		List<RuleGroup> grouped = new ArrayList<>();
		int first = 0;
		for (Map.Entry<String, List<TableStatus>> group : groups.entrySet()) {
			if (group.getValue().isEmpty()) {
				continue;
			}
			grouped.add(new RuleGroup(group.getKey(), group.getValue(), first, summary(group.getValue())));
			first += group.getValue().size();
		}
		return grouped;
	}

	/** Counts tables by phase: {@code 16 tables: 15 streaming, 1 failed}. */
	private String summary(List<TableStatus> tables) {
		Map<TableStatus.Phase, Long> byPhase = new TreeMap<>();
		tables.forEach((table) -> byPhase.merge(table.phase(), 1L, Long::sum));
		List<String> parts = new ArrayList<>();
		byPhase.forEach((phase, count) -> parts.add(count(count) + " " + words(phase).toLowerCase(Locale.ROOT)));
		return plural(tables.size(), "table") + ": " + String.join(", ", parts);
	}

	/**
	 * The tables one rule took, or those listed on their own.
	 *
	 * @param rule the rule's name, or {@code null} for the tables listed on their own
	 * @param tables its tables, in status order
	 * @param first the position of its first table among all the pipeline's, for the rows' ids
	 * @param summary how many tables it has, by phase
	 */
	public record RuleGroup(String rule, List<TableStatus> tables, int first, String summary) {

	}

}
