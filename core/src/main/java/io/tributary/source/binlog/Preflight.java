package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import io.tributary.schema.LayoutReader;
import io.tributary.source.SourceSettings;
import io.tributary.source.TableId;
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
 * ({@code CURRENT_USER()}); only global grants ({@code ON *.*}) count for replication. Privileges
 * of active roles are included: on MySQL through {@code SHOW GRANTS ... USING} the roles of
 * {@code CURRENT_ROLE()}, on MariaDB by also reading the grants of {@code CURRENT_ROLE()}.
 */
public final class Preflight {

	/** The global variables the checks read. */
	static final List<String> VARIABLES = List.of("log_bin", "binlog_format", "binlog_row_image",
			"binlog_row_value_options", "binlog_transaction_compression", "log_bin_compress", "server_id",
			"server_uuid", "gtid_mode");

	/** Global privileges that allow reading the binary log as a replica. */
	private static final Set<String> REPLICATION_SLAVE = Set.of("ALL", "REPLICATION SLAVE", "REPLICATION REPLICA");

	/** Global privileges that allow asking for the binary log position. */
	private static final Set<String> REPLICATION_CLIENT = Set.of("ALL", "REPLICATION CLIENT", "BINLOG MONITOR",
			"SUPER");

	private static final String PERSIST = " (and set it in the server's configuration file)";

	private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");

	private static final Pattern WHITESPACE = Pattern.compile("\\s+");

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
		return check(source, settings, tables, java.util.Set.of());
	}

	/**
	 * As {@link #check(DataSource, SourceSettings, List)}, for tables some of which are keyed by a
	 * configured unique key instead of their primary key; for those the primary key is not
	 * required (the layout reader validates the configured key).
	 * @param keyConfigured tables with a configured key
	 */
	public static ServerInfo check(DataSource source, SourceSettings settings, List<TableId> tables,
			java.util.Set<TableId> keyConfigured) throws SQLException {
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
			List<String> problems = new ArrayList<>(settingProblems(variables, where));
			String serverIdProblem = serverIdProblem(settings.serverId(), serverId, where);
			if (serverIdProblem != null) {
				problems.add(serverIdProblem);
			}
			problems.addAll(privilegeProblems(grants(connection, flavor), account, clientPrivilege(flavor, version),
					where));
			Map<TableId, String> tableProblems = new LinkedHashMap<>();
			for (TableId table : tables) {
				String problem = tableProblem(connection, table, account, where, keyConfigured.contains(table));
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
	 * Evaluates the binary log settings.
	 * @param variables global variables by name, as {@code SHOW GLOBAL VARIABLES} reports them; a
	 * variable the server does not have is absent
	 * @param where the server, as {@code host:port}, for the messages
	 * @return a message for every setting Tributary cannot work with, empty when all are fine
	 */
	static List<String> settingProblems(Map<String, String> variables, String where) {
		Map<String, String> values = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		values.putAll(variables);
		List<String> problems = new ArrayList<>();
		String logBin = values.get("log_bin");
		if (!isOn(logBin)) {
			problems.add("log_bin is " + shown(logBin) + " on " + where + "; Tributary reads the binary log: "
					+ "add log_bin=mysql-bin to the [mysqld] section of the server's configuration file "
					+ "and restart the server");
		}
		String format = values.get("binlog_format");
		if (!"ROW".equalsIgnoreCase(trim(format))) {
			problems.add("binlog_format is " + shown(format) + " on " + where + "; Tributary needs ROW: "
					+ "SET GLOBAL binlog_format = 'ROW'" + PERSIST);
		}
		String rowImage = values.get("binlog_row_image");
		if (!"FULL".equalsIgnoreCase(trim(rowImage))) {
			problems.add("binlog_row_image is " + shown(rowImage) + " on " + where + "; Tributary needs FULL: "
					+ "SET GLOBAL binlog_row_image = 'FULL'" + PERSIST);
		}
		String rowValueOptions = values.get("binlog_row_value_options");
		if (rowValueOptions != null && !rowValueOptions.isBlank()) {
			problems.add("binlog_row_value_options is " + shown(rowValueOptions) + " on " + where
					+ "; Tributary needs it empty so that row events carry whole JSON values: "
					+ "SET GLOBAL binlog_row_value_options = ''" + PERSIST);
		}
		String compression = values.get("binlog_transaction_compression");
		if (isOn(compression)) {
			problems.add("binlog_transaction_compression is " + shown(compression) + " on " + where
					+ "; Tributary does not decode compressed transaction payloads: "
					+ "SET GLOBAL binlog_transaction_compression = OFF" + PERSIST);
		}
		String compress = values.get("log_bin_compress");
		if (isOn(compress)) {
			problems.add("log_bin_compress is " + shown(compress) + " on " + where
					+ "; Tributary does not decode compressed row events: SET GLOBAL log_bin_compress = OFF" + PERSIST);
		}
		return problems;
	}

	/**
	 * Compares the server id Tributary registers with to the source's own.
	 * @param replicaServerId the configured replica server id
	 * @param sourceServerId the source's {@code @@server_id}
	 * @param where the server, as {@code host:port}, for the message
	 * @return a message when the two are equal, otherwise {@code null}
	 */
	static String serverIdProblem(long replicaServerId, long sourceServerId, String where) {
		if (replicaServerId != sourceServerId) {
			return null;
		}
		return "Replica server id " + replicaServerId + " is also the server_id of the source " + where
				+ "; every server in a replication topology needs its own id: "
				+ "set cdc.source.server-id to a different value";
	}

	/**
	 * Evaluates the replication privileges of an account.
	 * @param grants the rows of {@code SHOW GRANTS}, for example
	 * {@code GRANT REPLICATION SLAVE ON *.* TO `x`@`%`}
	 * @param account the account, quoted as in a GRANT statement: {@code 'x'@'%'}
	 * @param clientPrivilege the name of the privilege to name when REPLICATION CLIENT is missing:
	 * {@code REPLICATION CLIENT}, or {@code BINLOG MONITOR} on MariaDB 10.5 and later
	 * @param where the server, as {@code host:port}, for the messages
	 * @return a message for each missing privilege, empty when the account may replicate
	 */
	static List<String> privilegeProblems(Collection<String> grants, String account, String clientPrivilege,
			String where) {
		Set<String> held = globalPrivileges(grants);
		List<String> problems = new ArrayList<>();
		if (Collections.disjoint(held, REPLICATION_SLAVE)) {
			problems.add(lacks(account, "REPLICATION SLAVE", where));
		}
		if (Collections.disjoint(held, REPLICATION_CLIENT)) {
			problems.add(lacks(account, clientPrivilege, where));
		}
		return problems;
	}

	private static String lacks(String account, String privilege, String where) {
		return "User " + account + " lacks " + privilege + " on " + where + ": GRANT " + privilege + " ON *.* TO "
				+ account;
	}

	/**
	 * Collects the privileges granted on {@code *.*}, in upper case with {@code ALL PRIVILEGES}
	 * shortened to {@code ALL}. Grants on a schema, a table or a column, proxy grants and role
	 * grants are skipped.
	 */
	static Set<String> globalPrivileges(Collection<String> grants) {
		Set<String> privileges = new LinkedHashSet<>();
		for (String grant : grants) {
			String text = WHITESPACE.matcher(grant.trim()).replaceAll(" ").toUpperCase(Locale.ROOT);
			int on = text.indexOf(" ON ");
			if (!text.startsWith("GRANT ") || on < 0 || !text.startsWith("*.* ", on + 4)) {
				continue;
			}
			for (String privilege : text.substring("GRANT ".length(), on).split(",")) {
				String name = privilege.trim();
				privileges.add(name.equals("ALL PRIVILEGES") ? "ALL" : name);
			}
		}
		return privileges;
	}

	/** Returns the name of the REPLICATION CLIENT privilege on the server: MariaDB 10.5 renamed it. */
	static String clientPrivilege(Flavor flavor, String version) {
		if (flavor == Flavor.MARIADB) {
			Matcher matcher = VERSION.matcher(version);
			if (matcher.find()) {
				int major = Integer.parseInt(matcher.group(1));
				int minor = Integer.parseInt(matcher.group(2));
				if (major > 10 || (major == 10 && minor >= 5)) {
					return "BINLOG MONITOR";
				}
			}
		}
		return "REPLICATION CLIENT";
	}

	/** Tells MariaDB from MySQL by {@code VERSION()} and {@code @@version_comment}. */
	static Flavor flavor(String version, String versionComment) {
		String text = (version + " " + versionComment).toLowerCase(Locale.ROOT);
		return text.contains("mariadb") ? Flavor.MARIADB : Flavor.MYSQL;
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

	/** Reads the grants of the current account and of its active roles. */
	private static List<String> grants(Connection connection, Flavor flavor) throws SQLException {
		String roles = activeRoles(connection);
		List<String> grants = new ArrayList<>();
		if (roles != null && flavor == Flavor.MYSQL) {
			try {
				return rows(connection, "SHOW GRANTS FOR CURRENT_USER() USING " + roles);
			}
			catch (SQLException ex) {
				// USING refuses a role that is active without being granted to the account (a
				// mandatory role); fall back to the account's own grants.
			}
		}
		grants.addAll(rows(connection, "SHOW GRANTS"));
		if (roles != null && flavor == Flavor.MARIADB) {
			grants.addAll(rows(connection, "SHOW GRANTS FOR " + TableId.quote(roles)));
		}
		return grants;
	}

	/** Returns {@code CURRENT_ROLE()}, or {@code null} when no role is active or the server has no roles. */
	private static String activeRoles(Connection connection) {
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT CURRENT_ROLE()")) {
			String roles = rs.next() ? rs.getString(1) : null;
			return (roles == null || roles.isBlank() || roles.equalsIgnoreCase("NONE")) ? null : roles;
		}
		catch (SQLException ex) {
			return null;
		}
	}

	private static List<String> rows(Connection connection, String sql) throws SQLException {
		List<String> rows = new ArrayList<>();
		try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
			while (rs.next()) {
				rows.add(rs.getString(1));
			}
		}
		return rows;
	}

	/** Returns why the table cannot be replicated, or {@code null} when it can. */
	private static String tableProblem(Connection connection, TableId table, String account, String where,
			boolean keyConfigured) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT 1 FROM " + table.quoted() + " LIMIT 0")) {
			rs.next();
		}
		catch (SQLException ex) {
			switch (ex.getErrorCode()) {
				case 1142, 1044 -> {
					return "User " + account + " cannot SELECT from " + table + " on " + where + ": GRANT SELECT ON "
							+ table.quoted() + " TO " + account;
				}
				case 1146, 1049 -> {
					return missing(table, where);
				}
				default -> {
					if (ex.getErrorCode() <= 0 || String.valueOf(ex.getSQLState()).startsWith("08")) {
						throw ex;
					}
					return "Table " + table + " on " + where + " cannot be read (" + ex.getMessage()
							+ "); repair it or remove it from cdc.tables";
				}
			}
		}
		String type = tableType(connection, table);
		if (type == null) {
			return missing(table, where);
		}
		if (type.toUpperCase(Locale.ROOT).endsWith("VIEW")) {
			return "Table " + table + " on " + where + " is a view, whose rows never appear in the binary log: "
					+ "replicate the tables it selects from instead";
		}
		if (!keyConfigured && LayoutReader.primaryKeyColumns(connection, table).isEmpty()) {
			return "Table " + table + " on " + where + " has no primary key; Tributary merges changes by key. "
					+ "Add one: ALTER TABLE " + table.quoted() + " ADD PRIMARY KEY (...), or name the columns of a "
					+ "unique key whose columns are all NOT NULL in the table's cdc.tables[n].key";
		}
		return null;
	}

	private static String missing(TableId table, String where) {
		return "Table " + table + " does not exist on " + where + "; create it or correct the name in cdc.tables";
	}

	private static String tableType(Connection connection, TableId table) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
			statement.setString(1, table.schema());
			statement.setString(2, table.table());
			try (ResultSet rs = statement.executeQuery()) {
				return rs.next() ? rs.getString(1) : null;
			}
		}
	}

	private static boolean isOn(String value) {
		String text = trim(value);
		return text != null && (text.equalsIgnoreCase("ON") || text.equals("1") || text.equalsIgnoreCase("TRUE"));
	}

	private static String trim(String value) {
		return (value != null) ? value.trim() : null;
	}

	private static String shown(String value) {
		if (value == null) {
			return "not set";
		}
		return value.isBlank() ? "''" : value.trim();
	}

}
