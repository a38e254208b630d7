package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.tributary.name.TableId;
import io.tributary.source.binlog.ServerInfo.Flavor;

/**
 * Checks that the connecting account may read the binary log as a replica (REPLICATION SLAVE) and
 * ask for its position (REPLICATION CLIENT, named BINLOG MONITOR on MariaDB 10.5 and later).
 *
 * <p>Privileges are read with {@code SHOW GRANTS} for the account the connection authenticated as
 * ({@code CURRENT_USER()}); only global grants ({@code ON *.*}) count. Privileges of active roles
 * are included: on MySQL through {@code SHOW GRANTS ... USING} the roles of {@code CURRENT_ROLE()},
 * on MariaDB by also reading the grants of {@code CURRENT_ROLE()}.
 */
final class PrivilegeCheck {

	/** Global privileges that allow reading the binary log as a replica. */
	private static final Set<String> REPLICATION_SLAVE = Set.of("ALL", "REPLICATION SLAVE", "REPLICATION REPLICA");

	/** Global privileges that allow asking for the binary log position. */
	private static final Set<String> REPLICATION_CLIENT = Set.of("ALL", "REPLICATION CLIENT", "BINLOG MONITOR",
			"SUPER");

	private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");

	private static final Pattern WHITESPACE = Pattern.compile("\\s+");

	private PrivilegeCheck() {
	}

	/**
	 * Reads the account's grants and evaluates them.
	 * @param connection a connection as the account
	 * @param account the account, quoted as in a GRANT statement: {@code 'x'@'%'}
	 * @param flavor the kind of server
	 * @param version the server's {@code VERSION()}
	 * @param where the server, as {@code host:port}, for the messages
	 * @return a message for each missing privilege, empty when the account may replicate
	 * @throws SQLException when the grants cannot be read
	 */
	static List<String> problems(Connection connection, String account, Flavor flavor, String version, String where)
			throws SQLException {
		return problems(grants(connection, flavor), account, clientPrivilege(flavor, version), where);
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
	static List<String> problems(Collection<String> grants, String account, String clientPrivilege, String where) {
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

}
