package io.tributary.source;

import java.util.Objects;

/**
 * A point in a source server's binary log at which a reader may start: always the boundary
 * between two transactions, never the middle of one.
 *
 * <p>Positions of one server are totally ordered by binlog file sequence number and offset. A
 * position may also carry the set of transactions executed up to it (a MySQL GTID set such as
 * {@code 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-57}, or a MariaDB GTID list such as
 * {@code 0-1-57}), which identifies it across servers: a reader resumes by GTID when it has one.
 * File and offset mean something on one server only, so a position may also name the
 * {@code server_id} of the server whose binary log it points into, which a resume by file and
 * offset checks. Ordering and equality look at file and offset only.
 *
 * <p>The string form {@code file:offset}, followed by {@code #serverId} when the server is known
 * and {@code |gtids} when the GTIDs are, round-trips through {@link #parse(String)}, which is how
 * positions are persisted in the checkpoint table.
 */
public final class Position implements Comparable<Position> {

	private final String file;

	private final long offset;

	private final String gtids;

	private final long serverId;

	// Parsed once: the reader compares positions for every buffered change.
	private final long fileSequence;

	private Position(String file, long offset, String gtids, long serverId) {
		this(file, offset, gtids, serverId, sequenceOf(Objects.requireNonNull(file, "file")));
	}

	private Position(String file, long offset, String gtids, long serverId, long fileSequence) {
		this.file = file;
		if (offset < 0) {
			throw new IllegalArgumentException("Binlog offset must not be negative: " + offset);
		}
		if (serverId < 0) {
			throw new IllegalArgumentException("Server id must not be negative: " + serverId);
		}
		this.offset = offset;
		this.gtids = (gtids == null || gtids.isBlank()) ? null : withoutWhitespace(gtids);
		this.serverId = serverId;
		this.fileSequence = fileSequence;
	}

	private static String withoutWhitespace(String text) {
		for (int i = 0; i < text.length(); i++) {
			if (Character.isWhitespace(text.charAt(i))) {
				return text.replaceAll("\\s", "");
			}
		}
		return text;
	}

	private static long sequenceOf(String file) {
		int dot = file.lastIndexOf('.');
		try {
			return (dot >= 0) ? Long.parseLong(file, dot + 1, file.length(), 10) : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/**
	 * Creates a file+offset position.
	 * @param file binlog file name, for example {@code mysql-bin.000003}
	 * @param offset byte offset inside that file
	 * @return the position
	 */
	public static Position of(String file, long offset) {
		return new Position(file, offset, null, 0);
	}

	/**
	 * Creates a position that also names the transactions executed up to it.
	 * @param file binlog file name
	 * @param offset byte offset inside that file
	 * @param gtids MySQL GTID set or MariaDB GTID list, or {@code null}
	 * @return the position
	 */
	public static Position of(String file, long offset, String gtids) {
		return new Position(file, offset, gtids, 0);
	}

	/**
	 * Creates a position in the binary log of a known server.
	 * @param file binlog file name
	 * @param offset byte offset inside that file
	 * @param gtids MySQL GTID set or MariaDB GTID list, or {@code null}
	 * @param serverId {@code server_id} of the server that wrote the file, or 0 when unknown
	 * @return the position
	 */
	public static Position of(String file, long offset, String gtids, long serverId) {
		return new Position(file, offset, gtids, serverId);
	}

	/**
	 * Returns a position in the same binlog file of the same server at another offset: what
	 * {@link #of(String, long, String, long)} returns for them, without parsing the file name again,
	 * which a reader making one position per transaction would otherwise do each time.
	 * @param offset byte offset inside this position's file
	 * @param gtids MySQL GTID set or MariaDB GTID list, or {@code null}
	 * @return the position
	 */
	public Position at(long offset, String gtids) {
		return new Position(this.file, offset, gtids, this.serverId, this.fileSequence);
	}

	/** Returns this position as one in the binary log of the server with this {@code server_id}. */
	public Position onServer(long id) {
		return (id == this.serverId) ? this : new Position(this.file, this.offset, this.gtids, id);
	}

	/**
	 * Parses the form produced by {@link #toString()}.
	 * @param text {@code file:offset}
	 * @return the position
	 * @throws IllegalArgumentException when the text is not a position
	 */
	public static Position parse(String text) {
		int bar = (text != null) ? text.indexOf('|') : -1;
		String gtids = (bar >= 0) ? text.substring(bar + 1) : null;
		String location = (bar >= 0) ? text.substring(0, bar) : text;
		int colon = (location != null) ? location.lastIndexOf(':') : -1;
		if (colon <= 0 || colon == location.length() - 1) {
			throw new IllegalArgumentException("Not a binlog position (expected file:offset): '" + text + "'");
		}
		String offset = location.substring(colon + 1);
		int hash = offset.indexOf('#');
		try {
			long serverId = (hash >= 0) ? Long.parseLong(offset.substring(hash + 1)) : 0;
			return new Position(location.substring(0, colon),
					Long.parseLong((hash >= 0) ? offset.substring(0, hash) : offset), gtids, serverId);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("Not a binlog position (expected file:offset): '" + text + "'", ex);
		}
	}

	/** Returns the earlier of two positions; {@code null} counts as "no bound". */
	public static Position min(Position a, Position b) {
		if (a == null) {
			return b;
		}
		if (b == null) {
			return a;
		}
		return (a.compareTo(b) <= 0) ? a : b;
	}

	public String file() {
		return this.file;
	}

	public long offset() {
		return this.offset;
	}

	/** Returns the transactions executed up to this position, or {@code null} when unknown. */
	public String gtids() {
		return this.gtids;
	}

	/** Returns the {@code server_id} of the server whose binary log this points into, or 0 when unknown. */
	public long serverId() {
		return this.serverId;
	}

	/**
	 * Returns the numeric suffix of the binlog file name (the server numbers its files in
	 * sequence), or -1 when the name carries none.
	 */
	public long fileSequence() {
		return this.fileSequence;
	}

	@Override
	public int compareTo(Position other) {
		int byFile = Long.compare(this.fileSequence, other.fileSequence);
		if (byFile == 0 && !this.file.equals(other.file)) {
			byFile = this.file.compareTo(other.file);
		}
		return (byFile != 0) ? byFile : Long.compare(this.offset, other.offset);
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof Position other) && this.file.equals(other.file) && this.offset == other.offset;
	}

	@Override
	public int hashCode() {
		return this.file.hashCode() * 31 + Long.hashCode(this.offset);
	}

	@Override
	public String toString() {
		String location = this.file + ":" + this.offset + ((this.serverId != 0) ? "#" + this.serverId : "");
		return (this.gtids != null) ? location + "|" + this.gtids : location;
	}

}
