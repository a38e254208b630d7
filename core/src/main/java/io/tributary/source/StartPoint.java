package io.tributary.source;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * Where a table that is not copied starts streaming when it has no checkpoint to resume from: the
 * source's head, a GTID set, a binlog file and offset, or the first transaction at or after an
 * instant. The text forms are {@code now}, {@code gtid:<set>}, {@code <file>:<offset>} and
 * {@code timestamp:<instant with zone>}; {@link #toString()} writes them back.
 */
public sealed interface StartPoint {

	/** The source's head when the table starts: only changes made from then on. */
	record Now() implements StartPoint {

		@Override
		public String toString() {
			return "now";
		}

	}

	/**
	 * Just after the transactions of a GTID set: a MySQL GTID set or a MariaDB GTID list.
	 * @param gtids the set
	 */
	record Gtids(String gtids) implements StartPoint {

		public Gtids {
			if (gtids == null || gtids.isBlank()) {
				throw new IllegalArgumentException("A gtid: start needs a GTID set after the colon");
			}
			gtids = gtids.strip();
		}

		@Override
		public String toString() {
			return "gtid:" + this.gtids;
		}

	}

	/**
	 * A binlog file and offset, which must be the start of a transaction (or the file's end).
	 * @param file the binlog file
	 * @param offset the offset in it
	 */
	record FileOffset(String file, long offset) implements StartPoint {

		public FileOffset {
			Objects.requireNonNull(file, "file");
			if (offset < 4) {
				throw new IllegalArgumentException("A binlog offset starts at 4, not " + offset);
			}
		}

		@Override
		public String toString() {
			return this.file + ":" + this.offset;
		}

	}

	/**
	 * The first transaction whose first event the source logged at or after an instant; the
	 * binlog counts whole seconds, so the instant's whole second is included.
	 * @param instant the instant
	 */
	record Time(Instant instant) implements StartPoint {

		public Time {
			Objects.requireNonNull(instant, "instant");
		}

		@Override
		public String toString() {
			return "timestamp:" + this.instant;
		}

	}

	/**
	 * Reads a start point's text form.
	 * @param text {@code now}, {@code gtid:<set>}, {@code <file>:<offset>} or
	 * {@code timestamp:<instant>}, the instant with its zone ({@code 2026-12-08T09:30:00Z},
	 * {@code 2026-12-08T10:30:00+01:00})
	 * @return the start point
	 * @throws IllegalArgumentException naming what is wrong, when the text is none of them
	 */
	static StartPoint parse(String text) {
		String value = (text != null) ? text.strip() : "";
		if (value.equalsIgnoreCase("now")) {
			return new Now();
		}
		if (value.regionMatches(true, 0, "gtid:", 0, 5)) {
			return new Gtids(value.substring(5));
		}
		if (value.regionMatches(true, 0, "timestamp:", 0, 10)) {
			String instant = value.substring(10).strip();
			try {
				return new Time(OffsetDateTime.parse(instant).toInstant());
			}
			catch (DateTimeParseException ex) {
				throw new IllegalArgumentException("'" + instant + "' is not an instant with its zone, like "
						+ "2026-12-08T09:30:00Z or 2026-12-08T10:30:00+01:00", ex);
			}
		}
		int colon = value.lastIndexOf(':');
		if (colon > 0) {
			try {
				return new FileOffset(value.substring(0, colon), Long.parseLong(value.substring(colon + 1)));
			}
			catch (NumberFormatException ex) {
				// Not a file and offset; said below.
			}
		}
		throw new IllegalArgumentException("'" + text + "' is not a start point: use now, gtid:<set>, "
				+ "<binlog file>:<offset> or timestamp:<instant with zone>");
	}

}
