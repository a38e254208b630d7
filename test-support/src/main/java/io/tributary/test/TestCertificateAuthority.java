package io.tributary.test;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority for TLS tests: a self-signed CA certificate whose private key
 * lives only in memory, able to issue server certificates.
 *
 * <p>Keys are 2048-bit RSA, signatures SHA-256 with RSA, which both MariaDB (wolfSSL) and MySQL
 * (OpenSSL) accept. Certificates are valid from a day before creation for thirty days, so clock
 * differences between the test and the server do not matter. Files are written as PEM: the
 * certificates as {@code CERTIFICATE} blocks, private keys as {@code RSA PRIVATE KEY} blocks.
 *
 * <p>The embedded test servers use a certificate issued by such an authority; see
 * {@link TestDatabaseServer#caCertificate()}. Tests create further authorities to check that a
 * certificate from an authority that is not trusted is refused.
 *
 * <p>This class is thread-safe.
 */
public final class TestCertificateAuthority {

	private static final String SIGNATURE = "SHA256withRSA";
	private static final Duration BACKDATE = Duration.ofDays(1);
	private static final Duration VALIDITY = Duration.ofDays(30);
	private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
	private static final SecureRandom RANDOM = new SecureRandom();

	private final KeyPair keys;
	private final X509Certificate certificate;

	private TestCertificateAuthority(KeyPair keys, X509Certificate certificate) {
		this.keys = keys;
		this.certificate = certificate;
	}

	/**
	 * Creates an authority with a fresh key and a self-signed certificate.
	 *
	 * @param commonName the CN of the authority's subject, for example {@code "Tributary Test CA"}
	 */
	public static TestCertificateAuthority create(String commonName) {
		KeyPair keys = newKeyPair();
		X500Name subject = name(commonName);
		try {
			JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
			X509v3CertificateBuilder builder = builder(subject, subject, keys.getPublic())
					.addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
					.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
					.addExtension(Extension.subjectKeyIdentifier, false,
							extensions.createSubjectKeyIdentifier(keys.getPublic()));
			return new TestCertificateAuthority(keys, sign(builder, keys.getPrivate()));
		} catch (IOException | GeneralSecurityException e) {
			throw new IllegalStateException("cannot create the test CA certificate '" + commonName + "': " + e, e);
		}
	}

	/** The authority's self-signed certificate. */
	public X509Certificate certificate() {
		return certificate;
	}

	/**
	 * Writes the authority's certificate as PEM, replacing the file if it exists.
	 *
	 * @return {@code file}
	 */
	public Path writeCertificate(Path file) {
		writePem(file, certificate);
		return file;
	}

	/**
	 * Issues a server certificate for a fresh key and writes both as PEM, replacing the files if
	 * they exist.
	 *
	 * <p>The first name is the subject's CN. Every name becomes a subject alternative name: an
	 * IPv4 or IPv6 literal as an IP address entry, anything else as a DNS name entry. Clients that
	 * verify identity check only the alternative names, so a connection to a host that is not
	 * listed fails verification.
	 *
	 * @param certificateFile where the server certificate goes
	 * @param keyFile where the server's private key goes
	 * @param names host names and addresses the certificate is for; at least one
	 */
	public void issueServerCertificate(Path certificateFile, Path keyFile, String... names) {
		if (names.length == 0) {
			throw new IllegalArgumentException("a server certificate needs at least one host name or address");
		}
		KeyPair serverKeys = newKeyPair();
		try {
			JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
			List<GeneralName> alternatives = new ArrayList<>();
			for (String name : names) {
				boolean address = IPV4.matcher(name).matches() || name.contains(":");
				alternatives.add(new GeneralName(address ? GeneralName.iPAddress : GeneralName.dNSName, name));
			}
			X500Name issuer = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
			X509v3CertificateBuilder builder = builder(issuer, name(names[0]), serverKeys.getPublic())
					.addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
					.addExtension(Extension.keyUsage, true,
							new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
					.addExtension(Extension.extendedKeyUsage, false,
							new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
					.addExtension(Extension.subjectAlternativeName, false,
							new GeneralNames(alternatives.toArray(GeneralName[]::new)))
					.addExtension(Extension.subjectKeyIdentifier, false,
							extensions.createSubjectKeyIdentifier(serverKeys.getPublic()))
					.addExtension(Extension.authorityKeyIdentifier, false,
							extensions.createAuthorityKeyIdentifier(certificate));
			writePem(certificateFile, sign(builder, keys.getPrivate()));
			writePem(keyFile, serverKeys.getPrivate());
		} catch (IOException | GeneralSecurityException e) {
			throw new IllegalStateException("cannot issue a test server certificate for " + String.join(", ", names)
					+ ": " + e, e);
		}
	}

	/**
	 * Creates an authority and a server certificate for {@code 127.0.0.1} in a directory, as the
	 * embedded servers use them: {@code ca.pem}, {@code server-cert.pem} and {@code server-key.pem}.
	 * The certificate names only the address, not {@code localhost}, so that connecting by that
	 * name shows identity verification at work.
	 *
	 * @return the CA certificate file
	 */
	static Path writeServerFiles(Path directory) throws IOException {
		Files.createDirectories(directory);
		TestCertificateAuthority authority = create("Tributary Test CA " + Long.toHexString(RANDOM.nextLong()));
		authority.issueServerCertificate(directory.resolve("server-cert.pem"), directory.resolve("server-key.pem"),
				Local.LOOPBACK);
		return authority.writeCertificate(directory.resolve("ca.pem"));
	}

	private static KeyPair newKeyPair() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048, RANDOM);
			return generator.generateKeyPair();
		} catch (GeneralSecurityException e) {
			throw new IllegalStateException("cannot generate an RSA key pair: " + e, e);
		}
	}

	private static X500Name name(String commonName) {
		return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
	}

	private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, PublicKey key) {
		Instant now = Instant.now();
		BigInteger serial = new BigInteger(64, RANDOM).add(BigInteger.ONE);
		return new JcaX509v3CertificateBuilder(issuer, serial, Date.from(now.minus(BACKDATE)),
				Date.from(now.plus(VALIDITY)), subject, key);
	}

	private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey)
			throws GeneralSecurityException {
		try {
			return new JcaX509CertificateConverter()
					.getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(issuerKey)));
		} catch (OperatorCreationException e) {
			throw new GeneralSecurityException("cannot sign with " + SIGNATURE + ": " + e.getMessage(), e);
		}
	}

	private static void writePem(Path file, Object value) {
		StringWriter text = new StringWriter();
		try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
			pem.writeObject(value);
		} catch (IOException e) {
			throw new UncheckedIOException("cannot encode " + value.getClass().getSimpleName() + " as PEM", e);
		}
		try {
			Files.writeString(file, text.toString(), StandardCharsets.US_ASCII);
		} catch (IOException e) {
			throw new UncheckedIOException("cannot write " + file, e);
		}
	}

	@Override
	public String toString() {
		return "TestCertificateAuthority[" + certificate.getSubjectX500Principal().getName() + "]";
	}
}
