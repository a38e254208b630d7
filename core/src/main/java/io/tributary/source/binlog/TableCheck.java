package io.tributary.source.binlog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

import io.tributary.jdbc.SqlErrors;
import io.tributary.name.TableId;
import io.tributary.schema.LayoutReader;
import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;

/**
 * Checks one table to replicate: that it exists, that the account may read it, that it is a base
 * table rather than a view (whose rows never reach the binary log), and that it has a primary key
 * unless a unique key was configured for it. A problem refuses that table only.
 */
final class TableCheck {

	private TableCheck() {
	}

	/**
	 * Returns why the table cannot be replicated, or {@code null} when it can.
	 * @param connection a connection as the replicating account
	 * @param table the table
	 * @param account the account, quoted as in a GRANT statement, for the messages
	 * @param where the server, as {@code host:port}, for the messages
	 * @param keyConfigured whether the table is keyed by a configured unique key, which the layout
	 * reader validates, so it needs no primary key
	 * @param names how the messages name the settings they point to
	 * @throws SQLException when the server cannot be queried at all
	 */
	static String problem(Connection connection, TableId table, String account, String where, boolean keyConfigured,
			SettingNames names) throws SQLException {
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
					return missing(table, where, names);
				}
				default -> {
					if (ex.getErrorCode() <= 0 || SqlErrors.isConnectionLevel(ex)) {
						throw ex;
					}
					return "Table " + table + " on " + where + " cannot be read (" + ex.getMessage()
							+ "); repair it or remove it from " + names.of(Setting.TABLES);
				}
			}
		}
		String type = tableType(connection, table);
		if (type == null) {
			return missing(table, where, names);
		}
		if (type.toUpperCase(Locale.ROOT).endsWith("VIEW")) {
			return "Table " + table + " on " + where + " is a view, whose rows never appear in the binary log: "
					+ "replicate the tables it selects from instead";
		}
		if (!keyConfigured && LayoutReader.primaryKeyColumns(connection, table).isEmpty()) {
			return "Table " + table + " on " + where + " has no primary key; Tributary merges changes by key. "
					+ "Add one: ALTER TABLE " + table.quoted() + " ADD PRIMARY KEY (...), or name the columns of a "
					+ "unique key whose columns are all NOT NULL in the table's " + names.of(Setting.TABLE_KEY);
		}
		return null;
	}

	private static String missing(TableId table, String where, SettingNames names) {
		return "Table " + table + " does not exist on " + where + "; create it or correct the name in "
				+ names.of(Setting.TABLES);
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

}
