package io.tributary.test;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A server that already runs elsewhere, described by a JDBC URL such as
 * {@code jdbc:mysql://host:3306/?user=root&password=x}. Credentials may also be given as
 * {@code jdbc:mysql://user:password@host:3306/}. Nothing is started, stopped or changed on it.
 */
final class ExternalServer implements ServerBackend {

	private static final int DEFAULT_PORT = 3306;

	private final String host;
	private final int port;
	private final String user;
	private final String password;
	private final String extraParameters;

	private ExternalServer(String host, int port, String user, String password, String extraParameters) {
		this.host = host;
		this.port = port;
		this.user = user;
		this.password = password;
		this.extraParameters = extraParameters;
	}

	/**
	 * Parses a {@code jdbc:mysql://} or {@code jdbc:mariadb://} URL. Query parameters other than
	 * {@code user} and {@code password} are kept and appended to every URL built for this server.
	 *
	 * @throws IllegalArgumentException if the URL cannot be understood
	 */
	static ExternalServer parse(String jdbcUrl) {
		String url = jdbcUrl.trim();
		String rest;
		if (url.startsWith("jdbc:mysql://")) {
			rest = url.substring("jdbc:mysql://".length());
		} else if (url.startsWith("jdbc:mariadb://")) {
			rest = url.substring("jdbc:mariadb://".length());
		} else {
			throw new IllegalArgumentException("expected a jdbc:mysql:// URL, got " + redact(url));
		}
		String query = "";
		int question = rest.indexOf('?');
		if (question >= 0) {
			query = rest.substring(question + 1);
			rest = rest.substring(0, question);
		}
		int slash = rest.indexOf('/');
		String authority = slash >= 0 ? rest.substring(0, slash) : rest;

		String user = null;
		String password = null;
		int at = authority.lastIndexOf('@');
		if (at >= 0) {
			String userInfo = authority.substring(0, at);
			authority = authority.substring(at + 1);
			int colon = userInfo.indexOf(':');
			user = decode(colon >= 0 ? userInfo.substring(0, colon) : userInfo);
			password = colon >= 0 ? decode(userInfo.substring(colon + 1)) : null;
		}

		String host;
		int port = DEFAULT_PORT;
		if (authority.startsWith("[")) {
			int close = authority.indexOf(']');
			if (close < 0) {
				throw new IllegalArgumentException("bad IPv6 host in " + redact(url));
			}
			host = authority.substring(1, close);
			String after = authority.substring(close + 1);
			if (after.startsWith(":")) {
				port = parsePort(after.substring(1), url);
			}
		} else {
			int colon = authority.lastIndexOf(':');
			host = colon >= 0 ? authority.substring(0, colon) : authority;
			if (colon >= 0) {
				port = parsePort(authority.substring(colon + 1), url);
			}
		}
		if (host.isEmpty()) {
			throw new IllegalArgumentException("no host in " + redact(url));
		}

		List<String> extra = new ArrayList<>();
		for (String pair : query.split("&")) {
			if (pair.isEmpty()) {
				continue;
			}
			int equals = pair.indexOf('=');
			String key = decode(equals >= 0 ? pair.substring(0, equals) : pair);
			String value = equals >= 0 ? decode(pair.substring(equals + 1)) : "";
			if (key.equals("user")) {
				user = value;
			} else if (key.equals("password")) {
				password = value;
			} else {
				extra.add(pair);
			}
		}
		if (user == null || user.isEmpty()) {
			throw new IllegalArgumentException("no user in " + redact(url));
		}
		return new ExternalServer(host, port, user, password == null ? "" : password, String.join("&", extra));
	}

	private static int parsePort(String text, String url) {
		try {
			int port = Integer.parseInt(text);
			if (port <= 0 || port > 65535) {
				throw new NumberFormatException(text);
			}
			return port;
		} catch (NumberFormatException e) {
			throw new IllegalArgumentException("bad port in " + redact(url), e);
		}
	}

	private static String decode(String text) {
		return URLDecoder.decode(text, StandardCharsets.UTF_8);
	}

	/** The URL with any password value replaced, for error messages. */
	static String redact(String url) {
		return url.replaceAll("(?i)(password=)[^&]*", "$1***").replaceAll("//([^/@:]*):[^/@]*@", "//$1:***@");
	}

	@Override
	public void start() {
		// already running
	}

	@Override
	public String knownFlavor() {
		return null;
	}

	@Override
	public String host() {
		return host;
	}

	@Override
	public int port() {
		return port;
	}

	@Override
	public String bootstrapUser() {
		return user;
	}

	@Override
	public String bootstrapPassword() {
		return password;
	}

	@Override
	public String[] bootstrapStatements() {
		return new String[0];
	}

	@Override
	public String username() {
		return user;
	}

	@Override
	public String password() {
		return password;
	}

	@Override
	public String extraUrlParameters() {
		return extraParameters;
	}

	@Override
	public void stop() {
		// not ours
	}
}
