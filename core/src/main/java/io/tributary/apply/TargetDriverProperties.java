package io.tributary.apply;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.tributary.source.binlog.ServerInfo.Flavor;

/**
 * The MySQL Connector/J properties that give a pool of connections to the target server-side
 * prepared statements, cached per connection, where they are safe: on a MariaDB target.
 *
 * <p>A full-size batch is one multi-row REPLACE or DELETE whose text repeats for every batch of
 * that size. With client-side statements the driver renders every value into a fresh query string,
 * which the server parses again; prepared once on the server and kept, the statement is only
 * executed again, with its values sent in the binary protocol. The price is heap: the driver keeps
 * each cached statement's parameter objects, about 430 bytes per placeholder, on every connection
 * that ran it, outside the buffer's soft limit. {@link JdbcReplaceApplier} therefore prepares on
 * the server only full-size statements of at most
 * {@value BatchLimits#SERVER_SIDE_PLACEHOLDERS} placeholders (one REPLACE and one DELETE
 * per table), every other one on the client, and the cache keeps at most 16 statements per
 * connection.
 *
 * <p>A MySQL target keeps client-side statements: MySQL 8.0.31 refused a valid value of a latin1
 * column on the second execution of a server-side REPLACE whose first execution had succeeded
 * (error 3988, "Conversion from collation utf8mb4_0900_ai_ci into latin1_swedish_ci impossible
 * for parameter"), while the same statement text with the same values succeeds.
 */
public final class TargetDriverProperties {

	private static final Map<String, String> SERVER_SIDE = Map.of("useServerPrepStmts", "true",
			"cachePrepStmts", "true",
			// Statements kept per connection: the full-size REPLACE and DELETE of a few tables, and
			// the checkpoint and checksum statements.
			"prepStmtCacheSize", "16",
			// A 1,000-row REPLACE of a wide table runs to tens of kilobytes of SQL.
			"prepStmtCacheSqlLimit", "1048576");

	/**
	 * Opens a connection with the client's local-files capability, without which the server
	 * refuses {@code LOAD DATA LOCAL}, while the driver may open no file for it: the path it may
	 * read files under is set, but empty, so it refuses every file the server asks for.
	 * {@link LocalInfileLoad} hands the driver a stream of rows for its one statement instead.
	 */
	private static final Map<String, String> STREAMED_LOADS = Map.of("allowLoadLocalInfileInPath", "");

	private TargetDriverProperties() {
	}

	/**
	 * Returns the properties that let {@link JdbcReplaceApplier} stream snapshot chunks with
	 * {@code LOAD DATA LOCAL INFILE} from memory, and let the driver read no local file.
	 */
	public static Map<String, String> streamedLoads() {
		return STREAMED_LOADS;
	}

	/** Returns the properties of server-side prepared statements, each with its value. */
	public static Map<String, String> serverSide() {
		return SERVER_SIDE;
	}

	/**
	 * Returns the properties for a target server: {@link #serverSide()} for MariaDB, none for
	 * MySQL.
	 * @param productVersion the server's version as the driver reports it
	 * ({@code DatabaseMetaData.getDatabaseProductVersion()}), for example {@code 10.11.5-MariaDB-log}
	 */
	public static Map<String, String> forServer(String productVersion) {
		return (Flavor.of(productVersion, "") == Flavor.MARIADB) ? SERVER_SIDE : Map.of();
	}

	/**
	 * Returns the properties a JDBC URL does not set itself, so that a property the URL names, such
	 * as {@code useServerPrepStmts=false}, keeps the URL's value.
	 * @param jdbcUrl the URL of the target pool
	 * @param properties the properties the pool would get
	 */
	public static Map<String, String> missingFrom(String jdbcUrl, Map<String, String> properties) {
		int query = jdbcUrl.indexOf('?');
		String named = (query < 0) ? "" : "&" + jdbcUrl.substring(query + 1).toLowerCase(Locale.ROOT);
		Map<String, String> missing = new LinkedHashMap<>();
		properties.forEach((key, value) -> {
			if (!named.contains("&" + key.toLowerCase(Locale.ROOT) + "=")) {
				missing.put(key, value);
			}
		});
		return missing;
	}

}
