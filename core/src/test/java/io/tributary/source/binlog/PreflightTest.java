package io.tributary.source.binlog;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;
import io.tributary.source.binlog.ServerInfo.Flavor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class PreflightTest {

	private static final String WHERE = "db.example:3306";

	private static final String ACCOUNT = "'cdc'@'%'";

	@Test
	void acceptsHealthyMySqlSettings() {
		assertThat(Preflight.settingProblems(mysql(), WHERE)).isEmpty();
	}

	@Test
	void acceptsHealthyMariaDbSettingsWithoutMySqlOnlyVariables() {
		Map<String, String> variables = Map.of("log_bin", "ON", "binlog_format", "ROW", "binlog_row_image", "FULL",
				"log_bin_compress", "OFF", "server_id", "1");
		assertThat(Preflight.settingProblems(variables, WHERE)).isEmpty();
	}

	@Test
	void reportsBinaryLogOff() {
		assertThat(Preflight.settingProblems(mysql("log_bin", "OFF"), WHERE)).containsExactly(
				"log_bin is OFF on db.example:3306; Tributary reads the binary log: add log_bin=mysql-bin to the "
						+ "[mysqld] section of the server's configuration file and restart the server");
	}

	@Test
	void reportsBinaryLogVariableMissing() {
		Map<String, String> variables = mysql();
		variables.remove("log_bin");
		assertThat(Preflight.settingProblems(variables, WHERE)).singleElement()
			.asString()
			.startsWith("log_bin is not set on db.example:3306;");
	}

	@Test
	void reportsStatementFormat() {
		assertThat(Preflight.settingProblems(mysql("binlog_format", "STATEMENT"), WHERE)).containsExactly(
				"binlog_format is STATEMENT on db.example:3306; Tributary needs ROW: SET GLOBAL binlog_format = 'ROW' "
						+ "(and set it in the server's configuration file)");
	}

	@Test
	void reportsMixedFormat() {
		assertThat(Preflight.settingProblems(mysql("binlog_format", "MIXED"), WHERE)).singleElement()
			.asString()
			.startsWith("binlog_format is MIXED on db.example:3306;");
	}

	@Test
	void reportsMinimalRowImage() {
		assertThat(Preflight.settingProblems(mysql("binlog_row_image", "MINIMAL"), WHERE)).containsExactly(
				"binlog_row_image is MINIMAL on db.example:3306; Tributary needs FULL: "
						+ "SET GLOBAL binlog_row_image = 'FULL' (and set it in the server's configuration file)");
	}

	@Test
	void reportsNoBlobRowImage() {
		assertThat(Preflight.settingProblems(mysql("binlog_row_image", "NOBLOB"), WHERE)).singleElement()
			.asString()
			.startsWith("binlog_row_image is NOBLOB on db.example:3306;");
	}

	@Test
	void reportsPartialJsonRowValues() {
		assertThat(Preflight.settingProblems(mysql("binlog_row_value_options", "PARTIAL_JSON"), WHERE))
			.containsExactly("binlog_row_value_options is PARTIAL_JSON on db.example:3306; Tributary needs it empty "
					+ "so that row events carry whole JSON values: SET GLOBAL binlog_row_value_options = '' "
					+ "(and set it in the server's configuration file)");
	}

	@Test
	void reportsTransactionCompression() {
		assertThat(Preflight.settingProblems(mysql("binlog_transaction_compression", "ON"), WHERE))
			.containsExactly("binlog_transaction_compression is ON on db.example:3306; Tributary does not decode "
					+ "compressed transaction payloads: SET GLOBAL binlog_transaction_compression = OFF "
					+ "(and set it in the server's configuration file)");
	}

	@Test
	void reportsMariaDbBinlogCompression() {
		assertThat(Preflight.settingProblems(Map.of("log_bin", "ON", "binlog_format", "ROW", "binlog_row_image",
				"FULL", "log_bin_compress", "ON"), WHERE))
			.containsExactly("log_bin_compress is ON on db.example:3306; Tributary does not decode compressed row "
					+ "events: SET GLOBAL log_bin_compress = OFF (and set it in the server's configuration file)");
	}

	@Test
	void reportsEveryBadSettingAtOnce() {
		Map<String, String> variables = mysql("log_bin", "OFF");
		variables.put("binlog_format", "STATEMENT");
		variables.put("binlog_row_image", "MINIMAL");
		variables.put("binlog_row_value_options", "PARTIAL_JSON");
		variables.put("binlog_transaction_compression", "ON");
		assertThat(Preflight.settingProblems(variables, WHERE)).hasSize(5)
			.allSatisfy((problem) -> assertThat(problem).contains(" on db.example:3306"));
	}

	@Test
	void readsValuesCaseInsensitively() {
		Map<String, String> variables = Map.of("LOG_BIN", "on", "Binlog_Format", "row", "binlog_row_image", "full");
		assertThat(Preflight.settingProblems(variables, WHERE)).isEmpty();
	}

	@Test
	void reportsReplicaServerIdEqualToSourceServerId() {
		assertThat(Preflight.serverIdProblem(1, 2, WHERE, SettingNames.ENGINE)).isNull();
		assertThat(Preflight.serverIdProblem(7, 7, WHERE, SettingNames.ENGINE)).isEqualTo("Replica server id 7 is also "
				+ "the server_id of the source db.example:3306; every server in a replication topology needs its own id: "
				+ "set SourceSettings.serverId to a different value");
	}

	@Test
	void namesTheServerIdAsThePipelinesSettingsNameIt() {
		SettingNames properties = (setting) -> (setting == Setting.SERVER_ID) ? "cdc.sources.eu.server-id" : "elsewhere";
		assertThat(Preflight.serverIdProblem(7, 7, WHERE, properties))
			.endsWith("needs its own id: set cdc.sources.eu.server-id to a different value");
	}

	@Test
	void acceptsAllPrivilegesOnMariaDb() {
		List<String> grants = List.of("GRANT ALL PRIVILEGES ON *.* TO `cdc`@`%` IDENTIFIED BY PASSWORD "
				+ "'*0123456789ABCDEF0123456789ABCDEF01234567' WITH GRANT OPTION");
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "BINLOG MONITOR", WHERE)).isEmpty();
	}

	@Test
	void acceptsExpandedAllPrivilegesOnMySql() {
		List<String> grants = List.of(
				"GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, RELOAD, SHUTDOWN, PROCESS, FILE, REFERENCES, "
						+ "INDEX, ALTER, SHOW DATABASES, SUPER, CREATE TEMPORARY TABLES, LOCK TABLES, EXECUTE, "
						+ "REPLICATION SLAVE, REPLICATION CLIENT, CREATE VIEW, SHOW VIEW, CREATE ROUTINE, "
						+ "ALTER ROUTINE, CREATE USER, EVENT, TRIGGER, CREATE TABLESPACE, CREATE ROLE, DROP ROLE "
						+ "ON *.* TO `cdc`@`%` WITH GRANT OPTION",
				"GRANT APPLICATION_PASSWORD_ADMIN,AUDIT_ABORT_EXEMPT,BACKUP_ADMIN,REPLICATION_SLAVE_ADMIN "
						+ "ON *.* TO `cdc`@`%` WITH GRANT OPTION");
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "REPLICATION CLIENT", WHERE)).isEmpty();
	}

	@Test
	void acceptsTheMinimalReplicationGrants() {
		List<String> grants = List.of("GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO `cdc`@`%`",
				"GRANT SELECT ON `shop`.* TO `cdc`@`%`");
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "REPLICATION CLIENT", WHERE)).isEmpty();
	}

	@Test
	void acceptsBinlogMonitorAndReplicaAlias() {
		List<String> grants = List.of("GRANT BINLOG MONITOR, REPLICATION REPLICA ON *.* TO `cdc`@`%`");
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "BINLOG MONITOR", WHERE)).isEmpty();
	}

	@Test
	void acceptsSuperInPlaceOfReplicationClient() {
		List<String> grants = List.of("GRANT SUPER, REPLICATION SLAVE ON *.* TO 'cdc'@'%'");
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "REPLICATION CLIENT", WHERE)).isEmpty();
	}

	@Test
	void reportsBothPrivilegesMissing() {
		List<String> grants = List.of("GRANT USAGE ON *.* TO `cdc`@`%`", "GRANT SELECT ON `shop`.* TO `cdc`@`%`");
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "REPLICATION CLIENT", WHERE)).containsExactly(
				"User 'cdc'@'%' lacks REPLICATION SLAVE on db.example:3306: GRANT REPLICATION SLAVE ON *.* TO 'cdc'@'%'",
				"User 'cdc'@'%' lacks REPLICATION CLIENT on db.example:3306: "
						+ "GRANT REPLICATION CLIENT ON *.* TO 'cdc'@'%'");
	}

	@Test
	void namesBinlogMonitorOnMariaDb() {
		List<String> grants = List.of("GRANT REPLICATION SLAVE ON *.* TO `cdc`@`%`");
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "BINLOG MONITOR", WHERE)).containsExactly(
				"User 'cdc'@'%' lacks BINLOG MONITOR on db.example:3306: GRANT BINLOG MONITOR ON *.* TO 'cdc'@'%'");
	}

	@Test
	void reportsReplicationSlaveMissingAlone() {
		List<String> grants = List.of("GRANT REPLICATION CLIENT ON *.* TO `cdc`@`%`");
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "REPLICATION CLIENT", WHERE)).containsExactly(
				"User 'cdc'@'%' lacks REPLICATION SLAVE on db.example:3306: GRANT REPLICATION SLAVE ON *.* TO 'cdc'@'%'");
	}

	@Test
	void ignoresPrivilegesThatAreNotGlobal() {
		List<String> grants = List.of("GRANT ALL PRIVILEGES ON `shop`.* TO `cdc`@`%`",
				"GRANT SELECT (`on`), INSERT ON `shop`.`t` TO `cdc`@`%`", "GRANT PROXY ON ''@'' TO 'cdc'@'%'",
				"GRANT `replicator`@`%` TO `cdc`@`%`", "GRANT `replicator` TO `cdc`@`%`");
		assertThat(Preflight.globalPrivileges(grants)).isEmpty();
		assertThat(Preflight.privilegeProblems(grants, ACCOUNT, "REPLICATION CLIENT", WHERE)).hasSize(2);
	}

	@Test
	void normalizesGlobalPrivileges() {
		List<String> grants = List.of("grant  replication   slave,BINLOG MONITOR on *.* to cdc",
				"GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost`");
		assertThat(Preflight.globalPrivileges(grants)).containsExactly("REPLICATION SLAVE", "BINLOG MONITOR", "ALL");
	}

	@Test
	void namesTheReplicationClientPrivilegePerServer() {
		assertThat(Preflight.clientPrivilege(Flavor.MYSQL, "8.0.31")).isEqualTo("REPLICATION CLIENT");
		assertThat(Preflight.clientPrivilege(Flavor.MARIADB, "10.4.32-MariaDB")).isEqualTo("REPLICATION CLIENT");
		assertThat(Preflight.clientPrivilege(Flavor.MARIADB, "10.5.2-MariaDB")).isEqualTo("BINLOG MONITOR");
		assertThat(Preflight.clientPrivilege(Flavor.MARIADB, "10.11.5-MariaDB-log")).isEqualTo("BINLOG MONITOR");
		assertThat(Preflight.clientPrivilege(Flavor.MARIADB, "11.4.2-MariaDB")).isEqualTo("BINLOG MONITOR");
	}

	@Test
	void tellsFlavors() {
		assertThat(Preflight.flavor("10.11.5-MariaDB-log", "MariaDB Server")).isEqualTo(Flavor.MARIADB);
		assertThat(Preflight.flavor("10.6.16", "mariadb.org binary distribution")).isEqualTo(Flavor.MARIADB);
		assertThat(Preflight.flavor("8.0.31", "MySQL Community Server - GPL")).isEqualTo(Flavor.MYSQL);
		assertThat(Preflight.flavor("8.0.35-27", "Percona Server (GPL), Release 27")).isEqualTo(Flavor.MYSQL);
	}

	@Test
	void reportsGtidMode() {
		assertThat(Preflight.gtidMode(Flavor.MYSQL, Map.of("gtid_mode", "ON"))).isEqualTo("ON");
		assertThat(Preflight.gtidMode(Flavor.MYSQL, Map.of())).isEqualTo("OFF");
		assertThat(Preflight.gtidMode(Flavor.MARIADB, Map.of())).isEqualTo(ServerInfo.MARIADB_GTID);
	}

	@Test
	void quotesAccountsAndAddresses() {
		assertThat(Preflight.account("cdc@%")).isEqualTo("'cdc'@'%'");
		assertThat(Preflight.account("o'brien@10.0.0.%")).isEqualTo("'o''brien'@'10.0.0.%'");
		assertThat(Preflight.account("mail@example@localhost")).isEqualTo("'mail@example'@'localhost'");
		assertThat(Preflight.address("127.0.0.1", 3306)).isEqualTo("127.0.0.1:3306");
		assertThat(Preflight.address("::1", 3307)).isEqualTo("[::1]:3307");
	}

	@Test
	void requireUsableListsEveryProblemOnItsOwnLine() {
		ServerInfo healthy = new ServerInfo(Flavor.MYSQL, "8.0.31", "ON", 1, "uuid", List.of(), Map.of());
		assertThat(healthy.requireUsable()).isSameAs(healthy);
		ServerInfo broken = new ServerInfo(Flavor.MYSQL, "8.0.31", "ON", 1, "uuid",
				List.of("binlog_format is STATEMENT", "binlog_row_image is MINIMAL"), Map.of());
		assertThat(broken.isUsable()).isFalse();
		assertThatExceptionOfType(PreflightException.class).isThrownBy(broken::requireUsable)
			.satisfies((ex) -> assertThat(ex.problems()).hasSize(2))
			.withMessage("The source server is not ready for replication; fix the following and start again:\n"
					+ "binlog_format is STATEMENT\nbinlog_row_image is MINIMAL");
	}

	private static Map<String, String> mysql(String... overrides) {
		Map<String, String> variables = new HashMap<>();
		variables.put("log_bin", "ON");
		variables.put("binlog_format", "ROW");
		variables.put("binlog_row_image", "FULL");
		variables.put("binlog_row_value_options", "");
		variables.put("binlog_transaction_compression", "OFF");
		variables.put("gtid_mode", "ON");
		variables.put("server_id", "1");
		variables.put("server_uuid", "3e11fa47-71ca-11e1-9e33-c80aa9429562");
		for (int i = 0; i < overrides.length; i += 2) {
			variables.put(overrides[i], overrides[i + 1]);
		}
		return variables;
	}

}
