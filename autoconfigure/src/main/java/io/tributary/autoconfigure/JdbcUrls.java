package io.tributary.autoconfigure;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Reads the default schema out of a MySQL or MariaDB JDBC URL.
 */
final class JdbcUrls {

	private JdbcUrls() {
	}

	/**
	 * Returns the database named in the URL's path, or {@code null} when it names none:
	 * {@code jdbc:mysql://db:3306/replica?x=y} gives {@code replica}.
	 */
	static String defaultSchema(String url) {
		if (url == null) {
			return null;
		}
		int scheme = url.indexOf("://");
		if (scheme < 0) {
			return null;
		}
		String rest = url.substring(scheme + 3);
		int query = rest.indexOf('?');
		if (query >= 0) {
			rest = rest.substring(0, query);
		}
		int slash = rest.indexOf('/');
		if (slash < 0 || slash == rest.length() - 1) {
			return null;
		}
		return URLDecoder.decode(rest.substring(slash + 1), StandardCharsets.UTF_8);
	}

}
