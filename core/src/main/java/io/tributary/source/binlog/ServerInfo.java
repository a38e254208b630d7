package io.tributary.source.binlog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.tributary.name.TableId;

/**
 * What {@link Preflight} found on a source server: which server it is and everything that stands
 * in the way of replicating from it.
 *
 * <p>Server-wide {@link #problems() problems} stop replication altogether; a
 * {@link #tableProblems() table problem} refuses that table only, while the others run.
 *
 * @param flavor MySQL or MariaDB
 * @param version the server's {@code VERSION()}, for example {@code 8.0.31} or
 * {@code 10.11.5-MariaDB-log}
 * @param gtidMode on MySQL the value of {@code @@gtid_mode} ({@code OFF}, {@code OFF_PERMISSIVE},
 * {@code ON_PERMISSIVE} or {@code ON}); on MariaDB always {@value #MARIADB_GTID}, since MariaDB
 * writes a GTID for every transaction regardless of its settings
 * @param serverId the source's own {@code @@server_id}
 * @param serverUuid the source's {@code @@server_uuid} on MySQL, {@code null} on MariaDB, which has
 * none
 * @param problems server-wide problems, each a message that names the fix; empty when replication
 * may start
 * @param tableProblems tables that must be refused, each with a message that names the fix, in the
 * order the tables were given
 */
public record ServerInfo(Flavor flavor, String version, String gtidMode, long serverId, String serverUuid,
		List<String> problems, Map<TableId, String> tableProblems) {

	/** The {@link #gtidMode()} of every MariaDB server. */
	public static final String MARIADB_GTID = "MariaDB GTID";

	public ServerInfo {
		Objects.requireNonNull(flavor, "flavor");
		Objects.requireNonNull(version, "version");
		Objects.requireNonNull(gtidMode, "gtidMode");
		problems = List.copyOf(problems);
		tableProblems = Collections.unmodifiableMap(new LinkedHashMap<>(tableProblems));
	}

	/** Returns whether no server-wide problem stands in the way of replication. */
	public boolean isUsable() {
		return this.problems.isEmpty();
	}

	/** Returns whether the table may be replicated: it has no entry in {@link #tableProblems()}. */
	public boolean accepts(TableId table) {
		return !this.tableProblems.containsKey(table);
	}

	/**
	 * Returns this when the server is {@link #isUsable() usable}.
	 * @return this
	 * @throws PreflightException listing every server-wide problem otherwise
	 */
	public ServerInfo requireUsable() {
		if (!isUsable()) {
			throw new PreflightException(this.problems);
		}
		return this;
	}

	/**
	 * The kind of source server.
	 */
	public enum Flavor {

		/** Oracle MySQL or a compatible build such as Percona Server. */
		MYSQL,

		/** MariaDB. */
		MARIADB;

		/**
		 * Tells MariaDB from MySQL by what the server says of itself: MariaDB names itself in its
		 * version ({@code 10.11.5-MariaDB-log}) or its version comment; anything else is taken for
		 * MySQL.
		 * @param version {@code VERSION()}, or the driver's {@code getDatabaseProductVersion()}
		 * @param versionComment {@code @@version_comment}, or empty when not known
		 */
		public static Flavor of(String version, String versionComment) {
			String text = (version + " " + versionComment).toLowerCase(Locale.ROOT);
			return text.contains("mariadb") ? MARIADB : MYSQL;
		}

	}

}
