package io.tributary.source.binlog;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

import io.tributary.settings.SettingNames;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;

/**
 * JDBC access to a source server that matches its replication connection: the same host, port,
 * connect timeout and TLS mode.
 */
public final class SourceJdbc {

	private SourceJdbc() {
	}

	/**
	 * Returns a MySQL Connector/J URL for the source, without a default schema or credentials.
	 *
	 * <p>{@link SourceSettings#sslMode()} becomes Connector/J's {@code sslMode}, whose values have
	 * the same meanings. For {@link SslMode#VERIFY_CA} and {@link SslMode#VERIFY_IDENTITY} with a
	 * CA file, that file's certificates are copied into a PKCS #12 trust store in the temporary
	 * directory (Connector/J reads no PEM trust stores) named by {@code trustCertificateKeyStoreUrl};
	 * without a CA file Connector/J uses the JVM's trust store. The CA file is read when this
	 * method is called, so a replaced CA reaches JDBC connections only through a new URL.
	 *
	 * <p>{@code allowPublicKeyRetrieval=true} is set for {@link SslMode#DISABLED} and
	 * {@link SslMode#PREFERRED} only: a {@code caching_sha2_password} account on a plain connection
	 * needs the server's RSA key to send its password, while in the other modes the password
	 * travels inside TLS and no key is fetched.
	 * @param settings the source settings
	 * @return the URL, for example
	 * {@code jdbc:mysql://db:3306/?sslMode=REQUIRED&connectTimeout=10000}
	 * @throws IllegalStateException if the CA file cannot be read, holds no certificate, or the
	 * trust store cannot be written
	 */
	public static String url(SourceSettings settings) {
		return url(settings, SettingNames.ENGINE);
	}

	/**
	 * As {@link #url(SourceSettings)}, with messages that name settings as {@code names} does.
	 * @param settings the source settings
	 * @param names how messages about the CA file name the settings they point to
	 * @return the URL
	 * @throws IllegalStateException as {@link #url(SourceSettings)}
	 */
	public static String url(SourceSettings settings, SettingNames names) {
		Map<String, String> parameters = new LinkedHashMap<>();
		SslMode mode = settings.sslMode();
		parameters.put("sslMode", mode.name());
		if (mode == SslMode.DISABLED || mode == SslMode.PREFERRED) {
			parameters.put("allowPublicKeyRetrieval", "true");
		}
		if ((mode == SslMode.VERIFY_CA || mode == SslMode.VERIFY_IDENTITY) && settings.sslCa() != null) {
			parameters.put("trustCertificateKeyStoreUrl", SourceTls.trustStoreFile(settings, names).toUri().toString());
			parameters.put("trustCertificateKeyStoreType", "PKCS12");
			parameters.put("trustCertificateKeyStorePassword", SourceTls.trustStorePassword());
		}
		parameters.put("connectTimeout", Long.toString(settings.connectTimeout().toMillis()));
		StringJoiner query = new StringJoiner("&");
		parameters.forEach((name, value) -> query.add(name + "=" + encode(value)));
		String host = settings.host();
		if (host.contains(":") && !host.startsWith("[")) {
			host = "[" + host + "]";
		}
		return "jdbc:mysql://" + host + ":" + settings.port() + "/?" + query;
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
	}

}
