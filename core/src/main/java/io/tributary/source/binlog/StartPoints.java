package io.tributary.source.binlog;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import javax.sql.DataSource;

import com.github.shyiko.mysql.binlog.GtidSet;
import com.github.shyiko.mysql.binlog.MariadbGtidSet;

import io.tributary.settings.SettingNames;
import io.tributary.source.Position;
import io.tributary.source.SourceSettings;
import io.tributary.source.StartPoint;

/**
 * Turns a {@link StartPoint} into the position a table starts streaming at, reading the source's
 * binlog files where it must ({@link BinlogWalk}); refuses, saying why, a start point the source
 * cannot serve.
 */
public final class StartPoints {

	private final DataSource source;

	private final BinlogWalk walk;

	private final long serverId;

	/**
	 * Creates a resolver for one source.
	 * @param source the source pool
	 * @param settings the source's settings, for the binlog connections
	 * @param names how messages name settings
	 * @param serverId the source's own {@code server_id}, which the positions carry
	 */
	public StartPoints(DataSource source, SourceSettings settings, SettingNames names, long serverId) {
		this.source = source;
		this.walk = new BinlogWalk(settings, names);
		this.serverId = serverId;
	}

	/**
	 * Returns the position a start point stands for.
	 * @param point the start point
	 * @param files the source's binlog files and sizes, oldest first
	 * @return the position, or {@code null} for the head
	 * @throws IllegalArgumentException when the source has no such place, saying why
	 * @throws IOException when the source's binlog cannot be read
	 * @throws SQLException when the source cannot be queried
	 */
	public Position resolve(StartPoint point, LinkedHashMap<String, Long> files) throws IOException, SQLException {
		if (files.isEmpty()) {
			throw new IllegalArgumentException("the source has no binlog files");
		}
		if (point instanceof StartPoint.FileOffset at) {
			return fileOffset(at, files);
		}
		if (point instanceof StartPoint.Gtids gtids) {
			return gtids(gtids.gtids(), new ArrayList<>(files.keySet()));
		}
		if (point instanceof StartPoint.Time time) {
			return time(time.instant(), new ArrayList<>(files.keySet()));
		}
		return null;
	}

	private Position fileOffset(StartPoint.FileOffset at, Map<String, Long> files) throws IOException {
		if (!files.containsKey(at.file())) {
			throw new IllegalArgumentException("the source has no binlog file " + at.file() + " (it has "
					+ String.join(", ", files.keySet()) + ")");
		}
		BinlogWalk.Walked walked = this.walk.walk(at.file(), (t) -> t.offset() >= at.offset());
		long found = (walked.stoppedAt() != null) ? walked.stoppedAt().offset() : walked.endOffset();
		if (found != at.offset()) {
			throw new IllegalArgumentException("no transaction starts at offset " + at.offset() + " of " + at.file()
					+ "; the next one starts at " + found);
		}
		return walked.position(this.serverId);
	}

	private Position gtids(String set, List<String> files) throws IOException, SQLException {
		Predicate<String> within = within(set);
		// The newest file that starts inside the set: the set's end is in it, or later.
		for (int i = files.size() - 1; i >= 0; i--) {
			BinlogWalk.Walked header = this.walk.walk(files.get(i), (t) -> true);
			if (!within.test(header.gtids())) {
				continue;
			}
			BinlogWalk.Walked walked = this.walk.walk(files.get(i), (t) -> !within.test(t.gtid()));
			if (walked.stoppedAt() == null && i + 1 < files.size()) {
				return Position.of(files.get(i + 1), 4, set, this.serverId);
			}
			// The reader resumes by the set given, from where its first transaction not in it starts.
			return Position.of(files.get(i), walked.position(this.serverId).offset(), set, this.serverId);
		}
		throw new IllegalArgumentException("the source's oldest binlog file " + files.get(0) + " starts after "
				+ "transactions the set " + set + " does not hold: they were purged, or the set is not of this source");
	}

	/**
	 * Returns whether every transaction of a GTID set, or of one GTID, is in {@code set}; parsed
	 * once, since a walk asks it of every transaction. No GTIDs at all are within any set.
	 */
	private static Predicate<String> within(String set) {
		Predicate<String> test;
		if (!MariadbGtidSet.isMariaGtidSet(set)) {
			GtidSet wanted = new GtidSet(set);
			test = (gtids) -> new GtidSet(gtids).isContainedWithin(wanted);
		}
		else {
			// A MariaDB list holds each domain's last transaction: a GTID is in it up to that sequence.
			Map<Long, Long> last = new HashMap<>();
			for (String gtid : set.split(",")) {
				MariadbGtidSet.MariaGtid parsed = MariadbGtidSet.MariaGtid.parse(gtid.strip());
				last.merge(parsed.getDomainId(), parsed.getSequence(), Math::max);
			}
			test = (gtids) -> Arrays.stream(gtids.split(",")).map((gtid) -> MariadbGtidSet.MariaGtid.parse(gtid.strip()))
				.allMatch((gtid) -> last.getOrDefault(gtid.getDomainId(), -1L) >= gtid.getSequence());
		}
		return (gtids) -> gtids == null || gtids.isEmpty() || test.test(gtids);
	}

	private Position time(Instant instant, List<String> files) throws IOException, SQLException {
		long second = instant.getEpochSecond();
		// Files start later and later: find the last one that starts at or before the instant.
		int low = 0;
		int high = files.size() - 1;
		long oldestStart = this.walk.walk(files.get(0), (t) -> true).startSeconds();
		if (oldestStart > second) {
			throw new IllegalArgumentException("the source's oldest binlog file " + files.get(0) + " starts at "
					+ Instant.ofEpochSecond(oldestStart) + ", after " + instant + ": changes made before were purged "
					+ "or never logged");
		}
		while (low < high) {
			int middle = (low + high + 1) >>> 1;
			if (this.walk.walk(files.get(middle), (t) -> true).startSeconds() <= second) {
				low = middle;
			}
			else {
				high = middle - 1;
			}
		}
		BinlogWalk.Walked walked = this.walk.walk(files.get(low), (t) -> t.seconds() >= second);
		if (walked.stoppedAt() != null || low + 1 >= files.size()) {
			return walked.position(this.serverId);
		}
		// Nothing in that file at or after the instant: the next file's start.
		BinlogWalk.Walked next = this.walk.walk(files.get(low + 1), (t) -> true);
		return (next.stoppedAt() != null) ? next.position(this.serverId) : SourceQueries.head(this.source);
	}

}
