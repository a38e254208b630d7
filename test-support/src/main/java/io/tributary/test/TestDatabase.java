package io.tributary.test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

/**
 * The database view of one test class, handed out by {@link DatabaseExtension}.
 *
 * <p>Schemas created through {@link #schema(String)} are named after the test class, so test
 * classes that share the server do not share tables. The name is {@code t_}, the class's simple
 * name in lower case, {@code _} and the suffix, with every character outside {@code [a-z0-9_]}
 * replaced by {@code _}; for example {@code ReplicationIT} and {@code "src"} give
 * {@code t_replicationit_src}. Names longer than 64 characters have the class part shortened and
 * a hash of the full class name added, so they stay distinct.
 *
 * <p>This class is thread-safe.
 */
public final class TestDatabase {

	static final int MAX_SCHEMA_NAME = 64;

	private final Class<?> testClass;
	private final TestDatabaseServer server;
	private final Map<String, String> schemas = new ConcurrentHashMap<>();

	TestDatabase(Class<?> testClass, TestDatabaseServer server) {
		this.testClass = testClass;
		this.server = server;
	}

	/** The shared server. */
	public TestDatabaseServer server() {
		return server;
	}

	/** The test class this instance belongs to. */
	public Class<?> testClass() {
		return testClass;
	}

	/**
	 * Returns this class's schema for the suffix, dropping and recreating it empty on the first call
	 * for that suffix; later calls from the same test class return the name without touching the
	 * schema.
	 *
	 * @param suffix short name of letters, digits and {@code _}, or null or empty for none
	 * @return the schema name
	 */
	public String schema(String suffix) {
		String name = schemaName(testClass, suffix);
		return schemas.computeIfAbsent(name, server::createSchema);
	}

	/** {@link TestDatabaseServer#dataSource(String)} of the shared server. */
	public DataSource dataSource(String schema) {
		return server.dataSource(schema);
	}

	/** {@link TestDatabaseServer#jdbcUrl(String)} of the shared server. */
	public String jdbcUrl(String schema) {
		return server.jdbcUrl(schema);
	}

	/** The schema name {@link #schema(String)} uses for a class and suffix. */
	static String schemaName(Class<?> testClass, String suffix) {
		String classPart = sanitize(testClass.getSimpleName());
		String suffixPart = suffix == null || suffix.isEmpty() ? "" : "_" + sanitize(suffix);
		String name = "t_" + classPart + suffixPart;
		if (name.length() <= MAX_SCHEMA_NAME) {
			return name;
		}
		String hash = "_" + shortHash(testClass.getName());
		int room = MAX_SCHEMA_NAME - "t_".length() - hash.length() - suffixPart.length();
		if (room < 1) {
			throw new IllegalArgumentException("schema suffix too long: " + suffix);
		}
		return "t_" + classPart.substring(0, Math.min(room, classPart.length())) + hash + suffixPart;
	}

	private static String sanitize(String text) {
		StringBuilder out = new StringBuilder(text.length());
		for (char c : text.toLowerCase(Locale.ROOT).toCharArray()) {
			out.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ? c : '_');
		}
		return out.toString();
	}

	private static String shortHash(String text) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 3);
		} catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}

	@Override
	public String toString() {
		return "TestDatabase[" + testClass.getSimpleName() + " on " + server + "]";
	}
}
