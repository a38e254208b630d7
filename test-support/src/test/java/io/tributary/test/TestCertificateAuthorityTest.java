package io.tributary.test;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TestCertificateAuthorityTest {

	@Test
	void issuesServerCertificatesSignedByItsSelfSignedCertificate(@TempDir Path directory) throws Exception {
		TestCertificateAuthority authority = TestCertificateAuthority.create("Unit Test CA");
		Path ca = authority.writeCertificate(directory.resolve("ca.pem"));
		authority.issueServerCertificate(directory.resolve("cert.pem"), directory.resolve("key.pem"), "127.0.0.1",
				"db.example");

		X509Certificate caCertificate = read(ca);
		assertThat(caCertificate).isEqualTo(authority.certificate());
		assertThat(caCertificate.getBasicConstraints()).isGreaterThanOrEqualTo(0);
		caCertificate.verify(caCertificate.getPublicKey());

		X509Certificate server = read(directory.resolve("cert.pem"));
		server.verify(caCertificate.getPublicKey());
		server.checkValidity();
		assertThat(server.getBasicConstraints()).isEqualTo(-1);
		assertThat(server.getSubjectX500Principal().getName()).isEqualTo("CN=127.0.0.1");
		assertThat(server.getIssuerX500Principal()).isEqualTo(caCertificate.getSubjectX500Principal());
		assertThat(server.getSubjectAlternativeNames()).containsExactlyInAnyOrder(List.of(7, "127.0.0.1"),
				List.of(2, "db.example"));
		assertThat(Files.readString(directory.resolve("key.pem"))).startsWith("-----BEGIN RSA PRIVATE KEY-----");
	}

	@Test
	void eachAuthorityHasItsOwnKey() throws Exception {
		X509Certificate one = TestCertificateAuthority.create("CA").certificate();
		X509Certificate other = TestCertificateAuthority.create("CA").certificate();
		assertThatThrownBy(() -> one.verify(other.getPublicKey())).isInstanceOf(java.security.SignatureException.class);
	}

	@Test
	void serverFilesNameOnlyTheLoopbackAddress(@TempDir Path directory) throws Exception {
		Path ca = TestCertificateAuthority.writeServerFiles(directory.resolve("tls"));
		assertThat(ca).isEqualTo(directory.resolve("tls/ca.pem"));
		X509Certificate server = read(directory.resolve("tls/server-cert.pem"));
		server.verify(read(ca).getPublicKey());
		assertThat(server.getSubjectAlternativeNames()).containsExactly(List.of(7, Local.LOOPBACK));
		assertThat(directory.resolve("tls/server-key.pem")).isRegularFile();
	}

	private static X509Certificate read(Path pem) throws Exception {
		try (InputStream in = Files.newInputStream(pem)) {
			return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
		}
	}
}
