package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.tributary.name.TableId;
import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;
import io.tributary.source.SourceSettings;
import io.tributary.source.binlog.ServerInfo.Flavor;

/**
 * Checks a source server before anything streams from it: its binary log settings, the replica
 * server id Tributary registers with, the replication privileges of the connecting user, and every
 * table to replicate.
 *
 * <p>All checks run and every problem is reported, not only the first. Each problem is one
 * message naming the setting, the value found and the statement that fixes it. Settings are read
 * with {@code SHOW GLOBAL VARIABLES}: a session that overrides one of them is not noticed.
 *
 * <p>Privileges are read with {@code SHOW GRANTS} for the account the connection authenticated as
 * ({@code CURRENT_USER()}), including the privileges of its active roles; only global grants
 * ({@code ON *.*}) count for replication.
 */
public final class Preflight {

	/** The global variables the checks read. */
	static final List<String> VARIABLES = List.of("log_bin", "binlog_format", "binlog_row_image",
			"binlog_row_value_options", "binlog_transaction_compression", "log_bin_compress", "server_id",
			"server_uuid", "gtid_mode");

	private Preflight() {
	}

	/**
	 * Checks the source server and the tables to replicate.
	 * @param source connections to the source, as the user Tributary replicates with
	 * @param settings how Tributary reaches the source as a replica; its host and port name the
	 * server in messages, its server id is compared with the source's
	 * @param tables the tables to replicate
	 * @return what was found, with every problem
	 * @throws SQLException when the source cannot be queried
	 */
	public static ServerInfo check(DataSource source, SourceSettings settings, List<TableId> tables)
			throws SQLException {
		return check(source, settings, tables, Set.of());
	}

	/**
	 * As {@link #check(DataSource, SourceSettings, List)}, for tables some of which are keyed by a
	 * configured unique key instead of their primary key; for those the primary key is not
	 * required (the layout reader validates the configured key).
	 * @param keyConfigured tables with a configured key
	 */
	public static ServerInfo check(DataSource source, SourceSettings settings, List<TableId> tables,
			Set<TableId> keyConfigured) throws SQLException {
		return check(source, settings, tables, keyConfigured, SettingNames.ENGINE);
	}

	/**
	 * As {@link #check(DataSource, SourceSettings, List, Set)}, with messages that name settings as
	 * {@code names} does.
	 * @param names how the messages name the settings they point to
	 */
	public static ServerInfo check(DataSource source, SourceSettings settings, List<TableId> tables,
			Set<TableId> keyConfigured, SettingNames names) throws SQLException {
		String where = address(settings.host(), settings.port());
		try (Connection connection = source.getConnection()) {
			String version;
			String versionComment;
			String account;
			try (Statement statement = connection.createStatement();
					ResultSet rs = statement.executeQuery("SELECT VERSION(), @@version_comment, CURRENT_USER()")) {
				rs.next();
				version = rs.getString(1);
				versionComment = rs.getString(2);
				account = account(rs.getString(3));
			}
			Flavor flavor = flavor(version, versionComment);
			Map<String, String> variables = variables(connection);
			long serverId = Long.parseLong(variables.getOrDefault("server_id", "0").trim());
			List<String> problems = new ArrayList<>(BinlogSettingsCheck.problems(variables, where));
			String serverIdProblem = serverIdProblem(settings.serverId(), serverId, where, names);
			if (serverIdProblem != null) {
				problems.add(serverIdProblem);
			}
			problems.addAll(PrivilegeCheck.problems(connection, account, flavor, version, where));
			Map<TableId, String> tableProblems = new LinkedHashMap<>();
			for (TableId table : tables) {
				String problem = TableCheck.problem(connection, table, account, where, keyConfigured.contains(table),
						names);
				if (problem != null) {
					tableProblems.putIfAbsent(table, problem);
				}
			}
			String serverUuid = (flavor == Flavor.MYSQL) ? variables.get("server_uuid") : null;
			return new ServerInfo(flavor, version, gtidMode(flavor, variables), serverId, serverUuid, problems,
					tableProblems);
		}
	}

	/**
	 * Evaluates the binary log settings; see {@link BinlogSettingsCheck#problems}.
	 * @param variables global variables by name, as {@code SHOW GLOBAL VARIABLES} reports them
	 * @param where the server, as {@code host:port}, for the messages
	 * @return a message for every setting Tributary cannot work with, empty when all are fine
	 */
	static List<String> settingProblems(Map<String, String> variables, String where) {
		return BinlogSettingsCheck.problems(variables, where);
	}

	/**
	 * Compares the server id Tributary registers with to the source's own.
	 * @param replicaServerId the configured replica server id
	 * @param sourceServerId the source's {@code @@server_id}
	 * @param where the server, as {@code host:port}, for the message
	 * @param names how the message names the server id setting
	 * @return a message when the two are equal, otherwise {@code null}
	 */
	static String serverIdProblem(long replicaServerId, long sourceServerId, String where, SettingNames names) {
		if (replicaServerId != sourceServerId) {
			return null;
		}
		return "Replica server id " + replicaServerId + " is also the server_id of the source " + where
				+ "; every server in a replication topology needs its own id: "
				+ "set " + names.of(Setting.SERVER_ID) + " to a different value";
	}

	/**
	 * Evaluates the replication privileges of an account; see
	 * {@link PrivilegeCheck#problems(Collection, String, String, String)}.
	 * @param grants the rows of {@code SHOW GRANTS}
	 * @param account the account, quoted as in a GRANT statement: {@code 'x'@'%'}
	 * @param clientPrivilege the name of the privilege to name when REPLICATION CLIENT is missing
	 * @param where the server, as {@code host:port}, for the messages
	 * @return a message for each missing privilege, empty when the account may replicate
	 */
	static List<String> privilegeProblems(Collection<String> grants, String account, String clientPrivilege,
			String where) {
		return PrivilegeCheck.problems(grants, account, clientPrivilege, where);
	}

	/** Collects the privileges granted on {@code *.*}; see {@link PrivilegeCheck#globalPrivileges}. */
	static Set<String> globalPrivileges(Collection<String> grants) {
		return PrivilegeCheck.globalPrivileges(grants);
	}

	/**
	 * Returns the name of the REPLICATION CLIENT privilege on the server; see
	 * {@link PrivilegeCheck#clientPrivilege}.
	 */
	static String clientPrivilege(Flavor flavor, String version) {
		return PrivilegeCheck.clientPrivilege(flavor, version);
	}

	/** Tells MariaDB from MySQL by {@code VERSION()} and {@code @@version_comment}. */
	static Flavor flavor(String version, String versionComment) {
		return Flavor.of(version, versionComment);
	}

	/** Returns {@code @@gtid_mode} on MySQL ({@code OFF} when absent), {@value ServerInfo#MARIADB_GTID} on MariaDB. */
	static String gtidMode(Flavor flavor, Map<String, String> variables) {
		if (flavor == Flavor.MARIADB) {
			return ServerInfo.MARIADB_GTID;
		}
		String mode = variables.get("gtid_mode");
		return (mode != null) ? mode.trim() : "OFF";
	}

	/** Turns {@code CURRENT_USER()}, {@code user@host}, into {@code 'user'@'host'}. */
	static String account(String currentUser) {
		int at = currentUser.lastIndexOf('@');
		if (at < 0) {
			return quoted(currentUser);
		}
		return quoted(currentUser.substring(0, at)) + "@" + quoted(currentUser.substring(at + 1));
	}

	private static String quoted(String name) {
		return "'" + name.replace("'", "''") + "'";
	}

	/** Returns {@code host:port}, with an IPv6 address in brackets. */
	static String address(String host, int port) {
		boolean ipv6 = host.contains(":") && !host.startsWith("[");
		return (ipv6 ? "[" + host + "]" : host) + ":" + port;
	}

	private static Map<String, String> variables(Connection connection) throws SQLException {
		String names = VARIABLES.stream().map((name) -> "'" + name + "'").collect(Collectors.joining(", "));
		Map<String, String> variables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW GLOBAL VARIABLES WHERE Variable_name IN (" + names + ")")) {
			while (rs.next()) {
				String value = rs.getString(2);
				variables.put(rs.getString(1), (value != null) ? value : "");
			}
		}
		return variables;
	}

}
