package io.tributary.source.binlog;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import com.github.shyiko.mysql.binlog.network.SSLSocketFactory;

import io.tributary.settings.Setting;
import io.tributary.settings.SettingNames;
import io.tributary.source.SourceSettings;
import io.tributary.source.SslMode;

/**
 * Applies {@link SourceSettings#sslMode()} and {@link SourceSettings#sslCa()} to the replication
 * connection, and keeps the trust store file the JDBC connections use for the same CA.
 *
 * <p>{@link SslMode#DISABLED}, {@link SslMode#PREFERRED} and {@link SslMode#REQUIRED} are left to
 * the binlog client, which encrypts without verifying in the latter two. For
 * {@link SslMode#VERIFY_CA} and {@link SslMode#VERIFY_IDENTITY} the client gets a socket factory of
 * ours that verifies the server's certificate against the configured CA file (or the JVM's trust
 * store) and, for {@code VERIFY_IDENTITY}, checks that the certificate names the configured host
 * (HTTPS rules: an address must be an IP subject alternative name, a host name a DNS one). The
 * client itself is told {@code VERIFY_CA} in both cases, because its own identity check compares
 * the certificate with the reverse DNS name of the address connected to rather than with the host
 * that was configured.
 */
final class SourceTls {

	/** Protects the integrity of the trust store files written for JDBC; they hold only public certificates. */
	private static final String TRUST_STORE_PASSWORD = newPassword();

	/** Trust store files already written, by SHA-256 of the CA file's content. */
	private static final Map<String, Path> trustStores = new ConcurrentHashMap<>();

	private SourceTls() {
	}

	/**
	 * Configures TLS of a replication client.
	 * @param client the client, not yet connected
	 * @param settings the source settings
	 * @param names how messages about TLS name the settings they point to
	 * @throws IllegalStateException if the CA file cannot be read or holds no certificate
	 */
	static void configure(BinaryLogClient client, SourceSettings settings, SettingNames names) {
		SslMode mode = settings.sslMode();
		if (mode == SslMode.VERIFY_CA || mode == SslMode.VERIFY_IDENTITY) {
			client.setSSLMode(SSLMode.VERIFY_CA);
			client.setSslSocketFactory(new VerifyingSocketFactory(sslContext(settings, names), settings.host(),
					settings.port(), mode == SslMode.VERIFY_IDENTITY));
		}
		else {
			client.setSSLMode(SSLMode.valueOf(mode.name()));
		}
	}

	/**
	 * Returns a PKCS #12 trust store file holding the certificates of the settings' CA file, for
	 * drivers that cannot read PEM. The file is written once per distinct CA content, readable
	 * only by its owner where the file system allows, and deleted when the JVM exits.
	 * @param settings settings whose {@link SourceSettings#sslCa()} is set
	 * @param names how messages about the CA file name the settings they point to
	 * @return the file
	 * @throws IllegalStateException if the CA file cannot be read or holds no certificate
	 */
	static Path trustStoreFile(SourceSettings settings, SettingNames names) {
		byte[] pem = readCaFile(settings.sslCa(), names);
		String key = sha256(pem);
		// Written again if something (a temporary directory cleaner) removed it meanwhile.
		return trustStores.compute(key, (ignored, written) -> (written != null && Files.isRegularFile(written))
				? written : writeTrustStore(settings.sslCa(), pem, names));
	}

	/** The password of every file {@link #trustStoreFile(SourceSettings, SettingNames)} returns. */
	static String trustStorePassword() {
		return TRUST_STORE_PASSWORD;
	}

	private static SSLContext sslContext(SourceSettings settings, SettingNames names) {
		String trusted = (settings.sslCa() != null) ? "the CA file " + settings.sslCa() : "the JVM's trust store";
		try {
			KeyStore anchors = (settings.sslCa() != null)
					? trustStore(settings.sslCa(), readCaFile(settings.sslCa(), names), names) : null;
			TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			factory.init(anchors);
			X509ExtendedTrustManager delegate = null;
			for (TrustManager manager : factory.getTrustManagers()) {
				if (manager instanceof X509ExtendedTrustManager extended) {
					delegate = extended;
				}
			}
			if (delegate == null) {
				throw new IllegalStateException("The JVM's " + factory.getAlgorithm() + " trust manager factory offers no "
						+ "X.509 trust manager, so the source's certificate cannot be verified; run on a JVM with the "
						+ "standard JSSE provider");
			}
			SSLContext context = SSLContext.getInstance("TLS");
			TrustManager explaining = new ExplainingTrustManager(delegate, trusted, settings, names);
			context.init(null, new TrustManager[] { explaining }, null);
			return context;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot set up TLS verification of " + settings.host() + ":"
					+ settings.port() + " against " + trusted + ": " + ex.getMessage(), ex);
		}
	}

	private static byte[] readCaFile(String file, SettingNames names) {
		String property = names.of(Setting.SSL_CA);
		try {
			return Files.readAllBytes(Paths.get(file));
		}
		catch (NoSuchFileException ex) {
			throw new IllegalStateException("The source's CA file " + file + " (" + property + ") does not exist; "
					+ "point " + property + " at the PEM file of the certificate authority that signed the source's "
					+ "certificate", ex);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read the source's CA file " + file + " (" + property + "): "
					+ ex.getMessage() + "; make it readable by this process", ex);
		}
	}

	private static KeyStore trustStore(String file, byte[] pem, SettingNames names) {
		String property = names.of(Setting.SSL_CA);
		Collection<? extends Certificate> certificates;
		try {
			certificates = CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem));
		}
		catch (CertificateException ex) {
			throw new IllegalStateException("The source's CA file " + file + " (" + property + ") is not a valid "
					+ "PEM certificate file: " + ex.getMessage() + "; it must hold one or more '-----BEGIN "
					+ "CERTIFICATE-----' blocks", ex);
		}
		if (certificates.isEmpty()) {
			throw new IllegalStateException("The source's CA file " + file + " (" + property + ") holds no "
					+ "certificate; it must hold one or more '-----BEGIN CERTIFICATE-----' blocks");
		}
		try {
			KeyStore store = KeyStore.getInstance("PKCS12");
			store.load(null, null);
			int i = 0;
			for (Certificate certificate : certificates) {
				store.setCertificateEntry("ca-" + i++, certificate);
			}
			return store;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException("Cannot build a trust store from the source's CA file " + file + ": "
					+ ex.getMessage(), ex);
		}
	}

	private static Path writeTrustStore(String file, byte[] pem, SettingNames names) {
		KeyStore store = trustStore(file, pem, names);
		Path path = null;
		try {
			if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
				path = Files.createTempFile("tributary-source-ca-", ".p12",
						PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
			}
			else {
				path = Files.createTempFile("tributary-source-ca-", ".p12");
			}
			path.toFile().deleteOnExit();
			try (OutputStream out = Files.newOutputStream(path)) {
				store.store(out, TRUST_STORE_PASSWORD.toCharArray());
			}
			return path;
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot write a trust store for the JDBC connections to the source "
					+ "(from CA file " + file + ") to the temporary directory " + System.getProperty("java.io.tmpdir")
					+ ": " + ex.getMessage() + "; make java.io.tmpdir writable", ex);
		}
	}

	private static String sha256(byte[] content) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("SHA-256 is not available in this JVM", ex);
		}
	}

	private static String newPassword() {
		byte[] bytes = new byte[18];
		new SecureRandom().nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	/**
	 * Wraps the replication socket in TLS with a context that verifies the server, naming the
	 * configured host so that endpoint identification checks that name.
	 */
	private static final class VerifyingSocketFactory implements SSLSocketFactory {

		private final SSLContext context;

		private final String host;

		private final int port;

		private final boolean identity;

		VerifyingSocketFactory(SSLContext context, String host, int port, boolean identity) {
			this.context = context;
			this.host = host;
			this.port = port;
			this.identity = identity;
		}

		@Override
		public SSLSocket createSocket(Socket socket) throws SocketException {
			try {
				SSLSocket tls = (SSLSocket) this.context.getSocketFactory()
					.createSocket(socket, this.host, this.port, true);
				if (this.identity) {
					SSLParameters parameters = tls.getSSLParameters();
					parameters.setEndpointIdentificationAlgorithm("HTTPS");
					tls.setSSLParameters(parameters);
				}
				return tls;
			}
			catch (IOException ex) {
				SocketException failure = new SocketException("Cannot start TLS on the connection to " + this.host + ":"
						+ this.port + ": " + ex.getMessage());
				failure.initCause(ex);
				throw failure;
			}
		}

	}

	/**
	 * Verifies the server's certificate with the JVM's PKIX trust manager and, when it fails, says
	 * which check failed and how to fix it, since that message becomes the connection's error.
	 */
	private static final class ExplainingTrustManager extends X509ExtendedTrustManager {

		private final X509ExtendedTrustManager delegate;

		private final String trusted;

		private final SourceSettings settings;

		private final SettingNames names;

		ExplainingTrustManager(X509ExtendedTrustManager delegate, String trusted, SourceSettings settings,
				SettingNames names) {
			this.delegate = delegate;
			this.trusted = trusted;
			this.settings = settings;
			this.names = names;
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
				throws CertificateException {
			try {
				this.delegate.checkServerTrusted(chain, authType, socket);
			}
			catch (CertificateException ex) {
				throw explain(chain, authType, ex);
			}
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
				throws CertificateException {
			try {
				this.delegate.checkServerTrusted(chain, authType, engine);
			}
			catch (CertificateException ex) {
				throw explain(chain, authType, ex);
			}
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
			try {
				this.delegate.checkServerTrusted(chain, authType);
			}
			catch (CertificateException ex) {
				throw explain(chain, authType, ex);
			}
		}

		private CertificateException explain(X509Certificate[] chain, String authType, CertificateException ex) {
			String certificate = (chain != null && chain.length > 0)
					? "certificate (subject '" + chain[0].getSubjectX500Principal().getName() + "', issuer '"
							+ chain[0].getIssuerX500Principal().getName() + "')"
					: "certificate";
			String where = this.settings.host() + ":" + this.settings.port();
			boolean trustedChain;
			try {
				// Without a socket the delegate checks the chain only, not the host name.
				this.delegate.checkServerTrusted(chain, authType);
				trustedChain = true;
			}
			catch (CertificateException notTrusted) {
				trustedChain = false;
			}
			String message;
			String mode = this.names.of(Setting.SSL_MODE);
			if (trustedChain) {
				message = "The " + certificate + " of source " + where + " does not name host '" + this.settings.host()
						+ "' (" + ex.getMessage() + "). Connect by a name or address the certificate lists among its "
						+ "subject alternative names, or set " + mode + " to verify-ca to check the issuer only";
			}
			else {
				message = "The " + certificate + " of source " + where + " is not trusted by " + this.trusted + " ("
						+ ex.getMessage() + "). Set " + this.names.of(Setting.SSL_CA) + " to the PEM file of the "
						+ "certificate authority that signed the source's certificate, or set " + mode + " to required "
						+ "to encrypt without "
						+ "verifying";
			}
			return new CertificateException(message, ex);
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
				throws CertificateException {
			this.delegate.checkClientTrusted(chain, authType, socket);
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
				throws CertificateException {
			this.delegate.checkClientTrusted(chain, authType, engine);
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
			this.delegate.checkClientTrusted(chain, authType);
		}

		@Override
		public X509Certificate[] getAcceptedIssuers() {
			return this.delegate.getAcceptedIssuers();
		}

	}

}
